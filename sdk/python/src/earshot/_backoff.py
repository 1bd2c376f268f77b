"""Jittered exponential backoff: 0.5 s doubling to at most 8 s, never less than the server's Retry-After."""

from __future__ import annotations

import random
import time
from email.utils import parsedate_to_datetime
from typing import Callable, Optional

INITIAL_DELAY = 0.5
MAX_DELAY = 8.0


def retry_delay(retry: int, retry_after: Optional[float], rand: Callable[[], float] = random.random) -> float:
    """Seconds to wait before retry number ``retry`` (1 for the first): between half and the whole of the step, so clients that failed together do not retry together."""
    step = min(MAX_DELAY, INITIAL_DELAY * 2 ** (retry - 1))
    jittered = step / 2 + rand() * step / 2
    return float(max(jittered, retry_after or 0.0))


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After in seconds: a number of seconds or an HTTP date; None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))
