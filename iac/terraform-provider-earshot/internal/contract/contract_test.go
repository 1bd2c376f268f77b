package contract

import (
	"regexp"
	"strings"
	"testing"
)

func TestStringRulesAreTheAPIs(t *testing.T) {
	cases := []struct {
		name    string
		field   Field
		value   string
		problem string
	}{
		{"name within 100", APIKeyInput.Field("name"), strings.Repeat("n", 100), ""},
		{"name of 101", APIKeyInput.Field("name"), strings.Repeat("n", 101), "must be at most 100 characters"},
		{"an emoji counts two, as in JavaScript", APIKeyInput.Field("name"), strings.Repeat("😀", 51), "must be at most 100 characters"},
		{"only spaces", APIKeyInput.Field("name"), " \t ", "must not be only spaces"},
		{"a NUL", AlertRuleInput.Field("description"), "a\x00b", "must not contain a NUL character"},
		{"an empty description is text", AlertRuleInput.Field("description"), "", ""},
		{"an empty agent is not", AlertRuleInput.Field("agentId"), "", "must be at least 1 characters"},
		{"a known metric", AlertRuleInput.Field("metric"), "latency.total_ms.p95", ""},
		{"an unknown metric", AlertRuleInput.Field("metric"), "latency.total_ms.p90", "must be one of calls.abandoned"},
		{"a record id", DeploymentInput.Field("id"), "support:v42_2026.03", ""},
		{"a record id with a slash", DeploymentInput.Field("id"), "support/v42", "must be letters, digits and . _ : - (1 to 128)"},
		{"a workspace", APIKeyInput.Field("workspace"), "voice-lab", ""},
		{"a date-time with an offset", APIKeyInput.Field("expiresAt"), "2027-01-01T09:00:00+02:00", ""},
		{"a date-time without a zone", APIKeyInput.Field("expiresAt"), "2027-01-01T09:00:00", "must match"},
		{"year 9999", DeploymentInput.Field("deployedAt"), "9999-01-01T00:00:00Z", "must be a year from 0002 to 9998"},
		{"year 0001", DeploymentInput.Field("deployedAt"), "0001-01-01T00:00:00Z", "must be a year from 0002 to 9998"},
		{"February 30th", DeploymentInput.Field("deployedAt"), "2026-02-30T00:00:00Z", "must match"},
		{"an https webhook", AlertWebhookInput.Field("url"), "https://hooks.example.com/x", ""},
		{"an ftp webhook", AlertWebhookInput.Field("url"), "ftp://hooks.example.com/x", "scheme matches ^https?$"},
		{"a relative webhook", AlertWebhookInput.Field("url"), "/hooks", "must be an absolute URL"},
		{"an IPv4 address", *APIKeyInput.Field("ipAllowlist").Items, "203.0.113.5", ""},
		{"an IPv6 CIDR", *APIKeyInput.Field("ipAllowlist").Items, "2001:db8::/32", ""},
		{"a CIDR with host bits, which the API masks", *APIKeyInput.Field("ipAllowlist").Items, "10.0.0.1/8", ""},
		{"a prefix too long", *APIKeyInput.Field("ipAllowlist").Items, "10.0.0.0/33", "must be an IPv4 address, an IPv6 address, an IPv4 CIDR or an IPv6 CIDR"},
		{"a host name", *APIKeyInput.Field("ipAllowlist").Items, "example.com", "must be an IPv4 address"},
		{"an unknown scope", *APIKeyInput.Field("scopes").Items, "calls:erase", "must be one of events:write"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			problem := c.field.CheckString(c.value)
			if c.problem == "" && problem != "" || !strings.Contains(problem, c.problem) {
				t.Fatalf("CheckString(%q) = %q, want %q", c.value, problem, c.problem)
			}
		})
	}
}

func TestNumbersCountsAndDefaultsAreTheAPIs(t *testing.T) {
	window := AlertRuleInput.Field("windowMs")
	if window.DefaultInt() != 300000 || window.CheckNumber(59999) == "" || window.CheckNumber(86400000) != "" || window.CheckNumber(86400001) == "" {
		t.Fatalf("windowMs: %+v", window)
	}
	overlap := RotationInput.Field("overlapSeconds")
	if overlap.DefaultInt() != 86400 || overlap.CheckNumber(-1) == "" || overlap.CheckNumber(2592000) != "" {
		t.Fatalf("overlapSeconds: %+v", overlap)
	}
	scopes := APIKeyInput.Field("scopes")
	if scopes.CheckCount(0) == "" || scopes.CheckCount(1) != "" || scopes.CheckCount(len(scopes.Items.Enum)+1) == "" {
		t.Fatalf("scopes: %+v", scopes)
	}
	if APIKeyInput.Field("environment").DefaultString() != "production" || !AlertRuleInput.Field("enabled").DefaultBool() {
		t.Fatal("defaults differ from the contract's")
	}
}

// The PATCH contract says which fields can be cleared: the provider replaces a rule for the others.
func TestPatchSaysWhatCanBeCleared(t *testing.T) {
	if !AlertRulePatch.Field("agentId").Nullable || AlertRulePatch.Field("name").Nullable || AlertRulePatch.Field("description").Nullable {
		t.Fatalf("nullable fields of the PATCH: agentId %v, name %v, description %v",
			AlertRulePatch.Field("agentId").Nullable, AlertRulePatch.Field("name").Nullable, AlertRulePatch.Field("description").Nullable)
	}
}

func TestEveryPatternCompilesInGo(t *testing.T) {
	inputs := map[string]Input{
		"APIKeyInput": APIKeyInput, "RotationInput": RotationInput, "AlertRuleInput": AlertRuleInput,
		"AlertRulePatch": AlertRulePatch, "AlertWebhookInput": AlertWebhookInput, "DeploymentInput": DeploymentInput,
	}
	for name, input := range inputs {
		for field, rule := range input {
			rules := []Field{rule}
			if rule.Items != nil {
				rules = append(rules, *rule.Items)
			}
			for _, r := range rules {
				for _, pattern := range append(r.Patterns, r.Protocol) {
					if _, err := regexp.Compile(pattern); err != nil {
						t.Errorf("%s.%s: %v", name, field, err)
					}
				}
			}
		}
	}
}
