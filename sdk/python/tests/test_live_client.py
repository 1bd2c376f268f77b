"""[client-from-environment]"""

from __future__ import annotations

import pytest

from earshot import Earshot

from .conftest import required, scenario


@scenario("client-from-environment")
def test_a_client_from_the_environment_alone_reaches_the_server(_scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    base_url = required("EARSHOT_BASE_URL").rstrip("/")
    with Earshot() as from_env:
        assert from_env.base_url == base_url
        assert isinstance(from_env.calls.list(limit=1).first_page().items, list)
    with Earshot(base_url=base_url[: -len("/api/v1")]) as root:
        assert root.base_url == base_url
        assert root.health.retrieve().ok is True
        assert root.realtime.retrieve().concurrent_calls >= 0
    monkeypatch.delenv("EARSHOT_API_KEY")
    with pytest.raises(ValueError, match="EARSHOT_API_KEY"):
        Earshot()
