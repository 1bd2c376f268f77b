package provider

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// described gives a validator or plan modifier its description, in plain text and Markdown alike.
type described string

func (d described) Description(_ context.Context) string { return string(d) }

func (d described) MarkdownDescription(_ context.Context) string { return string(d) }

const asTheAPI described = "as the Earshot API validates the field"

// contractString checks a string attribute against the API's rule for the same field.
type contractString struct {
	described
	field contract.Field
}

func checkString(field contract.Field) contractString { return contractString{asTheAPI, field} }

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
	described
	field contract.Field
}

func checkInt64(field contract.Field) contractInt64 { return contractInt64{asTheAPI, field} }

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
	described
	field contract.Field
}

func checkCount(field contract.Field) contractCount { return contractCount{asTheAPI, field} }

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
