"""Lists: iterate for every item, page after page, or walk the pages yourself."""

from __future__ import annotations

from typing import Any, AsyncIterator, Callable, Dict, Generic, Iterator, List, Optional, Type, TypeVar

from pydantic import BaseModel

from ._transport import AsyncTransport, Request, SyncTransport

T = TypeVar("T", bound=BaseModel)


class SyncPage(Generic[T]):
    """One page of a list, with the way to the next."""

    def __init__(self, items: List[T], next_cursor: Optional[str], fetch: Callable[[str], "SyncPage[T]"]) -> None:
        self.items: List[T] = items
        """This page's items, in the server's order."""
        self.next_cursor: Optional[str] = next_cursor
        """The cursor of the next page; None on the last page."""
        self._fetch = fetch

    def has_next_page(self) -> bool:
        """Whether there is a page after this one."""
        return self.next_cursor is not None

    def next_page(self) -> Optional["SyncPage[T]"]:
        """The next page, or None after the last."""
        return None if self.next_cursor is None else self._fetch(self.next_cursor)


class SyncPagedList(Generic[T]):
    """A list: ``for item in ...`` gives every item of every page; ``first_page()`` the first page. Nothing is requested before either."""

    def __init__(self, transport: SyncTransport, path: str, query: Dict[str, Any], model: Type[T]) -> None:
        self._transport = transport
        self._path = path
        self._query = query
        self._model = model

    def first_page(self) -> SyncPage[T]:
        """The first page (from the filters' own ``cursor``, if given)."""
        return self._page(self._query.get("cursor"))

    def __iter__(self) -> Iterator[T]:
        page: Optional[SyncPage[T]] = self.first_page()
        while page is not None:
            yield from page.items
            page = page.next_page()

    def to_list(self) -> List[T]:
        """Every item of every page, collected: for lists known to be short."""
        return list(self)

    def _page(self, cursor: Optional[str]) -> SyncPage[T]:
        body = self._transport.request(Request("GET", self._path, {**self._query, "cursor": cursor}))
        items = [self._model.model_validate(item) for item in body["items"]]
        return SyncPage(items, body.get("nextCursor"), self._page)


class AsyncPage(Generic[T]):
    """One page of a list, with the way to the next."""

    def __init__(self, items: List[T], next_cursor: Optional[str], fetch: Callable[[str], Any]) -> None:
        self.items: List[T] = items
        """This page's items, in the server's order."""
        self.next_cursor: Optional[str] = next_cursor
        """The cursor of the next page; None on the last page."""
        self._fetch = fetch

    def has_next_page(self) -> bool:
        """Whether there is a page after this one."""
        return self.next_cursor is not None

    async def next_page(self) -> Optional["AsyncPage[T]"]:
        """The next page, or None after the last."""
        if self.next_cursor is None:
            return None
        page: AsyncPage[T] = await self._fetch(self.next_cursor)
        return page


class AsyncPagedList(Generic[T]):
    """A list: ``async for item in ...`` gives every item of every page; ``await first_page()`` the first page."""

    def __init__(self, transport: AsyncTransport, path: str, query: Dict[str, Any], model: Type[T]) -> None:
        self._transport = transport
        self._path = path
        self._query = query
        self._model = model

    async def first_page(self) -> AsyncPage[T]:
        """The first page (from the filters' own ``cursor``, if given)."""
        return await self._page(self._query.get("cursor"))

    async def __aiter__(self) -> AsyncIterator[T]:
        page: Optional[AsyncPage[T]] = await self.first_page()
        while page is not None:
            for item in page.items:
                yield item
            page = await page.next_page()

    async def to_list(self) -> List[T]:
        """Every item of every page, collected: for lists known to be short."""
        return [item async for item in self]

    async def _page(self, cursor: Optional[str]) -> AsyncPage[T]:
        body = await self._transport.request(Request("GET", self._path, {**self._query, "cursor": cursor}))
        items = [self._model.model_validate(item) for item in body["items"]]
        return AsyncPage(items, body.get("nextCursor"), self._page)
