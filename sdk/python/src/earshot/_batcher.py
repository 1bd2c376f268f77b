"""Batchers for high-volume senders: buffer events, send them by size or time, lose nothing."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, List, Optional

from ._errors import EarshotError
from ._ingest import MAX_BATCH_EVENTS, Event, IngestSummary

OnResult = Callable[[IngestSummary], None]
OnError = Callable[[Exception, List[Event]], None]


class BatchError(EarshotError):
    """Events a batcher could not send, raised by ``flush`` or ``close`` when no ``on_error`` took them."""

    def __init__(self, errors: List[Exception], events: List[Event]) -> None:
        super().__init__(f"{len(events)} events could not be sent: " + "; ".join(str(e) for e in errors))
        self.errors = errors
        """Why each batch failed."""
        self.events = events
        """The events not sent."""


@dataclass
class BatcherTotals:
    """Running totals of what a batcher sent."""

    accepted: int = 0
    duplicates: int = 0
    dead_lettered: int = 0
    failed: int = 0

    def count(self, summary: IngestSummary) -> None:
        """Adds a batch's answer."""
        self.accepted += summary.accepted
        self.duplicates += summary.duplicates
        self.dead_lettered += summary.dead_lettered


class _Buffer:
    """What both batchers keep: the buffer, the counts and the failures not yet reported."""

    def __init__(self, max_events: int, max_delay: float, max_pending: int, on_result: Optional[OnResult], on_error: Optional[OnError]) -> None:
        if max_events < 1:
            raise ValueError(f"max_events must be at least 1, not {max_events}")
        self.max_events = min(MAX_BATCH_EVENTS, max_events)
        self.max_delay = max_delay
        self.max_pending = max(self.max_events, max_pending)
        self.on_result = on_result
        self.on_error = on_error
        self.buffer: List[Event] = []
        self.first_at: Optional[float] = None
        self.in_flight = 0
        self.added = 0
        self.done = 0
        self.flush_target = 0
        self.closed = False
        self.totals = BatcherTotals()
        self.errors: List[Exception] = []
        self.unsent: List[Event] = []

    @property
    def pending(self) -> int:
        return len(self.buffer) + self.in_flight

    def due(self) -> bool:
        """Whether a batch should go now: full, old enough, or wanted by a flush."""
        if not self.buffer:
            return False
        full = len(self.buffer) >= self.max_events
        old = self.first_at is not None and time.monotonic() - self.first_at >= self.max_delay
        return full or old or self.done + self.in_flight < self.flush_target

    def wait_time(self) -> Optional[float]:
        return None if self.first_at is None else max(0.0, self.max_delay - (time.monotonic() - self.first_at))

    def push(self, event: Event) -> None:
        if self.closed:
            raise EarshotError("the batcher is closed")
        self.buffer.append(event)
        self.added += 1
        if self.first_at is None:
            self.first_at = time.monotonic()

    def take(self) -> List[Event]:
        batch = self.buffer[: self.max_events]
        del self.buffer[: self.max_events]
        self.in_flight += len(batch)
        self.first_at = time.monotonic() if self.buffer else None
        return batch

    def settle(self, batch: List[Event], summary: Optional[IngestSummary], error: Optional[Exception]) -> None:
        self.in_flight -= len(batch)
        self.done += len(batch)
        if summary is not None:
            self.totals.count(summary)
            if self.on_result:
                self.on_result(summary)
        elif error is not None:
            self.totals.failed += len(batch)
            if self.on_error:
                self.on_error(error, batch)
            else:
                self.errors.append(error)
                self.unsent.extend(batch)

    def raise_unreported(self) -> None:
        if self.unsent:
            errors, events = self.errors, self.unsent
            self.errors, self.unsent = [], []
            raise BatchError(errors, events)


class IngestBatcher:
    """Buffers a high-volume sender's events and sends them in batches, by size or time, one request at a time.

    ``add`` blocks while ``max_pending`` events are buffered or in flight. Every event added is
    accepted, answered as a duplicate or dead letter, or reported to ``on_error``: never dropped.
    """

    def __init__(
        self,
        send: Callable[[List[Event]], IngestSummary],
        *,
        max_events: int = 500,
        max_delay: float = 1.0,
        max_pending: int = 10_000,
        on_result: Optional[OnResult] = None,
        on_error: Optional[OnError] = None,
    ) -> None:
        self._send = send
        self._state = _Buffer(max_events, max_delay, max_pending, on_result, on_error)
        self._condition = threading.Condition()
        self._worker = threading.Thread(target=self._run, name="earshot-batcher", daemon=True)
        self._worker.start()

    @property
    def totals(self) -> BatcherTotals:
        """What was sent so far."""
        return self._state.totals

    @property
    def pending(self) -> int:
        """Events buffered or in flight."""
        return self._state.pending

    def add(self, event: Event) -> None:
        """Adds an event, waiting while ``max_pending`` events are buffered or in flight."""
        with self._condition:
            while self._state.pending >= self._state.max_pending and not self._state.closed:
                self._condition.wait()
            self._state.push(event)
            self._condition.notify_all()

    def flush(self) -> None:
        """Sends everything added so far and waits for the answers; raises BatchError for what could not be sent."""
        with self._condition:
            target = self._state.added
            self._state.flush_target = max(self._state.flush_target, target)
            self._condition.notify_all()
            while self._state.done < target:
                self._condition.wait()
            self._state.raise_unreported()

    def close(self) -> None:
        """Flushes and stops: ``add`` refuses from now on."""
        with self._condition:
            self._state.closed = True
            self._condition.notify_all()
        try:
            self.flush()
        finally:
            self._worker.join()

    def __enter__(self) -> "IngestBatcher":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _run(self) -> None:
        while True:
            with self._condition:
                while not self._state.due():
                    if self._state.closed and not self._state.buffer:
                        return
                    self._condition.wait(self._state.wait_time())
                batch = self._state.take()
            summary: Optional[IngestSummary] = None
            failure: Optional[Exception] = None
            try:
                summary = self._send(batch)
            except Exception as error:  # noqa: BLE001 (reported to on_error or by flush, never dropped)
                failure = error
            with self._condition:
                self._state.settle(batch, summary, failure)
                self._condition.notify_all()


class AsyncIngestBatcher:
    """The asyncio batcher: ``await add(event)`` waits while ``max_pending`` events are buffered or in flight; ``await close()`` loses nothing."""

    def __init__(
        self,
        send: Callable[[List[Event]], Awaitable[IngestSummary]],
        *,
        max_events: int = 500,
        max_delay: float = 1.0,
        max_pending: int = 10_000,
        on_result: Optional[OnResult] = None,
        on_error: Optional[OnError] = None,
    ) -> None:
        self._send = send
        self._state = _Buffer(max_events, max_delay, max_pending, on_result, on_error)
        self._condition: Optional[asyncio.Condition] = None
        self._worker: Optional["asyncio.Task[None]"] = None

    @property
    def totals(self) -> BatcherTotals:
        """What was sent so far."""
        return self._state.totals

    @property
    def pending(self) -> int:
        """Events buffered or in flight."""
        return self._state.pending

    def _started(self) -> asyncio.Condition:
        # Made on first use, inside the caller's event loop.
        if self._condition is None:
            self._condition = asyncio.Condition()
            self._worker = asyncio.get_running_loop().create_task(self._run())
        return self._condition

    async def add(self, event: Event) -> None:
        """Adds an event, waiting while ``max_pending`` events are buffered or in flight."""
        condition = self._started()
        async with condition:
            while self._state.pending >= self._state.max_pending and not self._state.closed:
                await condition.wait()
            self._state.push(event)
            condition.notify_all()

    async def flush(self) -> None:
        """Sends everything added so far and waits for the answers; raises BatchError for what could not be sent."""
        condition = self._started()
        async with condition:
            target = self._state.added
            self._state.flush_target = max(self._state.flush_target, target)
            condition.notify_all()
            while self._state.done < target:
                await condition.wait()
            self._state.raise_unreported()

    async def close(self) -> None:
        """Flushes and stops: ``add`` refuses from now on."""
        condition = self._started()
        async with condition:
            self._state.closed = True
            condition.notify_all()
        try:
            await self.flush()
        finally:
            if self._worker is not None:
                await self._worker

    async def __aenter__(self) -> "AsyncIngestBatcher":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def _run(self) -> None:
        condition = self._started()
        while True:
            async with condition:
                while not self._state.due():
                    if self._state.closed and not self._state.buffer:
                        return
                    try:
                        await asyncio.wait_for(condition.wait(), self._state.wait_time())
                    except asyncio.TimeoutError:
                        pass
                batch = self._state.take()
            summary: Optional[IngestSummary] = None
            failure: Optional[Exception] = None
            try:
                summary = await self._send(batch)
            except Exception as error:  # noqa: BLE001 (reported to on_error or by flush, never dropped)
                failure = error
            async with condition:
                self._state.settle(batch, summary, failure)
                condition.notify_all()
