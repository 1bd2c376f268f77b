package provider

import (
	"context"
	"fmt"
	"sort"

	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// networksRequireReplace replaces a key whose allowlist names other networks;
// a respelling of the same networks (203.0.113.5 and 203.0.113.5/32) does not.
type networksRequireReplace struct{ described }

var replaceForOtherNetworks = networksRequireReplace{"replaces the key when the allowlist names other networks"}

func (m networksRequireReplace) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	if fmt.Sprint(networksOf(ctx, req.StateValue)) != fmt.Sprint(networksOf(ctx, req.PlanValue)) {
		resp.RequiresReplace = true
	}
}

func networksOf(ctx context.Context, set types.Set) []string {
	var entries []string
	if !set.IsNull() && !set.IsUnknown() {
		set.ElementsAs(ctx, &entries, false)
	}
	networks := make([]string, 0, len(entries))
	for _, entry := range entries {
		networks = append(networks, networkOf(entry))
	}
	sort.Strings(networks)
	return networks
}

// stringElements applies a string validator to each element of a set.
type stringElements struct {
	described
	element validator.String
}

func eachElement(element validator.String) stringElements {
	return stringElements{described("each element " + element.Description(context.Background())), element}
}

func (v stringElements) ValidateSet(ctx context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, element := range req.ConfigValue.Elements() {
		value, ok := element.(types.String)
		if !ok {
			continue
		}
		elementResp := &validator.StringResponse{}
		v.element.ValidateString(ctx, validator.StringRequest{
			Path:           req.Path.AtSetValue(value),
			PathExpression: req.PathExpression.AtSetValue(value),
			ConfigValue:    value,
			Config:         req.Config,
		}, elementResp)
		resp.Diagnostics.Append(elementResp.Diagnostics...)
	}
}

// replacedWhenCleared replaces the resource when a field is removed that the
// API's PATCH cannot clear (the contract says which fields accept null).
type replacedWhenCleared struct {
	described
	patch contract.Field
}

func replaceWhenCleared(patch contract.Field) replacedWhenCleared {
	if patch.Nullable {
		return replacedWhenCleared{"cleared in place", patch}
	}
	return replacedWhenCleared{"removing it replaces the resource: the API cannot clear it in place", patch}
}

func (m replacedWhenCleared) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if m.patch.Nullable || req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	if !req.StateValue.IsNull() && req.PlanValue.IsNull() {
		resp.RequiresReplace = true
	}
}
