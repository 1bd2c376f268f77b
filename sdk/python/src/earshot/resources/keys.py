"""``client.keys`` and ``client.webhook_secret``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import ApiKey, ApiKeyInput, ApiKeyListParams, ApiKeyWithSecret, KeyRotation, RotatedWebhookSecret, WebhookSecretRotation
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Given = Union[ApiKeyInput, Mapping[str, Any], None]


class Keys(SyncResource):
    """The tenant's API keys (needs a key with ``keys:write``)."""

    def create(self, key: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> ApiKeyWithSecret:
        """Makes a key (``name``, ``scopes``, ``environment``, ``ip_allowlist``, ``expires_at``); its secret is in the answer, and only there."""
        return ApiKeyWithSecret.model_validate(self._send("POST", "/keys", body(ApiKeyInput, key, fields), idempotency_key))

    def list(self, **filters: Any) -> SyncPagedList[ApiKey]:
        """The tenant's keys, filtered by ``workspace`` and ``status``."""
        return self._list("/keys", params(ApiKeyListParams, filters), ApiKey)

    def retrieve(self, id: Id) -> ApiKey:
        """One key (never its secret)."""
        return ApiKey.model_validate(self._get(f"/keys/{segment(id)}")["key"])

    def rotate(self, id: Id, *, overlap_seconds: Optional[int] = None) -> ApiKeyWithSecret:
        """A new secret for the key; the previous one keeps working for ``overlap_seconds``."""
        rotation = body(KeyRotation, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return ApiKeyWithSecret.model_validate(self._send("POST", f"/keys/{segment(id)}/rotate", rotation))

    def revoke(self, id: Id) -> ApiKey:
        """Revokes the key at once."""
        return ApiKey.model_validate(self._send("POST", f"/keys/{segment(id)}/revoke", {})["key"])


class AsyncKeys(AsyncResource):
    """The tenant's API keys (needs a key with ``keys:write``)."""

    async def create(self, key: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> ApiKeyWithSecret:
        """Makes a key (``name``, ``scopes``, ``environment``, ``ip_allowlist``, ``expires_at``); its secret is in the answer, and only there."""
        return ApiKeyWithSecret.model_validate(await self._send("POST", "/keys", body(ApiKeyInput, key, fields), idempotency_key))

    def list(self, **filters: Any) -> AsyncPagedList[ApiKey]:
        """The tenant's keys, filtered by ``workspace`` and ``status``."""
        return self._list("/keys", params(ApiKeyListParams, filters), ApiKey)

    async def retrieve(self, id: Id) -> ApiKey:
        """One key (never its secret)."""
        return ApiKey.model_validate((await self._get(f"/keys/{segment(id)}"))["key"])

    async def rotate(self, id: Id, *, overlap_seconds: Optional[int] = None) -> ApiKeyWithSecret:
        """A new secret for the key; the previous one keeps working for ``overlap_seconds``."""
        rotation = body(KeyRotation, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return ApiKeyWithSecret.model_validate(await self._send("POST", f"/keys/{segment(id)}/rotate", rotation))

    async def revoke(self, id: Id) -> ApiKey:
        """Revokes the key at once."""
        return ApiKey.model_validate((await self._send("POST", f"/keys/{segment(id)}/revoke", {}))["key"])


class WebhookSecret(SyncResource):
    """The secret that signs ingest requests."""

    def rotate(self, *, overlap_seconds: Optional[int] = None) -> RotatedWebhookSecret:
        """A new webhook secret; the previous one keeps verifying for ``overlap_seconds``."""
        rotation = body(WebhookSecretRotation, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return RotatedWebhookSecret.model_validate(self._send("POST", "/webhook-secret/rotate", rotation))


class AsyncWebhookSecret(AsyncResource):
    """The secret that signs ingest requests."""

    async def rotate(self, *, overlap_seconds: Optional[int] = None) -> RotatedWebhookSecret:
        """A new webhook secret; the previous one keeps verifying for ``overlap_seconds``."""
        rotation = body(WebhookSecretRotation, None, {} if overlap_seconds is None else {"overlap_seconds": overlap_seconds})
        return RotatedWebhookSecret.model_validate(await self._send("POST", "/webhook-secret/rotate", rotation))
