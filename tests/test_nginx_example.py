"""`examples/nginx-tournament.conf` as a club would deploy it: Debian's nginx with TLS in front of `calabresella serve
--proxy 127.0.0.1`. Only its host name, ports and certificate paths are changed for the test: through it the pages
answer over HTTPS, plain HTTP is sent to HTTPS, a write session's cookie is Secure, a deal reaches a live stream at
once, and an X-Forwarded-For a client writes gives it no new address to guess from."""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from test_serve import _free_port, _said, serving
from test_serve_workers import stream, until
from test_web_support import BEARER, link, start
from workload import listening

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "nginx-tournament.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx (apt-get install nginx-light)")


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def rendered(upstream: int, plain: int, secure: int, cert: Path, key: Path) -> str:
    """The example with this test's host name, ports and certificate."""
    text = EXAMPLE.read_text()
    for old, new in (
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
        ("listen 80;", f"listen 127.0.0.1:{plain};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{secure} ssl http2;"),
        ("scores.example.org", "localhost"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    return text.replace("return 301 https://$host$request_uri;", f"return 301 https://$host:{secure}$request_uri;")


@contextmanager
def nginx(folder: Path, site: str, secure: int) -> Iterator[None]:
    """Debian's nginx in the foreground with the site, its files in `folder`."""
    (folder / "site.conf").write_text(site)
    temp = folder / "temp"
    temp.mkdir()
    temp.chmod(0o777)
    (folder / "nginx.conf").write_text(
        f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log; user root;\n"
        f"events {{}}\nhttp {{ access_log off; client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy;\n"
        f"include {folder}/site.conf; }}\n"
    )
    process = subprocess.Popen([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)], stderr=subprocess.PIPE)
    try:
        if not listening(secure, process, seconds=10):
            said = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"nginx did not start: {said}")
        yield
    finally:
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()


def test_the_nginx_example_serves_the_ledger_over_https_as_a_club_would_deploy_it(
    sqlite_url: str, tmp_path: Path
) -> None:
    start(sqlite_url)
    cert, key = _certificate(tmp_path)
    plain, secure = _free_port(), _free_port()
    with serving(sqlite_url, "--proxy", "127.0.0.1") as (base, process):
        upstream = int(base.rpartition(":")[2])
        with nginx(tmp_path, rendered(upstream, plain, secure, cert, key), secure):
            outside = f"https://localhost:{secure}"
            trusted = ssl.create_default_context(cafile=str(cert))

            async def live() -> int:
                async with (
                    stream(outside, "/evenings/1/events", verify=trusted) as ids,
                    httpx.AsyncClient(base_url=outside, verify=trusted) as client,
                ):
                    await until(ids, 0)
                    sent = await client.post("/api/evenings/1/deals", json={"line": "anna solo 22"}, headers=BEARER)
                    assert sent.status_code == 201, sent.text
                    return await until(ids, sent.json()["evening_revision"])

            assert asyncio.run(live()) >= 1
            with httpx.Client(base_url=outside, verify=trusted) as phone:
                assert "Anna" in phone.get("/evenings/1").text
                opened = phone.get(link(sqlite_url))
                assert opened.status_code == 303 and "secure" in opened.headers["set-cookie"].lower()
                moved = httpx.get(f"http://localhost:{plain}/evenings/1", follow_redirects=False)
                assert moved.status_code == 301 and moved.headers["location"] == f"{outside}/evenings/1"
                codes = []
                deadline = time.monotonic() + 2.5
                while time.monotonic() < deadline:
                    forged = {"Authorization": "Bearer 0000", "X-Forwarded-For": f"198.51.100.{len(codes) + 1}"}
                    codes.append(phone.post("/api/evenings/1/deals", json={"line": "pass"}, headers=forged).status_code)
                assert 1 <= codes.count(403) <= 3 and codes.count(429) == len(codes) - codes.count(403)
        process.send_signal(signal.SIGINT)
        process.wait(5)
        printed = _said(process)
    assert "from 127.0.0.1" in printed and "198.51.100." not in printed
