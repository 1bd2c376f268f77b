"""The one way every resource reaches the API: auth, JSON, timeouts, typed errors and retries with one Idempotency-Key."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional

import httpx

from ._backoff import parse_retry_after, retry_delay
from ._errors import APIConnectionError, APIError, APITimeoutError, error_from_response
from ._options import ClientOptions
from ._version import __version__

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Request:
    """One API call, before its attempts."""

    method: str
    path: str
    query: Optional[Mapping[str, Any]] = None
    body: Any = None
    signer: Optional[Callable[[str], Dict[str, str]]] = None
    """Headers made for each attempt from the raw body (an ingest signature over a fresh timestamp)."""
    root: bool = False
    """The path is from the service root, not the base URL."""


def is_retryable(error: Exception) -> bool:
    """Connection errors, timeouts, 408, 409 while the key is in flight, 429 and 5xx are worth another attempt."""
    if isinstance(error, APIConnectionError):
        return True
    if not isinstance(error, APIError):
        return False
    if error.status == 409:
        return error.code == "IDEMPOTENCY_CONFLICT"
    return error.status in (408, 429) or error.status >= 500


def _query(query: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    def text(value: Any) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    return {name: text(value) for name, value in (query or {}).items() if value is not None}


def _decode(response: httpx.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text


class _Transport:
    def __init__(self, options: ClientOptions) -> None:
        self.options = options

    def _url(self, request: Request) -> str:
        base = self.options.base_url[: -len("/api/v1")] if request.root else self.options.base_url
        return base + request.path

    def _headers(self, request: Request, body: Optional[str], idempotency_key: Optional[str]) -> Dict[str, str]:
        headers = {
            "accept": "application/json",
            "authorization": f"Bearer {self.options.api_key}",
            "x-earshot-sdk": f"python/{__version__}",
            **self.options.default_headers,
        }
        if body is not None:
            headers["content-type"] = "application/json"
        if idempotency_key:
            headers["idempotency-key"] = idempotency_key
        if request.signer:
            headers.update(request.signer(body or ""))
        return headers

    @staticmethod
    def _prepare(request: Request, idempotency_key: Optional[str]) -> "tuple[Optional[str], Optional[str]]":
        body = None if request.body is None else json.dumps(request.body, separators=(",", ":"), ensure_ascii=False)
        key = (idempotency_key or str(uuid.uuid4())) if request.method in _WRITES else None
        return body, key

    @staticmethod
    def _answer(response: httpx.Response) -> Any:
        answer = _decode(response)
        if response.is_success:
            return answer
        raise error_from_response(response.status_code, answer, response.headers)

    @staticmethod
    def _wait(retry: int, error: Exception) -> float:
        retry_after = parse_retry_after(error.headers.get("retry-after")) if isinstance(error, APIError) else None
        return retry_delay(retry, retry_after)


class SyncTransport(_Transport):
    """Blocking requests over an ``httpx.Client``."""

    def __init__(self, options: ClientOptions, http_client: Optional[httpx.Client] = None) -> None:
        super().__init__(options)
        self.http = http_client or httpx.Client(timeout=options.timeout)

    def request(self, request: Request, idempotency_key: Optional[str] = None) -> Any:
        """Sends the request, retrying what is worth retrying; answers the parsed body or raises its typed error."""
        body, key = self._prepare(request, idempotency_key)
        for retry in range(self.options.max_retries + 1):
            try:
                return self._attempt(request, body, key)
            except (APIError, APIConnectionError) as error:
                if retry >= self.options.max_retries or not is_retryable(error):
                    raise
                time.sleep(self._wait(retry + 1, error))
        raise AssertionError("unreachable: the last attempt raises or answers")

    def _attempt(self, request: Request, body: Optional[str], key: Optional[str]) -> Any:
        url = self._url(request)
        try:
            response = self.http.request(
                request.method, url, params=_query(request.query), content=body, headers=self._headers(request, body, key), timeout=self.options.timeout
            )
        except httpx.TimeoutException as error:
            raise APITimeoutError(f"{request.method} {url} took longer than {self.options.timeout} s") from error
        except httpx.TransportError as error:
            raise APIConnectionError(f"{request.method} {url} failed: {error}") from error
        return self._answer(response)


class AsyncTransport(_Transport):
    """Requests over an ``httpx.AsyncClient``."""

    def __init__(self, options: ClientOptions, http_client: Optional[httpx.AsyncClient] = None) -> None:
        super().__init__(options)
        self.http = http_client or httpx.AsyncClient(timeout=options.timeout)

    async def request(self, request: Request, idempotency_key: Optional[str] = None) -> Any:
        """Sends the request, retrying what is worth retrying; answers the parsed body or raises its typed error."""
        body, key = self._prepare(request, idempotency_key)
        for retry in range(self.options.max_retries + 1):
            try:
                return await self._attempt(request, body, key)
            except (APIError, APIConnectionError) as error:
                if retry >= self.options.max_retries or not is_retryable(error):
                    raise
                await asyncio.sleep(self._wait(retry + 1, error))
        raise AssertionError("unreachable: the last attempt raises or answers")

    async def _attempt(self, request: Request, body: Optional[str], key: Optional[str]) -> Any:
        url = self._url(request)
        try:
            response = await self.http.request(
                request.method, url, params=_query(request.query), content=body, headers=self._headers(request, body, key), timeout=self.options.timeout
            )
        except httpx.TimeoutException as error:
            raise APITimeoutError(f"{request.method} {url} took longer than {self.options.timeout} s") from error
        except httpx.TransportError as error:
            raise APIConnectionError(f"{request.method} {url} failed: {error}") from error
        return self._answer(response)
