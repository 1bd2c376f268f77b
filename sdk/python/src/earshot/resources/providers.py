"""``client.providers``: the voice providers' webhook connections (needs ``providers:read``, ``providers:write``)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Union

from pydantic import BaseModel

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import (
    ProviderConnection,
    ProviderConnectionCreateParams,
    ProviderConnectionDeleted,
    ProviderConnectionIssued,
    ProviderConnectionListParams,
    ProviderCredentialRotateParams,
)
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Given = Union[ProviderConnectionCreateParams, Mapping[str, Any], None]
Credentials = Union[BaseModel, Mapping[str, Any], None]
"""A provider's credentials: a model of ``earshot.models`` (``TwilioCredentials``, ...) or a dict under the API's names."""


def _rotation(credentials: Credentials, overlap_seconds: Optional[int]) -> Dict[str, Any]:
    given = {"credentials": credentials, "overlap_seconds": overlap_seconds}
    return body(ProviderCredentialRotateParams, None, {key: value for key, value in given.items() if value is not None})


class Providers(SyncResource):
    """The tenant's provider connections: where each provider's webhooks come in, and how they are verified."""

    def connect(self, connection: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> ProviderConnectionIssued:
        """Connects a provider (``provider``, ``name``, ``credentials`` or, for Standard Webhooks, ``mapping``).

        The answer's ``connection.webhook_url`` is what to paste at the provider; its Standard Webhooks ``secret`` is shown only here.
        """
        connected = self._send("POST", "/providers", body(ProviderConnectionCreateParams, connection, fields), idempotency_key)
        return ProviderConnectionIssued.model_validate(connected)

    def list(self, **filters: Any) -> SyncPagedList[ProviderConnection]:
        """The tenant's connections, filtered by ``provider`` and ``status``."""
        return self._list("/providers", params(ProviderConnectionListParams, filters), ProviderConnection)

    def retrieve(self, id: Id) -> ProviderConnection:
        """One connection (never its credentials)."""
        return ProviderConnection.model_validate(self._get(f"/providers/{segment(id)}")["connection"])

    def rotate(self, id: Id, *, credentials: Credentials = None, overlap_seconds: Optional[int] = None) -> ProviderConnectionIssued:
        """New ``credentials`` (or, without them, a new Standard Webhooks secret); the previous ones keep verifying for ``overlap_seconds``."""
        return ProviderConnectionIssued.model_validate(self._send("POST", f"/providers/{segment(id)}/rotate", _rotation(credentials, overlap_seconds)))

    def disable(self, id: Id) -> ProviderConnection:
        """Stops taking the provider's deliveries: its webhook answers 403 until enabled again."""
        return ProviderConnection.model_validate(self._send("POST", f"/providers/{segment(id)}/disable", {})["connection"])

    def enable(self, id: Id) -> ProviderConnection:
        """Takes the provider's deliveries again."""
        return ProviderConnection.model_validate(self._send("POST", f"/providers/{segment(id)}/enable", {})["connection"])

    def delete(self, id: Id) -> ProviderConnectionDeleted:
        """Deletes the connection; its webhook URL answers 404 from then on."""
        return ProviderConnectionDeleted.model_validate(self._send("DELETE", f"/providers/{segment(id)}", None))


class AsyncProviders(AsyncResource):
    """The tenant's provider connections: where each provider's webhooks come in, and how they are verified."""

    async def connect(self, connection: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> ProviderConnectionIssued:
        """Connects a provider (``provider``, ``name``, ``credentials`` or, for Standard Webhooks, ``mapping``).

        The answer's ``connection.webhook_url`` is what to paste at the provider; its Standard Webhooks ``secret`` is shown only here.
        """
        connected = await self._send("POST", "/providers", body(ProviderConnectionCreateParams, connection, fields), idempotency_key)
        return ProviderConnectionIssued.model_validate(connected)

    def list(self, **filters: Any) -> AsyncPagedList[ProviderConnection]:
        """The tenant's connections, filtered by ``provider`` and ``status``."""
        return self._list("/providers", params(ProviderConnectionListParams, filters), ProviderConnection)

    async def retrieve(self, id: Id) -> ProviderConnection:
        """One connection (never its credentials)."""
        return ProviderConnection.model_validate((await self._get(f"/providers/{segment(id)}"))["connection"])

    async def rotate(self, id: Id, *, credentials: Credentials = None, overlap_seconds: Optional[int] = None) -> ProviderConnectionIssued:
        """New ``credentials`` (or, without them, a new Standard Webhooks secret); the previous ones keep verifying for ``overlap_seconds``."""
        rotated = await self._send("POST", f"/providers/{segment(id)}/rotate", _rotation(credentials, overlap_seconds))
        return ProviderConnectionIssued.model_validate(rotated)

    async def disable(self, id: Id) -> ProviderConnection:
        """Stops taking the provider's deliveries: its webhook answers 403 until enabled again."""
        return ProviderConnection.model_validate((await self._send("POST", f"/providers/{segment(id)}/disable", {}))["connection"])

    async def enable(self, id: Id) -> ProviderConnection:
        """Takes the provider's deliveries again."""
        return ProviderConnection.model_validate((await self._send("POST", f"/providers/{segment(id)}/enable", {}))["connection"])

    async def delete(self, id: Id) -> ProviderConnectionDeleted:
        """Deletes the connection; its webhook URL answers 404 from then on."""
        return ProviderConnectionDeleted.model_validate(await self._send("DELETE", f"/providers/{segment(id)}", None))
