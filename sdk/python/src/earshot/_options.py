"""How a client is configured: its arguments, else the environment, else the defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, Optional
from urllib.parse import urlsplit, urlunsplit

DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 2


def normalize_base_url(value: str) -> str:
    """The base URL as the client uses it: ending in /api/v1, without a trailing slash; the service root means the same."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"the Earshot base URL must be an http or https URL, not {value!r}")
    path = parts.path.rstrip("/")
    if not path.endswith("/api/v1"):
        path = f"{path}/api/v1"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _from_environment(name: str) -> Optional[str]:
    value = os.environ.get(name)
    return value if value else None


@dataclass(frozen=True)
class ClientOptions:
    """The resolved settings of a client."""

    api_key: str
    base_url: str
    webhook_secret: Optional[str]
    timeout: float
    max_retries: int
    default_headers: Dict[str, str] = field(default_factory=dict)


def resolve_options(
    api_key: Optional[str],
    base_url: Optional[str],
    webhook_secret: Optional[str],
    timeout: Optional[float],
    max_retries: Optional[int],
    default_headers: Optional[Dict[str, str]],
) -> ClientOptions:
    """Settles every option, failing at once on a missing key or a bad value."""
    key = api_key or _from_environment("EARSHOT_API_KEY")
    if not key:
        raise ValueError("Earshot needs an API key: pass api_key=... or set EARSHOT_API_KEY")
    retries = DEFAULT_MAX_RETRIES if max_retries is None else max_retries
    if retries < 0:
        raise ValueError(f"max_retries must be at least 0, not {retries}")
    seconds = DEFAULT_TIMEOUT if timeout is None else timeout
    if seconds <= 0:
        raise ValueError(f"timeout must be positive, not {seconds}")
    return ClientOptions(
        api_key=key,
        base_url=normalize_base_url(base_url or _from_environment("EARSHOT_BASE_URL") or DEFAULT_BASE_URL),
        webhook_secret=webhook_secret or _from_environment("EARSHOT_WEBHOOK_SECRET"),
        timeout=seconds,
        max_retries=retries,
        default_headers=dict(default_headers or {}),
    )
