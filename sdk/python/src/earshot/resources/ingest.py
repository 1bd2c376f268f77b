"""``client.ingest``: signed event ingest in batches, and batchers for high-volume senders."""

from __future__ import annotations

import asyncio
import time
from typing import List, Optional, Sequence, Union

from .._batcher import AsyncIngestBatcher, IngestBatcher, OnError, OnResult
from .._ingest import Event, IngestPlan, IngestSummary
from .._transport import AsyncTransport, SyncTransport


class Ingest:
    """Signs and sends events; an event without ``idempotency_key`` gets a random one, kept across retries."""

    def __init__(self, transport: SyncTransport, webhook_secret: Optional[str]) -> None:
        self._transport = transport
        self._secret = webhook_secret

    def send(self, events: Union[Event, Sequence[Event]], *, provider: str = "sdk") -> IngestSummary:
        """Sends one event or many in batches of at most 500; one result per event, in the order given."""
        plan = IngestPlan(events, self._secret, provider)
        round_ = 0
        while True:
            for indexes, request in plan.requests():
                plan.record(indexes, self._transport.request(request))
            wait = plan.next_round(round_, self._transport.options.max_retries)
            if wait is None:
                return plan.summary()
            time.sleep(wait)
            round_ += 1

    def batcher(
        self,
        *,
        max_events: int = 500,
        max_delay: float = 1.0,
        max_pending: int = 10_000,
        provider: str = "sdk",
        on_result: Optional[OnResult] = None,
        on_error: Optional[OnError] = None,
    ) -> IngestBatcher:
        """A batcher that sends by size (``max_events``) or time (``max_delay`` seconds), blocking ``add`` past ``max_pending``."""

        def send(batch: List[Event]) -> IngestSummary:
            return self.send(batch, provider=provider)

        return IngestBatcher(send, max_events=max_events, max_delay=max_delay, max_pending=max_pending, on_result=on_result, on_error=on_error)


class AsyncIngest:
    """Signs and sends events; an event without ``idempotency_key`` gets a random one, kept across retries."""

    def __init__(self, transport: AsyncTransport, webhook_secret: Optional[str]) -> None:
        self._transport = transport
        self._secret = webhook_secret

    async def send(self, events: Union[Event, Sequence[Event]], *, provider: str = "sdk") -> IngestSummary:
        """Sends one event or many in batches of at most 500; one result per event, in the order given."""
        plan = IngestPlan(events, self._secret, provider)
        round_ = 0
        while True:
            for indexes, request in plan.requests():
                plan.record(indexes, await self._transport.request(request))
            wait = plan.next_round(round_, self._transport.options.max_retries)
            if wait is None:
                return plan.summary()
            await asyncio.sleep(wait)
            round_ += 1

    def batcher(
        self,
        *,
        max_events: int = 500,
        max_delay: float = 1.0,
        max_pending: int = 10_000,
        provider: str = "sdk",
        on_result: Optional[OnResult] = None,
        on_error: Optional[OnError] = None,
    ) -> AsyncIngestBatcher:
        """A batcher that sends by size (``max_events``) or time (``max_delay`` seconds); ``await add`` waits past ``max_pending``."""

        async def send(batch: List[Event]) -> IngestSummary:
            return await self.send(batch, provider=provider)

        return AsyncIngestBatcher(send, max_events=max_events, max_delay=max_delay, max_pending=max_pending, on_result=on_result, on_error=on_error)
