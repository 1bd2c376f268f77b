"""The ingest signature: lowercase hex HMAC-SHA256 over ``timestamp + "." + body``, keyed with the webhook secret's UTF-8 bytes."""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Dict, Optional


def sign_ingest(secret: str, timestamp: str, body: str) -> str:
    """The X-Earshot-Signature of ``body`` at ``timestamp`` (Unix seconds); the secret's ``whsec_`` prefix is part of the key."""
    return hmac.new(secret.encode("utf-8"), f"{timestamp}.{body}".encode("utf-8"), hashlib.sha256).hexdigest()


def ingest_headers(secret: str, body: str, provider: str, now: Optional[float] = None) -> Dict[str, str]:
    """The headers of a signed ingest request at this moment."""
    timestamp = str(int(time.time() if now is None else now))
    return {
        "x-earshot-timestamp": timestamp,
        "x-earshot-signature": sign_ingest(secret, timestamp, body),
        "x-earshot-provider": provider,
    }
