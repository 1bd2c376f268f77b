"""The official Python SDK for Earshot, observability for voice AI agents.

``Earshot()`` (blocking) and ``AsyncEarshot()`` (asyncio) read EARSHOT_API_KEY, EARSHOT_BASE_URL
and EARSHOT_WEBHOOK_SECRET.
"""

from . import models
from ._backoff import retry_delay
from ._batcher import AsyncIngestBatcher, BatchError, BatcherTotals, IngestBatcher
from ._client import AsyncEarshot, AsyncStream, Earshot, Stream
from ._errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    EarshotError,
    IdempotencyConflictError,
    NotFoundError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    UnavailableError,
    ValidationError,
    WebhookVerificationError,
)
from ._ingest import MAX_BATCH_EVENTS, Event, IngestResult, IngestSummary
from ._options import DEFAULT_BASE_URL, normalize_base_url
from ._pagination import AsyncPage, AsyncPagedList, SyncPage, SyncPagedList
from ._signing import sign_ingest
from ._stream import AsyncEventStream, EventStream, StreamEvent
from ._version import __version__
from ._webhooks import Webhooks

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AsyncEarshot",
    "AsyncEventStream",
    "AsyncIngestBatcher",
    "AsyncPage",
    "AsyncPagedList",
    "AsyncStream",
    "AuthenticationError",
    "BatchError",
    "BatcherTotals",
    "DEFAULT_BASE_URL",
    "Earshot",
    "EarshotError",
    "Event",
    "EventStream",
    "IdempotencyConflictError",
    "IngestBatcher",
    "IngestResult",
    "IngestSummary",
    "MAX_BATCH_EVENTS",
    "NotFoundError",
    "PermissionDeniedError",
    "ProviderError",
    "RateLimitError",
    "Stream",
    "StreamEvent",
    "SyncPage",
    "SyncPagedList",
    "UnavailableError",
    "ValidationError",
    "WebhookVerificationError",
    "Webhooks",
    "__version__",
    "models",
    "normalize_base_url",
    "retry_delay",
    "sign_ingest",
]
