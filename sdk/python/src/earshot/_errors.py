"""Typed errors: one class per code of the API's Error shape."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type

import httpx


class EarshotError(Exception):
    """The base of every error the SDK raises."""


class APIError(EarshotError):
    """A non-2xx answer: the Error shape (``ok: false``, ``error``, ``code``) with the status, request id and headers."""

    def __init__(self, status: int, body: Any, headers: httpx.Headers) -> None:
        shape = body if _is_error_body(body) else None
        super().__init__(shape["error"] if shape else f"Earshot answered {status} without an Error body")
        self.status: int = status
        """The HTTP status."""
        self.code: str = shape["code"] if shape else "UNKNOWN"
        """The Error shape's code, e.g. ``NOT_FOUND``; ``UNKNOWN`` when the body was not the Error shape."""
        self.request_id: Optional[str] = (shape or {}).get("requestId") or headers.get("x-request-id")
        """The server's id of the request."""
        self.headers: httpx.Headers = headers
        """The answer's headers."""
        self.body: Any = body
        """The answer's body as the server sent it."""

    @property
    def message(self) -> str:
        """The Error shape's ``error``."""
        return str(self.args[0])


class AuthenticationError(APIError):
    """401 UNAUTHORIZED: the key is missing, unknown, expired or revoked, or a signature did not verify."""


class PermissionDeniedError(APIError):
    """403 FORBIDDEN: the key lacks the route's scope, or the address is not allowed."""


class NotFoundError(APIError):
    """404 NOT_FOUND."""


class ValidationError(APIError):
    """400 VALIDATION_ERROR, with the fields that failed."""

    @property
    def fields(self) -> List[Dict[str, str]]:
        """Each failed field: ``{"path": ..., "message": ...}``."""
        return list(self.body.get("fields", [])) if isinstance(self.body, dict) else []

    @property
    def dead_letter_id(self) -> Optional[str]:
        """Where an ingest body was kept as a dead letter."""
        return self.body.get("deadLetterId") if isinstance(self.body, dict) else None


class IdempotencyConflictError(APIError):
    """409 IDEMPOTENCY_CONFLICT (the key is in flight) or IDEMPOTENCY_MISMATCH (the key was used with another request)."""


class RateLimitError(APIError):
    """429 RATE_LIMITED, with how long to wait."""

    @property
    def retry_after(self) -> Optional[float]:
        """Seconds to wait before retrying (Retry-After), when the server said."""
        value = self.headers.get("retry-after")
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None


class ProviderError(APIError):
    """502 PROVIDER_ERROR: an upstream provider failed."""


class UnavailableError(APIError):
    """503 UNAVAILABLE: the service cannot take the request now."""


class APIConnectionError(EarshotError):
    """The request got no answer: the connection failed."""


class APITimeoutError(APIConnectionError):
    """An attempt took longer than the timeout."""


class WebhookVerificationError(EarshotError):
    """A webhook's signature, timestamp or body did not verify."""


_BY_CODE: Mapping[str, Type[APIError]] = {
    "UNAUTHORIZED": AuthenticationError,
    "FORBIDDEN": PermissionDeniedError,
    "NOT_FOUND": NotFoundError,
    "VALIDATION_ERROR": ValidationError,
    "IDEMPOTENCY_CONFLICT": IdempotencyConflictError,
    "IDEMPOTENCY_MISMATCH": IdempotencyConflictError,
    "RATE_LIMITED": RateLimitError,
    "PROVIDER_ERROR": ProviderError,
    "UNAVAILABLE": UnavailableError,
}

_BY_STATUS: Mapping[int, Type[APIError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: IdempotencyConflictError,
    422: IdempotencyConflictError,
    429: RateLimitError,
    502: ProviderError,
    503: UnavailableError,
}


def _is_error_body(body: Any) -> bool:
    return isinstance(body, dict) and body.get("ok") is False and isinstance(body.get("code"), str)


def error_from_response(status: int, body: Any, headers: httpx.Headers) -> APIError:
    """The typed error of an answer: by its code, else by its status (a proxy's answer has no Error body)."""
    if _is_error_body(body):
        return _BY_CODE.get(body["code"], APIError)(status, body, headers)
    return _BY_STATUS.get(status, APIError)(status, body, headers)
