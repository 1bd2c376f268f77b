"""Signed event ingest in batches, with an answer per event."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._backoff import retry_delay
from ._errors import EarshotError
from ._signing import ingest_headers
from ._transport import Request

MAX_BATCH_EVENTS = 500
"""Envelopes one request may batch (the server's limit)."""
MAX_BATCH_BYTES = 900_000
"""Bytes one request may carry, under the server's 1 MiB body limit."""

Event = Mapping[str, Any]
"""An event envelope as the API takes it (``type``, ``version``, ``occurred_at``, ``call``, ``data``; ``idempotency_key`` optional)."""


@dataclass(frozen=True)
class IngestResult:
    """What the server answered for one event."""

    status: str
    """``accepted``, ``duplicate`` (its key was seen before), ``dead_lettered`` (invalid; kept with its reason) or ``conflict`` (its key was in flight elsewhere until the retries ran out)."""
    idempotency_key: str
    id: Optional[str] = None
    """The stored event's id, when accepted or a duplicate."""
    reason: Optional[str] = None
    fields: List[Dict[str, str]] = field(default_factory=list)
    dead_letter_id: Optional[str] = None


@dataclass(frozen=True)
class IngestSummary:
    """The answer to a send: counts, and one result per event in the order sent."""

    accepted: int
    duplicates: int
    dead_lettered: int
    results: List[IngestResult]


def batches_of(serialized: Sequence[str]) -> List[List[int]]:
    """Splits serialized envelopes into batches of at most 500 and about 900 kB, in order."""
    batches: List[List[int]] = []
    current: List[int] = []
    size = 2
    for index, text in enumerate(serialized):
        length = len(text.encode("utf-8")) + 1
        if current and (len(current) >= MAX_BATCH_EVENTS or size + length > MAX_BATCH_BYTES):
            batches.append(current)
            current, size = [], 2
        current.append(index)
        size += length
    if current:
        batches.append(current)
    return batches


def result_of(answer: Mapping[str, Any], idempotency_key: str) -> IngestResult:
    """One envelope's answer as a result."""
    if answer.get("ok"):
        return IngestResult("duplicate" if answer.get("duplicate") else "accepted", idempotency_key, id=answer.get("id"))
    if answer.get("code") == "IDEMPOTENCY_CONFLICT":
        return IngestResult("conflict", idempotency_key, reason=answer.get("error"))
    return IngestResult("dead_lettered", idempotency_key, reason=answer.get("error"), fields=list(answer.get("fields", [])), dead_letter_id=answer.get("deadLetterId"))


def summary_of(results: List[IngestResult]) -> IngestSummary:
    """Counts the results."""
    def count(status: str) -> int:
        return sum(1 for r in results if r.status == status)

    return IngestSummary(count("accepted"), count("duplicate"), count("dead_lettered"), results)


class IngestPlan:
    """One send: the envelopes with their keys, which are still to send, and the requests for them."""

    def __init__(self, events: Union[Event, Sequence[Event]], secret: Optional[str], provider: str) -> None:
        if not secret:
            raise EarshotError("ingest needs the webhook secret: pass webhook_secret=... or set EARSHOT_WEBHOOK_SECRET")
        listed = [events] if isinstance(events, Mapping) else list(events)
        self.envelopes = [{**event, "idempotency_key": event.get("idempotency_key") or str(uuid.uuid4())} for event in listed]
        self.results: List[Optional[IngestResult]] = [None] * len(self.envelopes)
        self.pending = list(range(len(self.envelopes)))
        self._secret = secret
        self._provider = provider

    def requests(self) -> List["tuple[List[int], Request]"]:
        """The requests of this round, each with the envelopes it carries."""
        serialized = [json.dumps(self.envelopes[i]) for i in self.pending]
        planned = []
        for batch in batches_of(serialized):
            indexes = [self.pending[position] for position in batch]
            planned.append((indexes, Request("POST", "/webhooks/ingest", body=[self.envelopes[i] for i in indexes], signer=self._sign)))
        return planned

    def _sign(self, raw: str) -> Dict[str, str]:
        return ingest_headers(self._secret, raw, self._provider)

    def record(self, indexes: List[int], answer: Mapping[str, Any]) -> None:
        """Takes a request's answer, envelope by envelope."""
        for index, envelope_answer in zip(indexes, answer["results"]):
            self.results[index] = result_of(envelope_answer, str(self.envelopes[index]["idempotency_key"]))

    def next_round(self, round_: int, max_retries: int) -> Optional[float]:
        """Envelopes answered "in flight" go again once that request is done: the delay before the next round, or None when done."""
        self.pending = [i for i in self.pending if (r := self.results[i]) is not None and r.status == "conflict"] if round_ < max_retries else []
        return retry_delay(round_ + 1, None) if self.pending else None

    def summary(self) -> IngestSummary:
        """The answer, once every round is done."""
        return summary_of([r for r in self.results if r is not None])
