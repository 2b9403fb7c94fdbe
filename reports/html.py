"""The evening report: one self-contained HTML file with seats, deals, standings, settlement and charts."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from html import escape

from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from ledger.errors import LedgerError
from ledger.rules.points import format_points
from ledger.rules.seats import name_key
from ledger.settlement import fewest_payments, format_cents, money_cents
from ledger.store.deals import DealView, list_deals, totals
from ledger.store.evenings import Table, get_table
from ledger.store.models import Evening, PlayerRename
from reports import charts
from reports.filters import Filters
from reports.frames import Frames, load_frames

STYLE = """
body { font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #222; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; } h2 { font-size: 1.25rem; margin: 1.6rem 0 .5rem; }
.meta { color: #555; margin: 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; min-width: 100%; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.voided td { color: #888; text-decoration: line-through; }
tr.voided td:last-child { text-decoration: none; font-style: italic; }
.pos { color: #2e7d32; } .neg { color: #c62828; }
figure { margin: 1rem 0; } figure img { max-width: 100%; height: auto; }
"""
CHARTS = (("running", "Running game points"), ("contracts", "Contracts"), ("thirds", "Declarer side's thirds"))


def latest_evening(session: Session) -> int:
    """The number of the most recent evening, open or closed."""
    number = session.exec(select(func.max(Evening.id))).one()
    if number is None:
        raise LedgerError("no evenings yet: start one with: calabresella evening start --players Anna,Bruno,Carla")
    return int(number)


def _local(moment: datetime) -> str:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone().strftime("%Y-%m-%d %H:%M")


def _signed(points: int) -> str:
    css = "pos" if points > 0 else "neg" if points < 0 else ""
    return f'<span class="{css}">{points:+d}</span>' if points else "0"


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = (),
           row_classes: Sequence[str] | None = None) -> str:
    """An HTML table; headers are plain text (escaped here), cells are HTML already escaped by the caller."""
    head = "".join(f'<th{" class=num" if i in numeric else ""}>{escape(h)}</th>' for i, h in enumerate(headers))
    body = []
    for n, row in enumerate(rows):
        css = f' class="{row_classes[n]}"' if row_classes and row_classes[n] else ""
        cells = "".join(f'<td{" class=num" if i in numeric else ""}>{cell}</td>' for i, cell in enumerate(row))
        body.append(f"<tr{css}>{cells}</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _aliases(session: Session, table: Table) -> dict[str, str]:
    """Every name a seated player had (by name key) mapped to the current name: holders are stored as typed."""
    renames = session.exec(select(PlayerRename).where(col(PlayerRename.player_id).in_(table.ids.values()))).all()
    by_id = {pid: name for name, pid in table.ids.items()}
    aliases = {name_key(r.old_name): by_id[r.player_id] for r in renames}
    return {**aliases, **{name_key(name): name for name in table.players}}


def _what(deal: DealView, names: dict[int, str], aliases: dict[str, str], american: bool) -> str:
    """`Bruno solo: 22 thirds (7+1/3), won, stramazzo` or `all passed`, as plain text."""
    row = deal.row
    if deal.passed:
        return "all passed"
    contract = " ".join(part for part in (row.contract, row.aggravation) if part)
    holder = f" (held by {aliases.get(name_key(row.holder), row.holder)})" if row.holder else ""
    called = f" calling {row.called}{holder}" if row.called else ""
    thirds = row.declarer_thirds or 0
    shown = f"{thirds} of 35" if american else f"{thirds} thirds ({format_points(thirds)})"
    outcome = "won" if row.declarer_won else "lost"
    sweep = f", {row.sweep}" if row.sweep else ""
    return f"{names.get(row.declarer_id or 0, '?')} {contract}{called}: {shown}, {outcome}{sweep}"


def _deals_section(table: Table, deals: list[DealView], aliases: dict[str, str]) -> str:
    names = {pid: name for name, pid in table.ids.items()}
    american = table.evening.profile == "cavendish"
    rows, classes = [], []
    for deal in deals:
        note = ""
        if deal.voided:
            note = f"voided: {deal.void_reason or 'no reason given'}"
        elif deal.revision > 1:
            note = f"revision {deal.revision}: {deal.row.reason or ''}"
        cells = [str(deal.number), escape(deal.dealer), escape(_what(deal, names, aliases, american))]
        cells += [_signed(deal.payouts.get(player, 0)) for player in table.players]
        cells += [escape(deal.row.explanation), escape(note)]
        rows.append(cells)
        classes.append("voided" if deal.voided else "")
    headers = ["#", "dealer", "deal", *table.players, "explanation", "note"]
    numeric = [0, *range(3, 3 + len(table.players))]
    return _table(headers, rows, numeric, classes)


def _seats(table: Table) -> str:
    """The players in turn order, marking who dealt first."""
    first = table.evening.first_dealer_id
    rows = [[str(i + 1), escape(player) + (" (first dealer)" if table.ids[player] == first else "")]
            for i, player in enumerate(table.players)]
    return _table(["seat", "player"], rows, numeric=[0])


def _standings(table: Table, points: dict[str, int]) -> tuple[str, str]:
    """The standings table and the settlement (fewest payments) as HTML."""
    stake, currency = table.evening.stake_cents, table.evening.currency
    cents = money_cents(points, stake)
    order = sorted(table.players, key=lambda p: (-points[p], p.casefold()))
    standings = _table(["player", "game points", "money"],
                       [[escape(p), _signed(points[p]), escape(format_cents(cents[p], currency))] for p in order],
                       numeric=[1, 2])
    payments = fewest_payments(cents)
    if not payments:
        return standings, "<p>Nobody owes anybody anything.</p>"
    settlement = _table(["who pays", "to whom", "how much"],
                        [[escape(p.payer), escape(p.payee), escape(format_cents(p.cents, currency))] for p in payments],
                        numeric=[2])
    return standings, settlement


def _chart_figures(frames: Frames) -> str:
    """The evening's charts as embedded SVG images; a chart without data is left out."""
    parts = []
    for kind, caption in CHARTS:
        try:
            figure = charts.draw(kind, frames)
        except LedgerError:
            continue
        svg = base64.b64encode(charts.image_bytes(figure, "svg")).decode("ascii")
        image = f'<img src="data:image/svg+xml;base64,{svg}" alt="{escape(caption)}" width="1200" height="750">'
        parts.append(f"<figure>{image}<figcaption>{escape(caption)}</figcaption></figure>")
    return "".join(parts) or "<p>No charts: no deal stands yet.</p>"


def evening_report(engine: Engine, evening: int | None = None) -> str:
    """The whole report of one evening (default: the most recent) as an HTML document."""
    with Session(engine) as session:
        table = get_table(session, evening if evening is not None else latest_evening(session))
        deals = list_deals(session, table)
        points = totals(session, table)
        aliases = _aliases(session, table)
    frames = load_frames(engine, Filters(evening=table.number))
    e = table.evening
    title = f"Evening {table.number}"
    meta = [_local(e.started_at), e.place, table.profile.describe(),
            f"stake {format_cents(e.stake_cents, e.currency)} per game point",
            "closed" if e.closed_at else "open"]
    standings, settlement = _standings(table, points)
    sections = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{" · ".join(escape(m) for m in meta if m)}</p>',
        f'<p class="meta">{escape(e.note)}</p>' if e.note else "",
        f'<section id="seats"><h2>Seats, in turn order</h2>{_seats(table)}</section>',
        f'<section id="standings"><h2>Standings</h2>{standings}</section>',
        f'<section id="settlement"><h2>Settlement</h2>{settlement}</section>',
        f'<section id="deals"><h2>Deals</h2>{_deals_section(table, deals, aliases)}</section>',
        f'<section id="charts"><h2>Charts</h2>{_chart_figures(frames)}</section>',
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(s for s in sections if s) + "\n</body></html>\n"
    )
