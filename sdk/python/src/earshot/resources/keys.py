"""``client.keys`` and ``client.webhook_secret``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import APIKey, KeyCreateParams, KeyListParams, KeyWithSecret, KeyRotateParams, WebhookSecretRotation, WebhookSecretRotateParams
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Given = Union[KeyCreateParams, Mapping[str, Any], None]


class Keys(SyncResource):
    """The tenant's API keys (needs a key with ``keys:write``)."""

    def create(self, key: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> KeyWithSecret:
        """Makes a key (``name``, ``scopes``, ``environment``, ``ip_allowlist``, ``expires_at``); its secret is in the answer, and only there."""
        return KeyWithSecret.model_validate(self._send("POST", "/keys", body(KeyCreateParams, key, fields), idempotency_key))

    def list(self, **filters: Any) -> SyncPagedList[APIKey]:
        """The tenant's keys, filtered by ``workspace`` and ``status``."""
        return self._list("/keys", params(KeyListParams, filters), APIKey)

    def retrieve(self, id: Id) -> APIKey:
        """One key (never its secret)."""
        return APIKey.model_validate(self._get(f"/keys/{segment(id)}")["key"])

    def rotate(self, id: Id, *, overlap_seconds: Optional[int] = None) -> KeyWithSecret:
        """A new secret for the key; the previous one keeps working for ``overlap_seconds``."""
        rotation = body(KeyRotateParams, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return KeyWithSecret.model_validate(self._send("POST", f"/keys/{segment(id)}/rotate", rotation))

    def revoke(self, id: Id) -> APIKey:
        """Revokes the key at once."""
        return APIKey.model_validate(self._send("POST", f"/keys/{segment(id)}/revoke", {})["key"])


class AsyncKeys(AsyncResource):
    """The tenant's API keys (needs a key with ``keys:write``)."""

    async def create(self, key: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> KeyWithSecret:
        """Makes a key (``name``, ``scopes``, ``environment``, ``ip_allowlist``, ``expires_at``); its secret is in the answer, and only there."""
        return KeyWithSecret.model_validate(await self._send("POST", "/keys", body(KeyCreateParams, key, fields), idempotency_key))

    def list(self, **filters: Any) -> AsyncPagedList[APIKey]:
        """The tenant's keys, filtered by ``workspace`` and ``status``."""
        return self._list("/keys", params(KeyListParams, filters), APIKey)

    async def retrieve(self, id: Id) -> APIKey:
        """One key (never its secret)."""
        return APIKey.model_validate((await self._get(f"/keys/{segment(id)}"))["key"])

    async def rotate(self, id: Id, *, overlap_seconds: Optional[int] = None) -> KeyWithSecret:
        """A new secret for the key; the previous one keeps working for ``overlap_seconds``."""
        rotation = body(KeyRotateParams, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return KeyWithSecret.model_validate(await self._send("POST", f"/keys/{segment(id)}/rotate", rotation))

    async def revoke(self, id: Id) -> APIKey:
        """Revokes the key at once."""
        return APIKey.model_validate((await self._send("POST", f"/keys/{segment(id)}/revoke", {}))["key"])


class WebhookSecret(SyncResource):
    """The secret that signs ingest requests."""

    def rotate(self, *, overlap_seconds: Optional[int] = None) -> WebhookSecretRotation:
        """A new webhook secret; the previous one keeps verifying for ``overlap_seconds``."""
        rotation = body(WebhookSecretRotateParams, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return WebhookSecretRotation.model_validate(self._send("POST", "/webhook-secret/rotate", rotation))


class AsyncWebhookSecret(AsyncResource):
    """The secret that signs ingest requests."""

    async def rotate(self, *, overlap_seconds: Optional[int] = None) -> WebhookSecretRotation:
        """A new webhook secret; the previous one keeps verifying for ``overlap_seconds``."""
        rotation = body(WebhookSecretRotateParams, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return WebhookSecretRotation.model_validate(await self._send("POST", "/webhook-secret/rotate", rotation))
