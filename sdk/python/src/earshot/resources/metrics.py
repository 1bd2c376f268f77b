"""``client.metrics``, ``client.realtime``, ``client.usage`` and ``client.health``."""

from __future__ import annotations

from typing import Any, List

from .._transport import Request
from ..models import Health, MetricDefinition, MetricSeries, MetricSeriesParams, LiveSnapshot, Usage, UsageParams
from ._base import AsyncResource, SyncResource, params


class Metrics(SyncResource):
    """Time series of the tenant's calls."""

    def catalogue(self) -> List[MetricDefinition]:
        """Every metric ``series`` answers, with what it measures and its unit."""
        return [MetricDefinition.model_validate(item) for item in self._get("/metrics/catalogue")["items"]]

    def series(self, **query: Any) -> MetricSeries:
        """One metric over time: ``name``, ``from_``, ``to``, ``interval``, ``agent_id``."""
        return MetricSeries.model_validate(self._get("/metrics", params(MetricSeriesParams, query)))


class AsyncMetrics(AsyncResource):
    """Time series of the tenant's calls."""

    async def catalogue(self) -> List[MetricDefinition]:
        """Every metric ``series`` answers, with what it measures and its unit."""
        return [MetricDefinition.model_validate(item) for item in (await self._get("/metrics/catalogue"))["items"]]

    async def series(self, **query: Any) -> MetricSeries:
        """One metric over time: ``name``, ``from_``, ``to``, ``interval``, ``agent_id``."""
        return MetricSeries.model_validate(await self._get("/metrics", params(MetricSeriesParams, query)))


class RealtimeSnapshot(SyncResource):
    """The live snapshot: concurrent calls, success rate, p95 latency."""

    def retrieve(self) -> LiveSnapshot:
        """The snapshot now."""
        return LiveSnapshot.model_validate(self._get("/realtime")["live"])


class AsyncRealtimeSnapshot(AsyncResource):
    """The live snapshot: concurrent calls, success rate, p95 latency."""

    async def retrieve(self) -> LiveSnapshot:
        """The snapshot now."""
        return LiveSnapshot.model_validate((await self._get("/realtime"))["live"])


class UsageMeters(SyncResource):
    """Metered usage per day and the current billing period."""

    def retrieve(self, **filters: Any) -> Usage:
        """Usage per day (``from_``, ``to``) and the period's meters and projected total."""
        return Usage.model_validate(self._get("/usage", params(UsageParams, filters)))


class AsyncUsageMeters(AsyncResource):
    """Metered usage per day and the current billing period."""

    async def retrieve(self, **filters: Any) -> Usage:
        """Usage per day (``from_``, ``to``) and the period's meters and projected total."""
        return Usage.model_validate(await self._get("/usage", params(UsageParams, filters)))


class HealthCheck(SyncResource):
    """Whether the service and its database answer (no key needed)."""

    def retrieve(self) -> Health:
        """The service's health; UnavailableError (503) when it is degraded."""
        return Health.model_validate(self._transport.request(Request("GET", "/health", root=True)))


class AsyncHealthCheck(AsyncResource):
    """Whether the service and its database answer (no key needed)."""

    async def retrieve(self) -> Health:
        """The service's health; UnavailableError (503) when it is degraded."""
        return Health.model_validate(await self._transport.request(Request("GET", "/health", root=True)))
