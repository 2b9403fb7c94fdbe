"""`serve --lang it` (or CALABRESELLA_LANG=it) is the phones' language unless a phone asks for Italian or English
itself: through its cookie, or its browser's Accept-Language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_web_support import start, viewer

from ledger.i18n import use_language


@pytest.fixture
def italian_server() -> Iterator[None]:
    """The server's own language is Italian, as `serve --lang it` sets it for the process."""
    use_language("it")
    try:
        yield
    finally:
        use_language("en")


def test_a_phone_asking_for_neither_language_gets_the_servers(sqlite_url: str, italian_server: None) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        assert "<h1>Serata 1</h1>" in phone.get("/evenings/1", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).text
        assert "<h1>Serata 1</h1>" in phone.get("/evenings/1").text
        assert "<h1>Evening 1</h1>" in phone.get("/evenings/1", headers={"Accept-Language": "fr,en;q=0.5"}).text
        phone.get("/language/en?next=/evenings/1")
        assert "<h1>Evening 1</h1>" in phone.get("/evenings/1", headers={"Accept-Language": "fr"}).text
