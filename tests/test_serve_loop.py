"""`serve` runs its connections on uvloop where it is made for the system (the tournament's budget counts on it:
about a tenth less processor time a deal than Python's own event loop)."""

from __future__ import annotations

import sys

import pytest
import uvicorn

from ledger.web.protocol import Connection


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not made for Windows")
def test_the_server_runs_on_uvloop() -> None:
    loop = uvicorn.Config(app=lambda *_: None, http=Connection).get_loop_factory()()
    try:
        assert type(loop).__module__.startswith("uvloop"), type(loop)
    finally:
        loop.close()
