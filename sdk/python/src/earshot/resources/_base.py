"""What every resource shares: validating filters and bodies through the generated models, and reaching the transport."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type, TypeVar, Union
from urllib.parse import quote
from uuid import UUID

from pydantic import BaseModel

from .._pagination import AsyncPagedList, SyncPagedList
from .._transport import AsyncTransport, Request, SyncTransport

M = TypeVar("M", bound=BaseModel)
Id = Union[str, UUID]
"""An id, as a string or (for calls) a UUID."""


def params(model: Type[BaseModel], filters: Mapping[str, Any]) -> Dict[str, Any]:
    """Filters checked by their generated model (snake_case or the API's names) and sent under the API's names."""
    dumped: Dict[str, Any] = model.model_validate(dict(filters)).model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def body(model: Type[M], given: Union[M, Mapping[str, Any], None], fields: Mapping[str, Any]) -> Dict[str, Any]:
    """A request body from a model instance, a dict or keyword arguments, checked by its generated model."""
    value = given if isinstance(given, model) else model.model_validate({**dict(given or {}), **fields})
    dumped: Dict[str, Any] = value.model_dump(by_alias=True, exclude_unset=True, mode="json")
    return dumped


def segment(value: Id) -> str:
    """A path segment from an id, escaped."""
    return quote(str(value), safe="")


class SyncResource:
    """A resource of the blocking client."""

    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport

    def _list(self, path: str, query: Dict[str, Any], model: Type[M]) -> SyncPagedList[M]:
        return SyncPagedList(self._transport, path, query, model)

    def _get(self, path: str, query: Optional[Dict[str, Any]] = None) -> Any:
        return self._transport.request(Request("GET", path, query))

    def _send(self, method: str, path: str, payload: Any, idempotency_key: Optional[str] = None) -> Any:
        return self._transport.request(Request(method, path, body=payload), idempotency_key)


class AsyncResource:
    """A resource of the asyncio client."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    def _list(self, path: str, query: Dict[str, Any], model: Type[M]) -> AsyncPagedList[M]:
        return AsyncPagedList(self._transport, path, query, model)

    async def _get(self, path: str, query: Optional[Dict[str, Any]] = None) -> Any:
        return await self._transport.request(Request("GET", path, query))

    async def _send(self, method: str, path: str, payload: Any, idempotency_key: Optional[str] = None) -> Any:
        return await self._transport.request(Request(method, path, body=payload), idempotency_key)
