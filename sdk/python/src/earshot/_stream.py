"""The tenant's events over the WebSocket, resuming after a drop from the last position seen."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator, Dict, Iterator, Optional, Sequence, Union
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection as AsyncConnection
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect

from ._backoff import retry_delay
from ._errors import APIConnectionError

PROTOCOL = "earshot.v1"


@dataclass(frozen=True)
class StreamEvent:
    """One event of the stream and the position to resume after it."""

    position: str
    event: Dict[str, Any]
    """The event as stored: its envelope and what the gateway added (``tenant``, ``provider``, ``received_at``)."""


def stream_url(base_url: str, types: Optional[Sequence[str]], agent_id: Optional[str], call_id: Optional[str], after: Optional[str]) -> str:
    """The stream's WebSocket URL: the base URL's, with ws(s) and the filters."""
    query = {"types": ",".join(types) if types else None, "agentId": agent_id, "callId": call_id, "after": after}
    encoded = urlencode({k: v for k, v in query.items() if v})
    url = base_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1) + "/stream"
    return f"{url}?{encoded}" if encoded else url


class _Subscription:
    """What both streams keep: the filters, the last position and how to read a message."""

    def __init__(
        self, base_url: str, api_key: str, types: Optional[Sequence[str]], agent_id: Optional[str], call_id: Optional[str], after: Optional[str], max_reconnects: int
    ) -> None:
        self._base_url = base_url
        self._headers = {"Authorization": f"Bearer {api_key}"}
        self._filters = (types, agent_id, call_id)
        self.position: Optional[str] = after
        """The position after the last message received: pass it as ``after`` to resume elsewhere."""
        self.reconnects = 0
        """How many times the stream reconnected after a drop."""
        self._max_reconnects = max_reconnects
        self._closed = False
        self._failures = 0

    def _url(self) -> str:
        return stream_url(self._base_url, *self._filters, after=self.position)

    def _read(self, raw: Union[str, bytes]) -> "tuple[bool, Optional[StreamEvent]]":
        """Whether the message was the server's ``ready``, and the event it carried, if any; remembers its position."""
        message = json.loads(raw)
        position = message.get("position")
        if position:
            self.position = position
        event = StreamEvent(position, message["event"]) if message.get("type") == "event" and position else None
        return message.get("type") == "ready", event

    def _after_drop(self, ready: bool) -> Optional[float]:
        """The wait before reconnecting, or None when closed; raises once reconnecting failed too often in a row."""
        if self._closed:
            return None
        self._failures = 0 if ready else self._failures + 1
        if self._failures > self._max_reconnects:
            raise APIConnectionError(f"the stream could not reconnect after {self._max_reconnects} tries")
        self.reconnects += 1
        return retry_delay(max(1, self._failures), None)


class EventStream(_Subscription):
    """``client.stream.subscribe(...)``: iterate it for the tenant's events; ``close()`` ends it. It resumes by itself after a drop."""

    _connection: Optional[ClientConnection] = None

    def __iter__(self) -> Iterator[StreamEvent]:
        while not self._closed:
            ready = False
            try:
                with connect(self._url(), subprotocols=[PROTOCOL], additional_headers=self._headers, open_timeout=10) as connection:  # type: ignore[list-item]
                    self._connection = connection
                    for raw in connection:
                        first, event = self._read(raw)
                        ready = ready or first
                        if event:
                            yield event
            except (WebSocketException, OSError):
                pass
            wait = self._after_drop(ready)
            if wait is None:
                return
            time.sleep(wait)

    def close(self) -> None:
        """Ends the stream."""
        self._closed = True
        if self._connection is not None:
            self._connection.close()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncEventStream(_Subscription):
    """``client.stream.subscribe(...)`` on AsyncEarshot: ``async for`` the tenant's events; ``await close()`` ends it."""

    _connection: Optional[AsyncConnection] = None

    async def __aiter__(self) -> AsyncIterator[StreamEvent]:
        while not self._closed:
            ready = False
            try:
                async with async_connect(self._url(), subprotocols=[PROTOCOL], additional_headers=self._headers, open_timeout=10) as connection:  # type: ignore[list-item]
                    self._connection = connection
                    async for raw in connection:
                        first, event = self._read(raw)
                        ready = ready or first
                        if event:
                            yield event
            except (WebSocketException, OSError):
                pass
            wait = self._after_drop(ready)
            if wait is None:
                return
            await asyncio.sleep(wait)

    async def close(self) -> None:
        """Ends the stream."""
        self._closed = True
        if self._connection is not None:
            await self._connection.close()

    async def __aenter__(self) -> "AsyncEventStream":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()
