"""Standard Webhooks signatures (``webhook-id``, ``webhook-timestamp``, ``webhook-signature: v1,<base64>``), as Earshot's alert notifications carry them."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
import uuid
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import WebhookVerificationError

_PREFIX = "whsec_"


def _key(secret: str) -> bytes:
    encoded = secret[len(_PREFIX) :] if secret.startswith(_PREFIX) else secret
    try:
        return base64.b64decode(encoded.replace("-", "+").replace("_", "/") + "=" * (-len(encoded) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("the webhook secret is not `whsec_` followed by base64") from error


def _signature(secret: str, message_id: str, timestamp: str, body: str) -> str:
    digest = hmac.new(_key(secret), f"{message_id}.{timestamp}.{body}".encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


class Webhooks:
    """``client.webhooks``: checks and makes Standard Webhooks signatures."""

    def __init__(self, default_secret: Optional[str]) -> None:
        self._default_secret = default_secret

    def verify(
        self, raw_body: Union[str, bytes], headers: Mapping[str, str], *, secret: Optional[str] = None, tolerance_seconds: int = 300, now: Optional[float] = None
    ) -> Any:
        """Verifies a notification's raw body against its headers and answers the parsed notification.

        Raises WebhookVerificationError when the signature, the timestamp or the body does not hold
        up. Pass the body exactly as received, before any JSON parsing.
        """
        message_id = _header(headers, "webhook-id")
        timestamp = _header(headers, "webhook-timestamp")
        signatures = _header(headers, "webhook-signature")
        if not message_id or not timestamp or not signatures:
            raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
        if not timestamp.isdigit():
            raise WebhookVerificationError("webhook-timestamp is not Unix seconds")
        current = int(time.time() if now is None else now)
        if abs(current - int(timestamp)) > tolerance_seconds:
            raise WebhookVerificationError(f"the message's timestamp is more than {tolerance_seconds} s from now")
        body = raw_body.decode("utf-8") if isinstance(raw_body, bytes) else raw_body
        expected = _signature(self._secret(secret), message_id, timestamp, body)
        for entry in signatures.split(" "):
            version, _, signature = entry.partition(",")
            if version == "v1" and hmac.compare_digest(signature, expected):
                break
        else:
            raise WebhookVerificationError("no signature matches the body")
        try:
            return json.loads(body)
        except ValueError as error:
            raise WebhookVerificationError("the body is not JSON") from error

    def sign(self, body: Union[str, bytes], *, secret: Optional[str] = None, message_id: Optional[str] = None, timestamp: Optional[int] = None) -> Dict[str, str]:
        """The headers that sign ``body``, for tests of a receiver."""
        text = body.decode("utf-8") if isinstance(body, bytes) else body
        identifier = message_id or f"msg_{uuid.uuid4().hex}"
        seconds = str(int(time.time()) if timestamp is None else timestamp)
        return {
            "webhook-id": identifier,
            "webhook-timestamp": seconds,
            "webhook-signature": f"v1,{_signature(self._secret(secret), identifier, seconds, text)}",
        }

    def _secret(self, secret: Optional[str]) -> str:
        chosen = secret or self._default_secret
        if not chosen:
            raise WebhookVerificationError("no webhook secret: pass secret=... or set EARSHOT_WEBHOOK_SECRET")
        return chosen
