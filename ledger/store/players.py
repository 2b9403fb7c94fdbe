"""Players: unique names regardless of case and accents; a rename keeps every score sheet."""

from __future__ import annotations

from sqlmodel import Session, select

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.rules.names import check_name, check_unlike
from ledger.rules.seats import did_you_mean, name_key
from ledger.rules.text import acts_on_screen
from ledger.store.changes import noted
from ledger.store.models import Player, PlayerRename, ident


def clean_name(name: str) -> str:
    """A player's name as typed, spaces tidied, or an error saying what a name may hold."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise LedgerError(_("player name: a name cannot be blank"))
    if len(cleaned) > 40 or any(ch in cleaned for ch in ",:@=[]") or acts_on_screen(cleaned):
        raise LedgerError(
            _("player name {name!r}: up to 40 characters, without , : @ = [ ] or control characters").format(name=name)
        )
    check_name(cleaned)
    return cleaned


def find_player(session: Session, name: str) -> Player | None:
    """The player with this name (case and accents ignored), if any (none holds a control character)."""
    if acts_on_screen(name):
        return None
    return session.exec(select(Player).where(Player.key == name_key(name))).first()


def get_player(session: Session, name: str, *, prefix: bool = False) -> Player:
    """The player with this name (with `prefix`, else the one player whose name it begins), or an error listing who
    exists and naming the one probably meant."""
    player = find_player(session, name)
    if player is not None:
        return player
    names = [p.name for p in list_players(session)]
    begun = (
        [known for known in names if name_key(known).startswith(name_key(name))] if prefix and name_key(name) else []
    )
    if len(begun) == 1:
        return get_player(session, begun[0])
    if begun:
        raise LedgerError(
            _("player {name!r} is ambiguous: it could be {names}").format(name=name, names=", ".join(begun))
        )
    raise LedgerError(
        _("unknown player {name!r}{suggestion}: the players are {known}").format(
            name=name, suggestion=did_you_mean(name, names), known=", ".join(names[:12]) or _("none yet")
        )
    )


def add_player(session: Session, name: str) -> Player:
    """A new player; an error if the name (without case and accents) exists, or looks like one that does."""
    cleaned = clean_name(name)
    existing = find_player(session, cleaned)
    if existing:
        raise LedgerError(_("player {name!r} exists already as {existing!r}").format(name=name, existing=existing.name))
    check_unlike(cleaned, session.exec(select(Player.name)))
    player = Player(name=cleaned, key=name_key(cleaned))
    session.add(player)
    session.flush()
    noted(session, "player")
    return player


def ensure_player(session: Session, name: str) -> Player:
    """The existing player of that name, or a new one."""
    return find_player(session, name) or add_player(session, name)


def list_players(session: Session) -> list[Player]:
    """Every player, by name."""
    return sorted(session.exec(select(Player)).all(), key=lambda p: p.key)


def rename_player(session: Session, old: str, new: str) -> Player:
    """Rename a player; history follows the player, and the old name is kept in the rename log."""
    player = get_player(session, old)
    cleaned = clean_name(new)
    clash = find_player(session, cleaned)
    if clash and clash.id != player.id:
        raise LedgerError(
            _("cannot rename {name!r} to {new!r}: {clash!r} exists already").format(
                name=player.name, new=new, clash=clash.name
            )
        )
    check_unlike(cleaned, session.exec(select(Player.name).where(Player.id != player.id)))
    session.add(PlayerRename(player_id=ident(player), old_name=player.name, new_name=cleaned))
    player.name, player.key = cleaned, name_key(cleaned)
    session.add(player)
    session.flush()
    noted(session, "player")
    return player
