package provider

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var ctx = context.Background()

func set(values ...string) types.Set {
	var diagnostics diag.Diagnostics
	return setOf(ctx, values, &diagnostics)
}

func strs(t *testing.T, value types.Set) []string {
	t.Helper()
	var diagnostics diag.Diagnostics
	out := stringsOf(ctx, value, &diagnostics)
	if diagnostics.HasError() {
		t.Fatal(diagnostics)
	}
	return out
}

func TestAllowlistKeepsTheConfiguredSpellingOfTheSameNetworks(t *testing.T) {
	var diagnostics diag.Diagnostics
	prior := set("203.0.113.5", "10.0.0.1/8", "2001:DB8::/32")
	got := allowlistState(ctx, prior, []string{"10.0.0.0/8", "203.0.113.5/32", "2001:db8::/32"}, &diagnostics)
	if want := []string{"10.0.0.1/8", "2001:DB8::/32", "203.0.113.5"}; !reflect.DeepEqual(strs(t, got), want) {
		t.Fatalf("got %v, want %v", strs(t, got), want)
	}
	// A network changed through the API shows as Earshot keeps it, so the plan shows the difference.
	changed := allowlistState(ctx, prior, []string{"10.0.0.0/8", "198.51.100.0/24"}, &diagnostics)
	if want := []string{"10.0.0.1/8", "198.51.100.0/24"}; !reflect.DeepEqual(strs(t, changed), want) {
		t.Fatalf("got %v, want %v", strs(t, changed), want)
	}
}

func TestAnyAddressIsNullOrEmptyAsConfigured(t *testing.T) {
	var diagnostics diag.Diagnostics
	if got := allowlistState(ctx, types.SetNull(types.StringType), nil, &diagnostics); !got.IsNull() {
		t.Fatalf("null became %v", got)
	}
	if got := allowlistState(ctx, set(), []string{}, &diagnostics); got.IsNull() || len(got.Elements()) != 0 {
		t.Fatalf("[] became %v", got)
	}
}

func TestNetworkOfIsWhatTheKeyStoreKeeps(t *testing.T) {
	for entry, network := range map[string]string{
		"203.0.113.5":  "203.0.113.5/32",
		"10.0.0.1/8":   "10.0.0.0/8",
		"2001:DB8::1":  "2001:db8::1/128",
		"not-an-entry": "not-an-entry",
	} {
		if got := networkOf(entry); got != network {
			t.Errorf("networkOf(%q) = %q, want %q", entry, got, network)
		}
	}
}

func TestTimeStateKeepsTheSameInstantAsWritten(t *testing.T) {
	written := timetypes.NewRFC3339ValueMust("2026-03-02T10:00:00+01:00")
	answered := "2026-03-02T09:00:00.000Z"
	if got := timeState(written, &answered); got.ValueString() != "2026-03-02T10:00:00+01:00" {
		t.Fatalf("got %s", got)
	}
	later := "2026-03-02T09:00:01.000Z"
	if got := timeState(written, &later); got.ValueString() != later {
		t.Fatalf("a changed time was hidden: %s", got)
	}
	if got := timeState(written, nil); !got.IsNull() {
		t.Fatalf("a cleared time became %s", got)
	}
}

func keyRecord(previous *string) client.APIKey {
	return client.APIKey{
		ID: "0b7c7c3e-0000-4000-8000-000000000001", Name: "ci", Prefix: "ear_live_abc", Scopes: []string{"calls:read"},
		Environment: "production", IPAllowlist: []string{}, Status: "active", Workspace: "default",
		CreatedAt: "2026-01-01T00:00:00.000Z", PreviousSecretValidUntil: previous,
	}
}

func TestAKeyRotatedElsewhereMarksTheTrigger(t *testing.T) {
	var diagnostics diag.Diagnostics
	created := apiKeyState(ctx, apiKeyModel{
		IPAllowlist: types.SetNull(types.StringType), ExpiresAt: timetypes.NewRFC3339Null(), CreatedAt: types.StringUnknown(),
		PreviousSecretValidUntil: types.StringUnknown(), RotationTrigger: types.StringValue("q1"),
		RotationOverlapSeconds: types.Int64Value(600), Secret: types.StringUnknown(),
	}, keyRecord(nil), &diagnostics)
	if created.RotationTrigger.ValueString() != "q1" || created.RotationOverlapSeconds.ValueInt64() != 600 || !created.Secret.IsNull() {
		t.Fatalf("created: %+v", created)
	}
	unchanged := apiKeyState(ctx, created, keyRecord(nil), &diagnostics)
	if unchanged.RotationTrigger.ValueString() != "q1" {
		t.Fatalf("a read without a rotation changed the trigger: %+v", unchanged)
	}
	until := "2026-01-02T00:00:00.000Z"
	rotated := apiKeyState(ctx, created, keyRecord(&until), &diagnostics)
	if rotated.RotationTrigger.ValueString() != rotatedElsewhere || rotated.PreviousSecretValidUntil.ValueString() != until {
		t.Fatalf("a rotation made elsewhere went unnoticed: %+v", rotated)
	}
	if diagnostics.HasError() {
		t.Fatal(diagnostics)
	}
}

func TestAnImportedKeyTakesTheDefaultOverlapAndNoTrigger(t *testing.T) {
	var diagnostics diag.Diagnostics
	until := "2026-01-02T00:00:00.000Z"
	imported := apiKeyState(ctx, apiKeyModel{
		ID: types.StringValue("0b7c7c3e-0000-4000-8000-000000000001"), IPAllowlist: types.SetNull(types.StringType),
		ExpiresAt: timetypes.NewRFC3339Null(), RotationOverlapSeconds: types.Int64Null(),
	}, keyRecord(&until), &diagnostics)
	if !imported.RotationTrigger.IsNull() || imported.RotationOverlapSeconds.ValueInt64() != 86400 || imported.PreviousSecretValidUntil.ValueString() != until {
		t.Fatalf("imported: %+v", imported)
	}
}

func TestExpiryMustBeInTheFuture(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	if expiryProblem(timetypes.NewRFC3339ValueMust("2026-05-31T23:59:59Z"), now) == "" {
		t.Fatal("a past expiry passed")
	}
	if expiryProblem(timetypes.NewRFC3339ValueMust("2026-06-01T00:00:01Z"), now) != "" || expiryProblem(timetypes.NewRFC3339Null(), now) != "" {
		t.Fatal("a future or absent expiry was refused")
	}
}

func TestAlertRulePatchClearsTheAgentAndLeavesOutWhatItCannotClear(t *testing.T) {
	plan := alertRuleModel{
		ID: types.StringValue("p95"), Name: types.StringNull(), Metric: types.StringValue("latency.total_ms.p95"),
		AgentID: types.StringNull(), Comparison: types.StringValue("gt"), Threshold: types.Float64Value(1200),
		WindowMs: types.Int64Value(300000), ForMs: types.Int64Value(0), Severity: types.StringValue("warning"),
		Enabled: types.BoolValue(true), Description: types.StringValue("page"),
	}
	patch := alertRulePatchOf(plan)
	agent, present := patch["agentId"]
	if !present || agent.(*string) != nil {
		t.Fatalf("agentId should be sent as null: %v", patch)
	}
	if _, present := patch["name"]; present {
		t.Fatalf("a null name was sent: %v", patch)
	}
	if patch["description"] != "page" || patch["threshold"] != 1200.0 {
		t.Fatalf("patch: %v", patch)
	}
	input := alertRuleInputOf(alertRuleModel{ID: types.StringUnknown(), Name: types.StringNull(), AgentID: types.StringNull(), Description: types.StringNull()})
	if input.ID != nil || input.Name != nil || input.AgentID != nil {
		t.Fatalf("an unknown or null field was sent: %+v", input)
	}
}

func TestADeploymentLeavesUnknownsToTheAPI(t *testing.T) {
	input := deploymentInputOf(deploymentModel{
		ID: types.StringUnknown(), Agent: types.StringValue("support"), Version: types.StringValue("v42"),
		DeployedAt: timetypes.NewRFC3339Unknown(), DeployedBy: types.StringUnknown(),
		PreviousVersion: types.StringNull(), Environment: types.StringValue("production"), Description: types.StringNull(),
	})
	if input.ID != nil || input.DeployedAt != nil || input.DeployedBy != nil || input.PreviousVersion != nil || *input.Environment != "production" {
		t.Fatalf("input: %+v", input)
	}
	state := deploymentState(deploymentModel{DeployedAt: timetypes.NewRFC3339ValueMust("2026-03-02T09:00:00Z")}, client.Deployment{
		ID: "d1", Agent: "support", Version: "v42", DeployedAt: "2026-03-02T09:00:00.000Z",
	})
	if state.DeployedAt.ValueString() != "2026-03-02T09:00:00Z" || !state.Description.IsNull() || state.ID.ValueString() != "d1" {
		t.Fatalf("state: %+v", state)
	}
}

func TestARotationIsCurrentUntilAnotherReplacesIt(t *testing.T) {
	id := "2026-06-02T00:00:00.000Z"
	other := "2026-06-03T00:00:00.000Z"
	if !rotationIsCurrent(id, client.WebhookSecretStatus{PreviousValidUntil: &id}) {
		t.Fatal("the latest rotation was not current")
	}
	if rotationIsCurrent(id, client.WebhookSecretStatus{PreviousValidUntil: &other}) || rotationIsCurrent(id, client.WebhookSecretStatus{}) {
		t.Fatal("a replaced rotation was current")
	}
}
