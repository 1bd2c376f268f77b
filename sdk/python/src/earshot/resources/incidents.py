"""``client.incidents``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import WriteResult, Incident, IncidentUpdateParams, IncidentCreateParams, IncidentListParams
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Given = Union[IncidentCreateParams, Mapping[str, Any], None]
Change = Union[IncidentUpdateParams, Mapping[str, Any], None]


class Incidents(SyncResource):
    """Incidents opened by people or by alerts."""

    def list(self, **filters: Any) -> SyncPagedList[Incident]:
        """Incidents, filtered by ``status``."""
        return self._list("/incidents", params(IncidentListParams, filters), Incident)

    def create(self, incident: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Opens an incident (``title``, ``severity``, ``status``, ``description``, ``affected_agents``, ...)."""
        return WriteResult.model_validate(self._send("POST", "/incidents", body(IncidentCreateParams, incident, fields), idempotency_key))

    def update(self, id: Id, change: Change = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Changes an incident's status, severity or text, or adds a ``note``."""
        return WriteResult.model_validate(self._send("PATCH", f"/incidents/{segment(id)}", body(IncidentUpdateParams, change, fields), idempotency_key))


class AsyncIncidents(AsyncResource):
    """Incidents opened by people or by alerts."""

    def list(self, **filters: Any) -> AsyncPagedList[Incident]:
        """Incidents, filtered by ``status``."""
        return self._list("/incidents", params(IncidentListParams, filters), Incident)

    async def create(self, incident: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Opens an incident (``title``, ``severity``, ``status``, ``description``, ``affected_agents``, ...)."""
        return WriteResult.model_validate(await self._send("POST", "/incidents", body(IncidentCreateParams, incident, fields), idempotency_key))

    async def update(self, id: Id, change: Change = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Changes an incident's status, severity or text, or adds a ``note``."""
        return WriteResult.model_validate(await self._send("PATCH", f"/incidents/{segment(id)}", body(IncidentUpdateParams, change, fields), idempotency_key))
