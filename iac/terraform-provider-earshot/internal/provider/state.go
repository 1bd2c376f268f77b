package provider

import (
	"context"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// diagnosticsAppender is where state mapping reports problems (a response's Diagnostics).
type diagnosticsAppender interface {
	Append(...diag.Diagnostic)
	AddError(summary, detail string)
}

// stateSetter is a response's State.
type stateSetter interface {
	Set(context.Context, any) diag.Diagnostics
}

// knownPointer is a string attribute's value, or nil while it is null or unknown.
func knownPointer(value types.String) *string {
	if value.IsNull() || value.IsUnknown() {
		return nil
	}
	return value.ValueStringPointer()
}

// stringsOf answers a set's or list's strings; none for null or unknown.
func stringsOf(ctx context.Context, value interface {
	IsNull() bool
	IsUnknown() bool
	ElementsAs(context.Context, any, bool) diag.Diagnostics
}, diagnostics diagnosticsAppender) []string {
	if value.IsNull() || value.IsUnknown() {
		return nil
	}
	var out []string
	diagnostics.Append(value.ElementsAs(ctx, &out, false)...)
	return out
}

// setOf answers a known set, empty for no values (never null).
func setOf(ctx context.Context, values []string, diagnostics diagnosticsAppender) types.Set {
	if values == nil {
		values = []string{}
	}
	set, problems := types.SetValueFrom(ctx, types.StringType, values)
	diagnostics.Append(problems...)
	return set
}

// allowlistState is the key's allowlist as the API answers it (CIDRs; empty
// meaning any address), spelled as the prior state spelled each network,
// and null or empty as the prior state had it when the key allows any address.
func allowlistState(ctx context.Context, prior types.Set, answered []string, diagnostics diagnosticsAppender) types.Set {
	spelled := map[string]string{}
	for _, entry := range stringsOf(ctx, prior, diagnostics) {
		spelled[networkOf(entry)] = entry
	}
	if len(answered) == 0 {
		if !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
			return prior
		}
		return types.SetNull(types.StringType)
	}
	entries := make([]string, 0, len(answered))
	for _, network := range answered {
		if entry, ok := spelled[networkOf(network)]; ok {
			entries = append(entries, entry)
		} else {
			entries = append(entries, network)
		}
	}
	sort.Strings(entries)
	return setOf(ctx, entries, diagnostics)
}

// timeState is an answered time (the API answers UTC, to the millisecond),
// kept in the prior spelling when it is the same instant, whatever its offset.
func timeState(prior timetypes.RFC3339, answered *string) timetypes.RFC3339 {
	if answered == nil {
		return timetypes.NewRFC3339Null()
	}
	if !prior.IsNull() && !prior.IsUnknown() {
		before, errBefore := time.Parse(time.RFC3339Nano, prior.ValueString())
		after, errAfter := time.Parse(time.RFC3339Nano, *answered)
		if errBefore == nil && errAfter == nil && before.Equal(after) {
			return prior
		}
	}
	return timetypes.NewRFC3339ValueMust(*answered)
}
