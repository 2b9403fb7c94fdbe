"""Who may write: a browser holding a write session (pages), or a client sending the token (API).

The token itself never reaches a browser. The write link carries a key derived from it; opening the link gives
the browser a write session, a random id signed with another key derived from the token, kept for a week in an
HttpOnly, SameSite=Strict cookie named with the server's port (and Secure over HTTPS). A club night's table link
carries a key for that table's evening alone: its session (and, sent as the API's Bearer token, the key itself)
writes to that evening and to no other. Every form
carries a CSRF token derived from the session, and a form posted from another origin is refused. The change log
names the phone that made a change by a name derived from its session with a key of its own (`K7QF`), which tells
nothing of the cookie. All keys are HMACs
of the token bound to the ledger's identity: sessions and open forms outlive a restart with the same token and
ledger, a new token (`serve --new-token`) ends them all, and a server of another ledger takes none of them, even with
the same token. The API takes `Authorization: Bearer TOKEN`. Wrong tokens and link keys are slowed down and logged
(`ledger.web.throttle`); right ones never are.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import string
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.values import Writer
from ledger.web.throttle import Throttle

COOKIE = "calabresella_session"
"""The write session's cookie, named with the server's port (`cookie_name`)."""
CSRF_FIELD = "csrf"
PHONE_NAME_LETTERS = 4
"""How long a phone's name in the change log is: 20 bits, enough to tell apart the phones of a club night."""
SESSION_SECONDS = 7 * 24 * 3600
TOKEN_BITS = 128
ALPHABETS = (
    string.digits,
    string.digits + "abcdef",
    string.digits + string.ascii_lowercase,
    string.ascii_letters + string.digits + "-_",
)
"""What a token may be written with, smallest first: decimal, hex, lowercase letters and digits, URL-safe Base64."""


def check_token(token: str) -> None:
    """An error unless the token holds at least 128 bits as written: 39 decimal digits, 32 hex digits, 25 lowercase
    letters and digits, or 22 characters of A-Z a-z 0-9 - _."""
    alphabet = next((chars for chars in ALPHABETS if set(token) <= set(chars)), None)
    if alphabet is None:
        raise LedgerError(_("the write token may hold only A-Z a-z 0-9 - _; leave it out for a random one"))
    bits = len(token) * math.log2(len(alphabet))
    if bits < TOKEN_BITS:
        raise LedgerError(
            _(
                "the write token has {bits} bits as written ({length} characters): at least {least} are needed "
                "(22 characters of A-Z a-z 0-9 - _, or 32 hex digits); leave it out for a random one"
            ).format(bits=int(bits), length=len(token), least=TOKEN_BITS)
        )
    steps = [ord(token[at + 1]) - ord(token[at]) for at in range(len(token) - 1)]
    period = next(p for p in range(1, len(steps) + 1) if steps[p:] == steps[:-p])
    if period * 2 <= len(token):  # one character over and over, a pattern said twice or more, a run like abcdef...
        raise LedgerError(
            _("the write token repeats a short pattern: anyone could guess it; leave it out for a random one")
        )


def cookie_name(port: int | None) -> str:
    """The write session's cookie on the server at `port`: a browser sends a host's cookies to each of its ports, and
    two servers on one machine keep their sessions apart.

    >>> cookie_name(8000)
    'calabresella_session_8000'
    """
    return f"{COOKIE}_{port}" if port else COOKIE


def _cookie(request: Request) -> str:
    server = request.scope.get("server")
    return cookie_name(server[1] if server else request.url.port)


def _sign(key: bytes, text: str) -> str:
    digest = hmac.new(key, text.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


@dataclass(frozen=True)
class Keys:
    """The write token of a server and the identity of the ledger it serves, and the keys derived from both."""

    token: str
    ledger: str

    def __post_init__(self) -> None:
        check_token(self.token)

    def _key(self, purpose: str) -> bytes:
        return hmac.new(self.token.encode(), f"{purpose}\0{self.ledger}".encode(), hashlib.sha256).digest()

    @property
    def link_key(self) -> str:
        """What the write link carries instead of the token."""
        return _sign(self._key("write link"), "open")

    def table_key(self, evening: int) -> str:
        """What a table's link carries (`12.SIGNATURE`): it writes to evening 12 only."""
        return f"{evening}.{_sign(self._key('table link'), str(evening))}"

    def table_of(self, key: str) -> int | None:
        """The evening a table's key writes to, when the key is one this token signed for this ledger; else None."""
        evening, _dot, _signature = key.partition(".")
        number = int(evening) if evening.isascii() and evening.isdecimal() and len(evening) < 19 else None
        if number is None or not hmac.compare_digest(key.encode(), self.table_key(number).encode()):
            return None
        return number


@dataclass(frozen=True)
class Access(Keys):
    """Who may write on this server: its keys, checked on each request; wrong ones are slowed down by `throttle`."""

    throttle: Throttle

    def new_session(self, evening: int | None = None) -> str:
        """A new write session: a random id, the evening it is kept to (for a table's link), the time it was given,
        signed."""
        kept = f".t{evening}" if evening is not None else ""
        opened = f"{secrets.token_urlsafe(16)}{kept}.{int(time.time())}"
        return f"{opened}.{_sign(self._key('write session'), opened)}"

    def session(self, request: Request) -> str | None:
        """The browser's write session, when it holds one this token signed less than a week ago."""
        cookie = request.cookies.get(_cookie(request), "")
        opened, _dot, signature = cookie.rpartition(".")
        issued = opened.rpartition(".")[2]
        expected = _sign(self._key("write session"), opened)
        if not issued.isdecimal() or not hmac.compare_digest(signature.encode(), expected.encode()):
            return None
        return cookie if 0 <= time.time() - int(issued) < SESSION_SECONDS else None

    def can_write(self, request: Request, evening: int | None = None) -> bool:
        """The page's browser holds a write session (for `evening`: one that may write there)."""
        session = self.session(request)
        return session is not None and _kept_to(session) in (None, evening)

    def kept_to(self, request: Request) -> int | None:
        """The evening the browser's write session is kept to (a table's link), or None."""
        session = self.session(request)
        return _kept_to(session) if session else None

    def phone_name(self, session: str) -> str:
        """What the change log names the phone holding write `session` by: letters and digits derived from the
        session's random id with a key of the server's own, the same for every change the phone makes, and telling
        nothing of its cookie."""
        digest = hmac.new(self._key("phone name"), session.partition(".")[0].encode(), hashlib.sha256).digest()
        return base64.b32encode(digest).decode()[:PHONE_NAME_LETTERS]

    def csrf(self, request: Request) -> str:
        """The CSRF token of this browser's write session ("" for a viewer, who gets no forms)."""
        session = self.session(request)
        return _sign(self._key("form"), session) if session else ""

    def remember(self, request: Request, response: Response, session: str) -> None:
        """Keep the write session in the browser: HttpOnly, SameSite=Strict, for the whole site, a week; Secure when
        the request came over HTTPS."""
        response.set_cookie(
            _cookie(request),
            session,
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="strict",
            path="/",
            secure=request.url.scheme == "https",
        )

    async def open_link(self, request: Request, evening: int | None = None) -> bool:
        """Whether the write link's key (or table `evening`'s link key) is right (wrong ones are slowed down and
        logged)."""
        expected = self.link_key if evening is None else self.table_key(evening)
        given = request.query_params.get("key", "")
        if hmac.compare_digest(given.encode(), expected.encode()):
            return True
        await self.throttle.wrong(_address(request), _("write link"))
        return False

    def check_form(self, request: Request, form: FormData) -> None:
        """Refuse a form post without a write session (401), or with a bad CSRF token or another site's Origin
        (403)."""
        if self.session(request) is None:
            if _cookie(request) in request.cookies:
                raise HTTPException(
                    401,
                    _(
                        "this phone may no longer record (its permission is a week old, or the scorekeeper's link "
                        "has changed): nothing was written; open the scorekeeper's link again"
                    ),
                )
            raise HTTPException(401, _("open the scorekeeper's link on this phone to write"))
        kept = self.kept_to(request)
        if kept is not None and request.path_params.get("evening") != str(kept):
            raise HTTPException(
                403, _("this phone keeps the score of one table only (evening {number})").format(number=kept)
            )
        given = form.get(CSRF_FIELD)
        if not isinstance(given, str) or not hmac.compare_digest(given.encode(), self.csrf(request).encode()):
            raise HTTPException(403, _("this form is not from this server's page: reload the page and try again"))
        if not same_origin(request):
            raise HTTPException(403, _("a form from another site cannot write here"))
        session = self.session(request) or ""
        request.state.writer = Writer("table" if kept is not None else "phone", kept, self.phone_name(session))

    async def check_bearer(self, request: Request) -> None:
        """Refuse an API write without `Authorization: Bearer TOKEN` (401) or with a wrong token (403, slowed down
        and logged)."""
        scheme, _space, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not given:
            raise HTTPException(
                401, _("writes need the header Authorization: Bearer TOKEN"), headers={"WWW-Authenticate": "Bearer"}
            )
        matches = hmac.compare_digest(given.strip().encode(), self.token.encode())
        kept = None if matches else self.table_of(given.strip())
        if not matches and kept is None:
            await self.throttle.wrong(_address(request), _("API token"))
            raise HTTPException(403, _("the token is wrong: nothing was written"))
        if kept is not None and request.path_params.get("evening") != str(kept):
            raise HTTPException(
                403, _("this key writes to one table only (evening {number}): nothing was written").format(number=kept)
            )
        request.state.writer = Writer("api") if kept is None else Writer("table", kept, f"table {kept}")


def _kept_to(session: str) -> int | None:
    """The evening a write session is kept to, from its middle part (`id.t12.issued.signature`), or None."""
    parts = session.split(".")
    return int(parts[1][1:]) if len(parts) == 4 and parts[1][:1] == "t" and parts[1][1:].isdecimal() else None


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def same_origin(request: Request) -> bool:
    """The request comes from this site's own pages, as far as the browser says: `Sec-Fetch-Site`, when sent, is
    same-origin; the Origin header, when it names one (a page sending no Referer sends `null`), is this host."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    return origin in (None, "null") or urlsplit(origin).netloc == request.headers.get("host")
