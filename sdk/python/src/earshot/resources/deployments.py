"""``client.deployments``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import WriteResult, Deployment, DeploymentImpact, DeploymentImpactParams, DeploymentCreateParams, DeploymentListParams
from ._base import AsyncResource, Id, SyncResource, body, params, segment

Given = Union[DeploymentCreateParams, Mapping[str, Any], None]


class Deployments(SyncResource):
    """Agent releases, and what each did to the calls after it."""

    def list(self, **filters: Any) -> SyncPagedList[Deployment]:
        """Deployments, newest first, filtered by ``agent``."""
        return self._list("/deployments", params(DeploymentListParams, filters), Deployment)

    def create(self, deployment: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Records a deployment (``agent``, ``version``, ``previous_version``, ``deployed_at``, ...)."""
        return WriteResult.model_validate(self._send("POST", "/deployments", body(DeploymentCreateParams, deployment, fields), idempotency_key))

    def retrieve(self, id: Id) -> Deployment:
        """One deployment; NotFoundError when the tenant has no such deployment."""
        return Deployment.model_validate(self._get(f"/deployments/{segment(id)}")["deployment"])

    def impact(self, id: Id, **options: Any) -> DeploymentImpact:
        """Did this release make the agent slower, fail more or sound worse? Metrics before and after (``window_minutes``), with significance."""
        return DeploymentImpact.model_validate(self._get(f"/deployments/{segment(id)}/impact", params(DeploymentImpactParams, options)))


class AsyncDeployments(AsyncResource):
    """Agent releases, and what each did to the calls after it."""

    def list(self, **filters: Any) -> AsyncPagedList[Deployment]:
        """Deployments, newest first, filtered by ``agent``."""
        return self._list("/deployments", params(DeploymentListParams, filters), Deployment)

    async def create(self, deployment: Given = None, /, *, idempotency_key: Optional[str] = None, **fields: Any) -> WriteResult:
        """Records a deployment (``agent``, ``version``, ``previous_version``, ``deployed_at``, ...)."""
        return WriteResult.model_validate(await self._send("POST", "/deployments", body(DeploymentCreateParams, deployment, fields), idempotency_key))

    async def retrieve(self, id: Id) -> Deployment:
        """One deployment; NotFoundError when the tenant has no such deployment."""
        return Deployment.model_validate((await self._get(f"/deployments/{segment(id)}"))["deployment"])

    async def impact(self, id: Id, **options: Any) -> DeploymentImpact:
        """Did this release make the agent slower, fail more or sound worse? Metrics before and after (``window_minutes``), with significance."""
        return DeploymentImpact.model_validate(await self._get(f"/deployments/{segment(id)}/impact", params(DeploymentImpactParams, options)))
