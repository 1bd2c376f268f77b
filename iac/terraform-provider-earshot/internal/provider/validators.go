package provider

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// contractString checks a string attribute against the API's rule for the same field.
type contractString struct {
	field contract.Field
}

func (v contractString) Description(_ context.Context) string {
	return "as the Earshot API validates the field"
}

func (v contractString) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v contractString) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.field.CheckString(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", fmt.Sprintf("%s %s.", req.Path, problem))
	}
}

// contractInt64 checks an integer attribute against the API's bounds for the same field.
type contractInt64 struct {
	field contract.Field
}

func (v contractInt64) Description(_ context.Context) string {
	return "as the Earshot API validates the field"
}

func (v contractInt64) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v contractInt64) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.field.CheckNumber(float64(req.ConfigValue.ValueInt64())); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", fmt.Sprintf("%s %s.", req.Path, problem))
	}
}

// contractCount checks a set's size against the API's bounds for the list it becomes.
type contractCount struct {
	field contract.Field
}

func (v contractCount) Description(_ context.Context) string {
	return "as many items as the Earshot API accepts"
}

func (v contractCount) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v contractCount) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.field.CheckCount(len(req.ConfigValue.Elements())); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", fmt.Sprintf("%s %s.", req.Path, problem))
	}
}

// networkOf answers an allowlist entry as the key store keeps it: a CIDR without host bits
// (10.0.0.1/8 is kept as 10.0.0.0/8), a lone address as its /32 or /128.
func networkOf(entry string) string {
	if prefix, err := netip.ParsePrefix(entry); err == nil {
		return prefix.Masked().String()
	}
	if address, err := netip.ParseAddr(entry); err == nil {
		return netip.PrefixFrom(address, address.BitLen()).String()
	}
	return entry
}
