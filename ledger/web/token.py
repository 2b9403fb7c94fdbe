"""The server's write token: from `CALABRESELLA_TOKEN`, else from a file readable by its owner only (by default one
per ledger, `serve-token-LEDGER` in the user data folder, made on first use), never from a command line, where every
user of the machine can read it in the process list."""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

from ledger.errors import LedgerError
from ledger.i18n import _

TOKEN_VARIABLE = "CALABRESELLA_TOKEN"
TOKEN_FILE_VARIABLE = "CALABRESELLA_TOKEN_FILE"


def token_path(ledger: str, given: Path | None = None) -> Path:
    """Where the write token is kept: `given`, else `CALABRESELLA_TOKEN_FILE`, else the default file of the ledger
    whose identity is `ledger`, `serve-token-` and 16 hex digits of its hash in the user data folder, so that two
    ledgers never share a token."""
    from platformdirs import user_data_path

    named = os.environ.get(TOKEN_FILE_VARIABLE)
    if given is not None:
        return given
    if named:
        return Path(named)
    digest = hashlib.sha256(ledger.encode()).hexdigest()[:16]
    return user_data_path("calabresella", appauthor=False) / f"serve-token-{digest}"


def load_token(path: Path, renew: bool = False) -> str:
    """The write token: `CALABRESELLA_TOKEN`, else the one in the file at `path` (a new random one when it has none
    yet, or when `renew` asks for one)."""
    given = os.environ.get(TOKEN_VARIABLE)
    if given is not None:
        if renew:
            raise LedgerError(
                _(
                    "--new-token writes a new token file, but {variable} is set: unset it, or set a new token in it"
                ).format(variable=TOKEN_VARIABLE)
            )
        return given.strip()
    try:
        if renew or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            token = secrets.token_urlsafe(32)
            path.unlink(missing_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w", encoding="ascii") as out:
                out.write(token + "\n")
            return token
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise LedgerError(
            _("--token-file {path!r}: cannot use it ({reason})").format(
                path=str(path), reason=getattr(error, "strerror", None) or error
            )
        ) from None
