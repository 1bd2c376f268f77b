"""The clients: ``Earshot`` (blocking) and ``AsyncEarshot`` (asyncio), the API's resources as attributes."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import httpx

from ._options import ClientOptions, resolve_options
from ._stream import AsyncEventStream, EventStream
from ._transport import AsyncTransport, SyncTransport
from ._webhooks import Webhooks
from .resources.alerts import AlertRules, Alerts, AsyncAlertRules, AsyncAlerts
from .resources.calls import AsyncCalls, AsyncOutcomes, Calls, Outcomes
from .resources.deployments import AsyncDeployments, Deployments
from .resources.incidents import AsyncIncidents, Incidents
from .resources.ingest import AsyncIngest, Ingest
from .resources.keys import AsyncKeys, AsyncWebhookSecret, Keys, WebhookSecret
from .resources.metrics import AsyncHealthCheck, AsyncMetrics, AsyncRealtimeSnapshot, AsyncUsageMeters, HealthCheck, Metrics, RealtimeSnapshot, UsageMeters
from .resources.providers import AsyncProviders, Providers
from .resources.records import AsyncAuditLog, AsyncInvoices, AuditLog, Invoices
from .resources.tenant import AsyncOwnTenant, OwnTenant


class Stream:
    """``client.stream``: the tenant's events over the WebSocket."""

    def __init__(self, options: ClientOptions) -> None:
        self._options = options

    def subscribe(
        self,
        *,
        types: Optional[Sequence[str]] = None,
        agent_id: Optional[str] = None,
        call_id: Optional[str] = None,
        after: Optional[str] = None,
        max_reconnects: int = 10,
    ) -> EventStream:
        """Opens the stream (iterate it; ``close()`` it when done); it resumes by itself after a drop."""
        return EventStream(self._options.base_url, self._options.api_key, types, agent_id, call_id, after, max_reconnects)


class AsyncStream:
    """``client.stream``: the tenant's events over the WebSocket."""

    def __init__(self, options: ClientOptions) -> None:
        self._options = options

    def subscribe(
        self,
        *,
        types: Optional[Sequence[str]] = None,
        agent_id: Optional[str] = None,
        call_id: Optional[str] = None,
        after: Optional[str] = None,
        max_reconnects: int = 10,
    ) -> AsyncEventStream:
        """Opens the stream (``async for`` it; ``await close()`` it when done); it resumes by itself after a drop."""
        return AsyncEventStream(self._options.base_url, self._options.api_key, types, agent_id, call_id, after, max_reconnects)


class Earshot:
    """The blocking Earshot client.

    ``Earshot()`` reads EARSHOT_API_KEY, EARSHOT_BASE_URL and EARSHOT_WEBHOOK_SECRET; arguments
    override them. Use it as a context manager, or ``close()`` it, to release its connections.
    """

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        webhook_secret: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        default_headers: Optional[Dict[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        self._options = resolve_options(api_key, base_url, webhook_secret, timeout, max_retries, default_headers)
        self._transport = SyncTransport(self._options, http_client)
        self.base_url: str = self._options.base_url
        """Where every request goes, ending in /api/v1."""
        self.calls = Calls(self._transport)
        self.outcomes = Outcomes(self._transport)
        self.incidents = Incidents(self._transport)
        self.alerts = Alerts(self._transport)
        self.alert_rules = AlertRules(self._transport)
        self.deployments = Deployments(self._transport)
        self.metrics = Metrics(self._transport)
        self.realtime = RealtimeSnapshot(self._transport)
        self.usage = UsageMeters(self._transport)
        self.invoices = Invoices(self._transport)
        self.audit = AuditLog(self._transport)
        self.keys = Keys(self._transport)
        self.webhook_secret = WebhookSecret(self._transport)
        self.providers = Providers(self._transport)
        self.health = HealthCheck(self._transport)
        self.tenant = OwnTenant(self._transport)
        self.ingest = Ingest(self._transport, self._options.webhook_secret)
        self.stream = Stream(self._options)
        self.webhooks = Webhooks(self._options.webhook_secret)

    def with_options(self, **overrides: Any) -> "Earshot":
        """A client like this one with some options changed, e.g. ``with_options(max_retries=0)``."""
        settings: Dict[str, Any] = {
            "api_key": self._options.api_key,
            "base_url": self._options.base_url,
            "webhook_secret": self._options.webhook_secret,
            "timeout": self._options.timeout,
            "max_retries": self._options.max_retries,
            "default_headers": self._options.default_headers,
        }
        return Earshot(**{**settings, **overrides})

    def close(self) -> None:
        """Releases the client's connections."""
        self._transport.http.close()

    def __enter__(self) -> "Earshot":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncEarshot:
    """The asyncio Earshot client: the same resources as ``Earshot``, each method awaited.

    Use it as an async context manager, or ``await close()`` it, to release its connections.
    """

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        webhook_secret: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        default_headers: Optional[Dict[str, str]] = None,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        self._options = resolve_options(api_key, base_url, webhook_secret, timeout, max_retries, default_headers)
        self._transport = AsyncTransport(self._options, http_client)
        self.base_url: str = self._options.base_url
        """Where every request goes, ending in /api/v1."""
        self.calls = AsyncCalls(self._transport)
        self.outcomes = AsyncOutcomes(self._transport)
        self.incidents = AsyncIncidents(self._transport)
        self.alerts = AsyncAlerts(self._transport)
        self.alert_rules = AsyncAlertRules(self._transport)
        self.deployments = AsyncDeployments(self._transport)
        self.metrics = AsyncMetrics(self._transport)
        self.realtime = AsyncRealtimeSnapshot(self._transport)
        self.usage = AsyncUsageMeters(self._transport)
        self.invoices = AsyncInvoices(self._transport)
        self.audit = AsyncAuditLog(self._transport)
        self.keys = AsyncKeys(self._transport)
        self.webhook_secret = AsyncWebhookSecret(self._transport)
        self.providers = AsyncProviders(self._transport)
        self.health = AsyncHealthCheck(self._transport)
        self.tenant = AsyncOwnTenant(self._transport)
        self.ingest = AsyncIngest(self._transport, self._options.webhook_secret)
        self.stream = AsyncStream(self._options)
        self.webhooks = Webhooks(self._options.webhook_secret)

    def with_options(self, **overrides: Any) -> "AsyncEarshot":
        """A client like this one with some options changed, e.g. ``with_options(max_retries=0)``."""
        settings: Dict[str, Any] = {
            "api_key": self._options.api_key,
            "base_url": self._options.base_url,
            "webhook_secret": self._options.webhook_secret,
            "timeout": self._options.timeout,
            "max_retries": self._options.max_retries,
            "default_headers": self._options.default_headers,
        }
        return AsyncEarshot(**{**settings, **overrides})

    async def close(self) -> None:
        """Releases the client's connections."""
        await self._transport.http.aclose()

    async def __aenter__(self) -> "AsyncEarshot":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()
