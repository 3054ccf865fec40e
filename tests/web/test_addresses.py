"""An event's number in an address is ASCII digits: other digits (``²``, ``٣``) are no number and no
page, a 404 that says how events are numbered, never a server error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from xlrating.web.app import Settings, create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(tmp_path_factory.mktemp("a") / "s.db"), check_processes=1))) as c:
        yield c


@pytest.mark.parametrize("address", ["/tournaments/²", "/tournaments/٣", "/dippouch/events/²", "/dci/events/١٢",
                                     "/tournaments/1²", "/tournaments/1234567890123"])
def test_a_number_in_other_digits_is_not_found(client: TestClient, address: str) -> None:
    for suffix in ("", ".json"):
        response = client.get(address + suffix)
        assert response.status_code == 404, (address, suffix)
    assert "numbered 1, 2, 3" in client.get(address).text


def test_a_number_no_event_has_is_not_found_and_says_where_they_are_listed(client: TestClient, tmp_path: Path) -> None:
    response = client.get("/tournaments/7.json")
    assert response.status_code == 404 and "the list at /tournaments" in response.json()["message"]
