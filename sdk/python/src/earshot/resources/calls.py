"""``client.calls`` and ``client.outcomes``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .._pagination import AsyncPagedList, SyncPagedList
from .._transport import Request
from ..models import WriteResult, Call, CallDetail, CallErased, CallEraseParams, CallListParams, Outcome, OutcomeCreateParams, OutcomeListParams
from ._base import AsyncResource, Id, SyncResource, body, params, segment


class Calls(SyncResource):
    """The tenant's calls."""

    def list(self, **filters: Any) -> SyncPagedList[Call]:
        """Calls, newest first by default: ``status``, ``agent_id``, ``from_``/``to`` (ISO times), ``sort``, ``limit`` per page (default 50)."""
        return self._list("/calls", params(CallListParams, filters), Call)

    def retrieve(self, id: Id) -> CallDetail:
        """One call with its turns, transcript and traces; NotFoundError when the tenant has no such call."""
        return CallDetail.model_validate(self._get(f"/calls/{segment(id)}")["call"])

    def erase(self, id: Id, *, reason: str, idempotency_key: Optional[str] = None) -> CallErased:
        """Erases a call: its data key is destroyed, so its events' personal fields in the log can no longer be read, and its rows go.

        ``reason`` is kept in the audit log. Needs ``calls:write``; NotFoundError when the tenant has no such call.
        """
        erasure = Request("DELETE", f"/calls/{segment(id)}", params(CallEraseParams, {"reason": reason}))
        return CallErased.model_validate(self._transport.request(erasure, idempotency_key))


class AsyncCalls(AsyncResource):
    """The tenant's calls."""

    def list(self, **filters: Any) -> AsyncPagedList[Call]:
        """Calls, newest first by default: ``status``, ``agent_id``, ``from_``/``to`` (ISO times), ``sort``, ``limit`` per page (default 50)."""
        return self._list("/calls", params(CallListParams, filters), Call)

    async def retrieve(self, id: Id) -> CallDetail:
        """One call with its turns, transcript and traces; NotFoundError when the tenant has no such call."""
        return CallDetail.model_validate((await self._get(f"/calls/{segment(id)}"))["call"])

    async def erase(self, id: Id, *, reason: str, idempotency_key: Optional[str] = None) -> CallErased:
        """Erases a call: its data key is destroyed, so its events' personal fields in the log can no longer be read, and its rows go.

        ``reason`` is kept in the audit log. Needs ``calls:write``; NotFoundError when the tenant has no such call.
        """
        erasure = Request("DELETE", f"/calls/{segment(id)}", params(CallEraseParams, {"reason": reason}))
        return CallErased.model_validate(await self._transport.request(erasure, idempotency_key))


class Outcomes(SyncResource):
    """What calls achieved (a booking, a sale, a refund)."""

    def list(self, **filters: Any) -> SyncPagedList[Outcome]:
        """Outcomes, filtered by ``call_id``; ``limit`` per page (default 100)."""
        return self._list("/outcomes", params(OutcomeListParams, filters), Outcome)

    def create(
        self, outcome: Union[OutcomeCreateParams, Mapping[str, Any], None] = None, /, *, idempotency_key: Optional[str] = None, **fields: Any
    ) -> WriteResult:
        """Records an outcome (``call_id``, ``type``, ``value``, ``source``, ``revenue_usd``; an upsert by ``id``); answers once it is stored."""
        return WriteResult.model_validate(self._send("POST", "/outcomes", body(OutcomeCreateParams, outcome, fields), idempotency_key))


class AsyncOutcomes(AsyncResource):
    """What calls achieved (a booking, a sale, a refund)."""

    def list(self, **filters: Any) -> AsyncPagedList[Outcome]:
        """Outcomes, filtered by ``call_id``; ``limit`` per page (default 100)."""
        return self._list("/outcomes", params(OutcomeListParams, filters), Outcome)

    async def create(
        self, outcome: Union[OutcomeCreateParams, Mapping[str, Any], None] = None, /, *, idempotency_key: Optional[str] = None, **fields: Any
    ) -> WriteResult:
        """Records an outcome (``call_id``, ``type``, ``value``, ``source``, ``revenue_usd``; an upsert by ``id``); answers once it is stored."""
        return WriteResult.model_validate(await self._send("POST", "/outcomes", body(OutcomeCreateParams, outcome, fields), idempotency_key))
