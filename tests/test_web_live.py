"""The live feed (server-sent events) and `calabresella serve`: one event per change, written once for every
phone; the server starts without pandas or matplotlib and prints its two links."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from test_web_support import BEARER, start, viewer

from ledger.cli.serve import links, print_links


def _events(stream: str) -> list[tuple[str, str]]:
    """(id, data) of each `evening` event in a server-sent event stream."""
    found = re.findall(r"event: evening\nid: (\d+)\n((?:data: .*\n)+)\n", stream)
    return [(revision, "\n".join(line[6:] for line in data.splitlines())) for revision, data in found]


def test_a_phone_gets_the_evening_now_and_then_only_what_changed(db_url: str) -> None:
    start(db_url)
    with viewer(db_url) as phone:
        first = _events(phone.get("/evenings/1/events").text)
        assert [revision for revision, _ in first] == ["0"] and "No deals yet." in first[0][1]
        assert _events(phone.get("/evenings/1/events", headers={"Last-Event-ID": "0"}).text) == []
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        [(revision, fragment)] = _events(phone.get("/evenings/1/events?seen=0").text)
        page = phone.get("/evenings/1").text
    assert revision == "1" and "Bruno solo · 7+1/3 · won" in fragment
    assert fragment.strip() in page.replace("\r", "")


def test_a_deal_recorded_elsewhere_reaches_the_phones(db_url: str) -> None:
    from ledger import Ledger

    start(db_url)
    with viewer(db_url) as phone:
        assert _events(phone.get("/evenings/1/events").text)[0][0] == "0"
        with Ledger(db_url) as terminal:
            terminal.record("carla solo 20")
        assert [r for r, _ in _events(phone.get("/evenings/1/events?seen=0").text)] == ["1"]


def test_starting_the_server_loads_neither_pandas_nor_matplotlib(tmp_path: object) -> None:
    script = f"""
import sys, warnings
warnings.simplefilter("ignore")
from starlette.testclient import TestClient
import ledger.cli.main
from ledger import Ledger
from ledger.web.app import create_app
db = {str(tmp_path) + "/ledger.sqlite3"!r}
Ledger(db).start_evening(["Anna", "Bruno", "Carla"])
with TestClient(create_app(db, "t" * 32, hosts=["testserver"])) as phone:
    assert phone.get("/evenings/1").status_code == 200
    assert phone.get("/api/evenings/1/standings").status_code == 200
print(sorted(m for m in ("pandas", "matplotlib", "reports.charts") if m in sys.modules))
"""
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "[]"


def test_the_links_carry_the_link_key_only_for_writing(capsys: pytest.CaptureFixture[str]) -> None:
    write, look = links("127.0.0.1", 8123, "k3y")
    assert (write, look) == ("http://127.0.0.1:8123/write?key=k3y", "http://127.0.0.1:8123/")
    lan_write, _ = links("0.0.0.0", 8000, "k3y")
    assert lan_write.endswith(":8000/write?key=k3y") and "0.0.0.0" not in lan_write
    print_links(write, look, qr=True)
    printed = capsys.readouterr().out
    assert write in printed and look in printed
    assert printed.count("Scorekeeper (can write)") == 1 and ("█" in printed or "▀" in printed)
