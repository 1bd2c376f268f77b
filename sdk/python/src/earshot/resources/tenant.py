"""``client.tenant``: whose key this is; any key may ask, whatever its scopes."""

from __future__ import annotations

from ..models import Tenant
from ._base import AsyncResource, SyncResource


class OwnTenant(SyncResource):
    """The calling key's tenant."""

    def retrieve(self) -> Tenant:
        """The tenant's id, name and status."""
        return Tenant.model_validate(self._get("/tenant")["tenant"])


class AsyncOwnTenant(AsyncResource):
    """The calling key's tenant."""

    async def retrieve(self) -> Tenant:
        """The tenant's id, name and status."""
        return Tenant.model_validate((await self._get("/tenant"))["tenant"])
