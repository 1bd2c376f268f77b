"""``client.alerts`` (with ``alerts.webhook``) and ``client.alert_rules``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from .._transport import AsyncTransport, SyncTransport
from ..models import (
    WriteResult,
    Alert,
    AlertListParams,
    AlertNotification,
    AlertNotificationListParams,
    AlertRule,
    AlertRuleUpdateParams,
    AlertRuleCreateParams,
    AlertRuleListParams,
    AlertWebhook,
    AlertWebhookParams,
)
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Target = Union[AlertWebhookParams, Mapping[str, Any], None]
RuleGiven = Union[AlertRuleCreateParams, Mapping[str, Any], None]
RuleChange = Union[AlertRuleUpdateParams, Mapping[str, Any], None]


class AlertWebhookSettings(SyncResource):
    """Where alert notifications are delivered."""

    def get(self) -> AlertWebhook:
        """The notification target and whether it is enabled."""
        return AlertWebhook.model_validate(self._get("/alerts/webhook"))

    def set(self, target: Target = None, /, **fields: Any) -> AlertWebhook:
        """Sets the notification target (``url``, ``enabled``)."""
        return AlertWebhook.model_validate(self._send("PUT", "/alerts/webhook", body(AlertWebhookParams, target, fields)))


class AsyncAlertWebhookSettings(AsyncResource):
    """Where alert notifications are delivered."""

    async def get(self) -> AlertWebhook:
        """The notification target and whether it is enabled."""
        return AlertWebhook.model_validate(await self._get("/alerts/webhook"))

    async def set(self, target: Target = None, /, **fields: Any) -> AlertWebhook:
        """Sets the notification target (``url``, ``enabled``)."""
        return AlertWebhook.model_validate(await self._send("PUT", "/alerts/webhook", body(AlertWebhookParams, target, fields)))


class Alerts(SyncResource):
    """Alerts fired by the tenant's rules, and their notifications."""

    def __init__(self, transport: SyncTransport) -> None:
        super().__init__(transport)
        self.webhook = AlertWebhookSettings(transport)
        """Where notifications go."""

    def list(self, **filters: Any) -> SyncPagedList[Alert]:
        """Alerts, filtered by ``status`` (firing, resolved)."""
        return self._list("/alerts", params(AlertListParams, filters), Alert)

    def notifications(self, **filters: Any) -> SyncPagedList[AlertNotification]:
        """Delivery attempts of alert notifications to the webhook."""
        return self._list("/alerts/notifications", params(AlertNotificationListParams, filters), AlertNotification)


class AsyncAlerts(AsyncResource):
    """Alerts fired by the tenant's rules, and their notifications."""

    def __init__(self, transport: AsyncTransport) -> None:
        super().__init__(transport)
        self.webhook = AsyncAlertWebhookSettings(transport)
        """Where notifications go."""

    def list(self, **filters: Any) -> AsyncPagedList[Alert]:
        """Alerts, filtered by ``status`` (firing, resolved)."""
        return self._list("/alerts", params(AlertListParams, filters), Alert)

    def notifications(self, **filters: Any) -> AsyncPagedList[AlertNotification]:
        """Delivery attempts of alert notifications to the webhook."""
        return self._list("/alerts/notifications", params(AlertNotificationListParams, filters), AlertNotification)


class AlertRules(SyncResource):
    """The thresholds that fire alerts."""

    def list(self, **filters: Any) -> SyncPagedList[AlertRule]:
        """The tenant's rules."""
        return self._list("/alerts/rules", params(AlertRuleListParams, filters), AlertRule)

    def create(self, rule: RuleGiven = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Adds a rule: a ``metric``, a ``comparison`` and a ``threshold`` over a window."""
        return WriteResult.model_validate(self._send("POST", "/alerts/rules", body(AlertRuleCreateParams, rule, fields), idempotency_key))

    def retrieve(self, id: Id) -> AlertRule:
        """One rule; NotFoundError when the tenant has no such rule."""
        return AlertRule.model_validate(self._get(f"/alerts/rules/{segment(id)}")["rule"])

    def update(self, id: Id, change: RuleChange = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Changes a rule."""
        return WriteResult.model_validate(self._send("PATCH", f"/alerts/rules/{segment(id)}", body(AlertRuleUpdateParams, change, fields), idempotency_key))

    def delete(self, id: Id, *, idempotency_key: Optional[str] = None) -> WriteResult:
        """Removes a rule."""
        return WriteResult.model_validate(self._send("DELETE", f"/alerts/rules/{segment(id)}", None, idempotency_key))


class AsyncAlertRules(AsyncResource):
    """The thresholds that fire alerts."""

    def list(self, **filters: Any) -> AsyncPagedList[AlertRule]:
        """The tenant's rules."""
        return self._list("/alerts/rules", params(AlertRuleListParams, filters), AlertRule)

    async def create(self, rule: RuleGiven = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Adds a rule: a ``metric``, a ``comparison`` and a ``threshold`` over a window."""
        return WriteResult.model_validate(await self._send("POST", "/alerts/rules", body(AlertRuleCreateParams, rule, fields), idempotency_key))

    async def retrieve(self, id: Id) -> AlertRule:
        """One rule; NotFoundError when the tenant has no such rule."""
        return AlertRule.model_validate((await self._get(f"/alerts/rules/{segment(id)}"))["rule"])

    async def update(self, id: Id, change: RuleChange = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Changes a rule."""
        return WriteResult.model_validate(await self._send("PATCH", f"/alerts/rules/{segment(id)}", body(AlertRuleUpdateParams, change, fields), idempotency_key))

    async def delete(self, id: Id, *, idempotency_key: Optional[str] = None) -> WriteResult:
        """Removes a rule."""
        return WriteResult.model_validate(await self._send("DELETE", f"/alerts/rules/{segment(id)}", None, idempotency_key))
