"""[every-resource]"""

from __future__ import annotations

from earshot import AsyncEarshot, Earshot
from earshot.models import Call, TwilioCredentials

from .conftest import call_events, eventually, required, scenario, unique


@scenario("every-resource")
def test_each_resource_answers_its_generated_model(_scenario: str, client: Earshot) -> None:
    provider_call_id = unique("res")
    client.ingest.send(call_events(provider_call_id, "agent_resources_py"))

    def first_call() -> "Call | None":
        items = client.calls.list(agent_id="agent_resources_py").first_page().items
        return items[0] if items else None

    call = eventually(first_call, "a call")
    assert client.calls.retrieve(call.id).provider_call_id == provider_call_id

    outcome = client.outcomes.create(call_id=str(call.id), type="appointment_booked", revenue_usd=80)
    assert [(o.id, o.revenue_usd) for o in client.outcomes.list(call_id=str(call.id))] == [(outcome.id, 80)]

    incident = client.incidents.create(title="Slow answers", severity="high", affected_agents=["agent_resources_py"])
    client.incidents.update(incident.id, status="investigating", note="looking at the LLM latency")
    found = next(i for i in client.incidents.list() if i.id == incident.id)
    assert (found.status, found.severity) == ("investigating", "high")

    assert isinstance(client.alerts.list().first_page().items, list)
    assert isinstance(client.alerts.notifications().first_page().items, list)
    assert client.alerts.webhook.set(url="https://alerts.example.com/earshot-py").url == "https://alerts.example.com/earshot-py"
    assert client.alerts.webhook.get().enabled is True

    rule = client.alert_rules.create(name="p95 too slow", metric="latency.total_ms.p95", comparison="gt", threshold=1500)
    assert (client.alert_rules.retrieve(rule.id).threshold, client.alert_rules.retrieve(rule.id).comparison) == (1500, "gt")
    client.alert_rules.update(rule.id, threshold=2000)
    assert next(r for r in client.alert_rules.list() if r.id == rule.id).threshold == 2000
    client.alert_rules.delete(rule.id)
    assert rule.id not in [r.id for r in client.alert_rules.list()]

    deployment = client.deployments.create(agent="agent_resources_py", version="v2", previous_version="v1")
    assert client.deployments.retrieve(deployment.id).previous_version == "v1"
    assert client.deployments.list(agent="agent_resources_py").first_page().items[0].id == deployment.id
    assert client.deployments.impact(deployment.id, window_minutes=60).deployment.id == deployment.id

    assert "calls.total" in [m.name for m in client.metrics.catalogue()]
    series = client.metrics.series(name="calls.total", interval="1h")
    assert (series.name, series.interval) == ("calls.total", "1h")
    assert client.realtime.retrieve().concurrent_calls >= 0
    assert client.usage.retrieve().period.currency
    assert isinstance(client.invoices.list().first_page().items, list)
    assert client.audit.list(action="deployment.recorded").first_page().items[0].action == "deployment.recorded"

    key = client.keys.create(name=unique("ci"), scopes=["calls:read", "metrics:read"])
    assert key.secret.startswith("ear_live_")
    assert client.keys.retrieve(key.key.id).scopes == ["calls:read", "metrics:read"]
    assert key.key.id in [k.id for k in client.keys.list()]
    assert client.keys.rotate(key.key.id, overlap_seconds=60).secret != key.secret
    assert client.keys.revoke(key.key.id).status == "revoked"

    line = client.providers.connect(provider="twilio", name=unique("line"), credentials=TwilioCredentials(auth_token="sdk_twilio_token_0123456789"))
    assert (line.secret, line.connection.provider, line.connection.status) == (None, "twilio", "active")
    assert str(line.connection.id) in line.connection.webhook_url
    assert client.providers.retrieve(line.connection.id).previous_credentials_valid_until is None
    assert line.connection.id in [c.id for c in client.providers.list(provider="twilio")]
    rotated = client.providers.rotate(line.connection.id, credentials={"authToken": "sdk_twilio_token_rotated_0"}, overlap_seconds=60)
    assert rotated.connection.previous_credentials_valid_until is not None
    assert client.providers.disable(line.connection.id).status == "disabled"
    assert client.providers.enable(line.connection.id).status == "active"
    deleted = client.providers.delete(line.connection.id)
    assert (deleted.ok, deleted.id) == (True, line.connection.id)
    bot = client.providers.connect(provider="standard-webhooks", name=unique("bot"))
    assert (bot.secret or "").startswith("whsec_")

    # The old secret keeps verifying for an hour, so the suite's other signed requests still pass.
    assert client.webhook_secret.rotate(overlap_seconds=3600).webhook_secret.startswith("whsec_")
    health = client.health.retrieve()
    assert health.ok is True and health.database.connected is True
    tenant = client.tenant.retrieve()
    assert (str(tenant.id), tenant.status) == (required("EARSHOT_TENANT_ID"), "active")


async def test_the_async_client_reaches_the_same_resources() -> None:
    async with AsyncEarshot() as earshot:
        assert (await earshot.health.retrieve()).ok is True
        assert "calls.total" in [m.name for m in await earshot.metrics.catalogue()]
        deployment = await earshot.deployments.create(agent="agent_async_py", version="v1")
        assert (await earshot.deployments.retrieve(deployment.id)).version == "v1"
        assert (await earshot.keys.list().first_page()).items
        assert str((await earshot.tenant.retrieve()).id) == required("EARSHOT_TENANT_ID")
        line = await earshot.providers.connect(provider="standard-webhooks", name=unique("bot_async"))
        assert line.connection.id in [c.id for c in (await earshot.providers.list(provider="standard-webhooks").first_page()).items]
        assert (await earshot.providers.delete(line.connection.id)).id == line.connection.id
