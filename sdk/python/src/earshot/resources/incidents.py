"""``client.incidents``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import AcceptedWrite, Incident, IncidentChange, IncidentInput, IncidentListParams
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Given = Union[IncidentInput, Mapping[str, Any], None]
Change = Union[IncidentChange, Mapping[str, Any], None]


class Incidents(SyncResource):
    """Incidents opened by people or by alerts."""

    def list(self, **filters: Any) -> SyncPagedList[Incident]:
        """Incidents, filtered by ``status``."""
        return self._list("/incidents", params(IncidentListParams, filters), Incident)

    def create(self, incident: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> AcceptedWrite:
        """Opens an incident (``title``, ``severity``, ``status``, ``description``, ``affected_agents``, ...)."""
        return AcceptedWrite.model_validate(self._send("POST", "/incidents", body(IncidentInput, incident, fields), idempotency_key))

    def update(self, id: Id, change: Change = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> AcceptedWrite:
        """Changes an incident's status, severity or text, or adds a ``note``."""
        return AcceptedWrite.model_validate(self._send("PATCH", f"/incidents/{segment(id)}", body(IncidentChange, change, fields), idempotency_key))


class AsyncIncidents(AsyncResource):
    """Incidents opened by people or by alerts."""

    def list(self, **filters: Any) -> AsyncPagedList[Incident]:
        """Incidents, filtered by ``status``."""
        return self._list("/incidents", params(IncidentListParams, filters), Incident)

    async def create(self, incident: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> AcceptedWrite:
        """Opens an incident (``title``, ``severity``, ``status``, ``description``, ``affected_agents``, ...)."""
        return AcceptedWrite.model_validate(await self._send("POST", "/incidents", body(IncidentInput, incident, fields), idempotency_key))

    async def update(self, id: Id, change: Change = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> AcceptedWrite:
        """Changes an incident's status, severity or text, or adds a ``note``."""
        return AcceptedWrite.model_validate(await self._send("PATCH", f"/incidents/{segment(id)}", body(IncidentChange, change, fields), idempotency_key))
