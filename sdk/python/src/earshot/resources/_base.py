"""What every resource shares: validating filters and bodies through the generated models, and reaching the transport."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type, TypeVar, Union
from urllib.parse import quote
from uuid import UUID

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from .._pagination import AsyncPagedList, SyncPagedList
from .._transport import AsyncTransport, Request, SyncTransport

M = TypeVar("M", bound=BaseModel)
Id = Union[str, UUID]
"""An id, as a string or (for calls) a UUID."""


def _api_names(model: Type[BaseModel], values: Mapping[str, Any]) -> Dict[str, Any]:
    """The values under the API's names, made JSON; a None given for a body field is sent as null."""
    # The server is the one judge of a request (its VALIDATION_ERROR names the fields), as in every Earshot SDK:
    # here names are only mapped, snake_case to the API's, and values made JSON.
    aliases = {name: field.alias or name for name, field in model.model_fields.items()}
    return {aliases.get(key, key): _json(value) for key, value in values.items()}


def _json(value: Any) -> Any:
    """A value made JSON; a model given as a field's value (a connection's credentials) keeps only the fields set, so one left out is not sent as null."""
    if isinstance(value, BaseModel):
        dumped: Dict[str, Any] = value.model_dump(by_alias=True, exclude_unset=True, mode="json")
        return dumped
    return to_jsonable_python(value)


def params(model: Type[BaseModel], filters: Mapping[str, Any]) -> Dict[str, Any]:
    """Filters under the API's names: ``agent_id`` or ``agentId``, as the generated model names them."""
    return _api_names(model, {key: value for key, value in filters.items() if value is not None})


def body(model: Type[M], given: Union[M, Mapping[str, Any], None], fields: Mapping[str, Any]) -> Dict[str, Any]:
    """A request body from a model instance, a dict or keyword arguments, under the API's names."""
    if isinstance(given, model):
        dumped: Dict[str, Any] = given.model_dump(by_alias=True, exclude_unset=True, mode="json")
        return {**dumped, **_api_names(model, fields)}
    return _api_names(model, {**dict(given or {}), **fields})


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
