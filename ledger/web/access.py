"""Who may write: the scorekeeper's token, kept in a cookie for pages and sent as a Bearer header to the API.

Pages: opening the write link stores the token in an HttpOnly, SameSite=Strict cookie; every form carries a
CSRF token derived from that cookie, and a form posted from another origin is refused. Viewers get no
forms and every write answers 401 (no token) or 403 (a wrong one).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ledger.i18n import _

COOKIE = "calabresella_write"
CSRF_FIELD = "csrf"


@dataclass(frozen=True)
class Access:
    """The write token of this server, and a secret (new at each start) that signs the forms' CSRF tokens."""

    token: str
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    def matches(self, given: str | None) -> bool:
        """The token given is this server's write token."""
        return given is not None and secrets.compare_digest(given.encode(), self.token.encode())

    def can_write(self, request: Request) -> bool:
        """The page's browser holds the write cookie."""
        return self.matches(request.cookies.get(COOKIE))

    def csrf(self, request: Request) -> str:
        """The CSRF token of this browser's write cookie ("" for a viewer, who gets no forms)."""
        cookie = request.cookies.get(COOKIE)
        if not self.matches(cookie):
            return ""
        assert cookie is not None
        return hmac.new(self.secret, cookie.encode(), hashlib.sha256).hexdigest()

    def remember(self, response: Response) -> None:
        """Store the write token in the browser: HttpOnly, SameSite=Strict, for the whole site."""
        response.set_cookie(COOKIE, self.token, max_age=7 * 24 * 3600, httponly=True, samesite="strict", path="/")

    def check_form(self, request: Request, form: FormData) -> None:
        """Refuse a form post without the write cookie (401), or with a wrong one, a bad CSRF token or another
        site's Origin (403)."""
        cookie = request.cookies.get(COOKIE)
        if cookie is None:
            raise HTTPException(401, _("open the scorekeeper's link on this phone to write"))
        expected = self.csrf(request)
        given = form.get(CSRF_FIELD)
        if not expected or not isinstance(given, str) or not hmac.compare_digest(given, expected):
            raise HTTPException(403, _("this form is not from this server's page: reload the page and try again"))
        if not same_origin(request):
            raise HTTPException(403, _("a form from another site cannot write here"))

    def check_bearer(self, request: Request) -> None:
        """Refuse an API write without `Authorization: Bearer TOKEN` (401) or with a wrong token (403)."""
        scheme, _space, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not given:
            raise HTTPException(
                401, _("writes need the header Authorization: Bearer TOKEN"), headers={"WWW-Authenticate": "Bearer"}
            )
        if not self.matches(given.strip()):
            raise HTTPException(403, _("the token is wrong: nothing was written"))


def same_origin(request: Request) -> bool:
    """The request's Origin header, when the browser sends one, names this very host."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == request.headers.get("host")
