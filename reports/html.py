"""The evening report: one self-contained HTML file with seats, deals, standings, settlement and charts.

`evening_data` gathers what the page shows as plain values from what the ledger read; the rendering functions
below it only format them.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from ledger.fmt import format_cents, format_decimal, format_time
from ledger.frozen import freeze
from ledger.i18n import N_, _, language, ngettext
from ledger.reports import charts
from ledger.reports.frames import Frames
from ledger.rules.facts import DECLARER, MONTE
from ledger.rules.games import Game
from ledger.rules.profiles import Profile
from ledger.settlement import fewest_payments, money_cents
from ledger.summary import evening_voided, explanation, headline, why, why_voided
from ledger.values import DealView, EveningInfo, evening_games


@dataclass(frozen=True)
class DealLine:
    """One deal as the report shows it; `payouts` holds every seated player's game points."""

    number: int
    dealer: str
    summary: str
    called: str
    payouts: Mapping[str, int]
    explanation: str
    note: str
    voided: bool

    def __post_init__(self) -> None:
        freeze(self, "payouts")


@dataclass(frozen=True)
class EveningData:
    """Everything the report of one evening shows, as plain values (and the frames its charts are drawn from)."""

    number: int
    meta: tuple[str, ...]
    note: str | None
    players: tuple[str, ...]
    first_dealer: str
    deals: tuple[DealLine, ...]
    points: Mapping[str, int]
    stake_cents: int
    currency: str
    frames: Frames
    game_to: int | None = None
    games: tuple[Game, ...] = ()
    said: Mapping[str, str] = field(default_factory=dict)
    """Each chart with something to show, and what it shows in words."""
    voided: str | None = None
    """For a voided evening, the sentence that says it counts nowhere, with the reason given."""

    def __post_init__(self) -> None:
        freeze(self, "points", "said")


def evening_data(info: EveningInfo, deals: list[DealView], frames: Frames) -> EveningData:
    """What the report of an evening shows, from the evening, its deals and the frames of its charts."""
    meta = (
        format_time(info.started_at),
        info.place,
        info.rules,
        _("stake {amount} per game point").format(amount=format_cents(info.stake_cents, info.currency)),
        _("closed") if info.closed else _("open"),
    )
    return EveningData(
        number=info.number,
        meta=tuple(m for m in meta if m),
        note=info.note,
        players=info.players,
        first_dealer=info.first_dealer,
        points=info.points,
        stake_cents=info.stake_cents,
        currency=info.currency,
        deals=tuple(_line(deal, info.profile) for deal in deals),
        frames=frames,
        game_to=info.profile.game_to,
        games=evening_games(deals, info.profile.game_to),
        said=charts.summaries(frames),
        voided=evening_voided(info.number, info.void_reason) if info.voided else None,
    )


def _games_section(data: EveningData) -> str:
    """Each game: its deals, every player's game points in it and who won it."""
    rows = [
        [
            str(number),
            f"{game.first}-{game.last}",
            *[_signed(game.totals.get(p, 0)) for p in data.players],
            escape(", ".join(game.winners) if game.finished else _("going on")),
        ]
        for number, game in enumerate(data.games, start=1)
    ]
    headers = [_("game"), _("deals"), *data.players, _("won by")]
    return _table(headers, rows, numeric=[0, *range(2, 2 + len(data.players))], css="cards")


def _line(deal: DealView, profile: Profile) -> DealLine:
    """A stored deal as the report's plain values."""
    note = ""
    if deal.voided:
        note = _("voided: {reason}").format(reason=why_voided(deal) or _("no reason given"))
    elif deal.revision > 1:
        note = _("revision {revision}: {reason}").format(revision=deal.revision, reason=why(deal) or "")
    return DealLine(
        number=deal.number,
        dealer=deal.dealer,
        summary=headline(deal, profile),
        called=_called(deal),
        payouts=deal.payouts,
        explanation=explanation(deal),
        note=note,
        voided=deal.voided,
    )


def _called(deal: DealView) -> str:
    """`3D, held by Anna`, `3S, in the monte`, `3D, the declarer's own`, or empty when nothing was called."""
    if not deal.called and not deal.holder:
        return ""
    holder = {None: _("holder not recorded"), MONTE: _("in the monte"), DECLARER: _("the declarer's own")}.get(
        deal.holder, _("held by {holder}").format(holder=deal.holder)
    )
    return _("{card}, {holder}").format(card=deal.called or _("card not recorded"), holder=holder)


STYLE = """
:root { color-scheme: light dark; --bg: #fff; --fg: #222; --muted: #555; --line: #ddd; --card: #f7f5f0;
        --win: #fff4c2; --up: #2e7d32; --down: #c62828; --link: #1b5e20; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #151412; --fg: #f1ede6; --muted: #a9a297; --line: #3a3631; --card: #211f1c; --win: #4a3d0a;
          --up: #6fcf8e; --down: #ff8a80; --link: #6fcf8e; }
  figure img { filter: invert(0.9) hue-rotate(180deg); }
}
* { box-sizing: border-box; }
body { font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 64rem; padding: 0 1rem 1rem;
       color: var(--fg); background: var(--bg); overflow-wrap: break-word; }
a { color: var(--link); }
h1 { font-size: 1.6rem; margin: 1rem 0 .3rem; } h2 { font-size: 1.25rem; margin: 1.6rem 0 .5rem; }
.meta { color: var(--muted); margin: 0; }
.evening-voided { margin: .4rem 0 .6rem; padding: .5rem .75rem; border-left: 5px solid var(--down);
                  border-radius: .4rem; background: var(--card); font-size: 1.1rem; font-weight: 700; }
.winner-line { font-size: 1.1rem; margin: .6rem 0 0; }
.wide { overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; } td.num { white-space: nowrap; }
tr.winner td { background: var(--win); font-weight: 600; }
.badge { background: #f9a825; color: #222; border-radius: .6rem; padding: 0 .45rem; font-size: .8rem;
         font-weight: 600; margin-left: .4rem; white-space: nowrap; }
tr.voided td { color: var(--muted); text-decoration: line-through; }
tr.voided td.note { text-decoration: none; font-style: italic; }
.pos { color: var(--up); } .neg { color: var(--down); }
table.cards td.explanation { color: var(--muted); font-size: .92rem; }
figure { margin: 1rem 0; } figure img { width: 100%; height: auto; background: #fff; border-radius: .5rem; }
figcaption { color: var(--muted); }
figcaption b { color: var(--fg); display: block; }
.contents ul { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; margin: .8rem 0 0; padding: 0; }
.contents a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 .6rem; border-radius: .5rem;
              border: 1px solid var(--line); background: var(--card); text-decoration: none; font-weight: 600; }
.back { margin: 0; } .back a { display: inline-flex; align-items: center; min-height: 48px; padding: 0 .8rem 0 0;
                                font-weight: 600; }
@media (max-width: 44rem) {
  body { padding: 0 .6rem .6rem; overflow-wrap: anywhere; }
  th, td { padding: .3rem .3rem; }
  table.cards thead { display: none; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: auto; }
  table.cards tr { border: 1px solid var(--line); border-radius: .5rem; margin: 0 0 .7rem; padding: .3rem .5rem; }
  table.cards td { border: none; padding: .15rem 0; display: flex; justify-content: space-between; gap: 1rem;
                   text-align: right; }
  table.cards td::before { content: attr(data-label); flex: none; max-width: 60%; font-weight: 600;
                           color: var(--muted); text-align: left; }
  table.cards td:empty { display: none; }
  table.cards td.explanation, table.cards td.note { display: block; text-align: left; }
  table.cards td.explanation::before, table.cards td.note::before { content: none; }
}
"""
CHARTS = (
    ("running", N_("Running game points")),
    ("money", N_("Money, evening by evening")),
    ("contracts", N_("Contracts and the declarer's win rate")),
    ("thirds", N_("Declarer side's thirds")),
    ("pairings", N_("Defending together")),
)


def _signed(points: int) -> str:
    css = "pos" if points > 0 else "neg" if points < 0 else ""
    return f'<span class="{css}">{format_decimal(points, 0, signed=True)}</span>' if points else "0"


def _table(
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    numeric: Sequence[int] = (),
    row_classes: Sequence[str] = (),
    cell_classes: Sequence[str] = (),
    css: str = "",
) -> str:
    """An HTML table; headers are plain text (escaped here, and repeated on each cell as its label for narrow
    screens), cells are HTML already escaped by the caller."""

    def attributes(i: int, header: bool) -> str:
        classes = " ".join(c for c in ("num" if i in numeric else "", cell_classes[i] if cell_classes else "") if c)
        label = "" if header else f' data-label="{escape(headers[i])}"'
        return (f' class="{classes}"' if classes else "") + label

    head = "".join(f"<th{attributes(i, True)}>{escape(h)}</th>" for i, h in enumerate(headers))
    body = []
    for n, row in enumerate(rows):
        css_row = f' class="{row_classes[n]}"' if row_classes and row_classes[n] else ""
        cells = "".join(f"<td{attributes(i, False)}>{cell}</td>" for i, cell in enumerate(row))
        body.append(f"<tr{css_row}>{cells}</tr>")
    table_class = f' class="{css}"' if css else ""
    table = f"<table{table_class}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    return f'<div class="wide">{table}</div>'  # a table wider than the page scrolls, its words whole


def _winners(points: Mapping[str, int]) -> list[str]:
    """The players with the most game points, when someone is ahead at all."""
    best = max(points.values(), default=0)
    return [player for player, total in points.items() if total == best] if best > 0 else []


def _deals_section(data: EveningData) -> str:
    """Every deal, voided ones struck through; on a narrow screen each deal becomes a card."""
    rows = [
        [
            str(d.number),
            escape(d.dealer),
            escape(d.summary),
            escape(d.called),
            *[_signed(d.payouts[p]) if p in d.payouts else "" for p in data.players],
            escape(d.explanation),
            escape(d.note),
        ]
        for d in data.deals
    ]
    headers = ["#", _("dealer"), _("deal"), _("called card"), *data.players, _("explanation"), _("note")]
    players = range(4, 4 + len(data.players))
    cells = ["", "", "", "", *[""] * len(data.players), "explanation", "note"]  # CSS classes, not text
    voided = ["voided" if d.voided else "" for d in data.deals]
    return _table(headers, rows, [0, *players], voided, cells, "deals cards")


def _seats(data: EveningData) -> str:
    """The players in turn order, marking who dealt first."""
    rows = [
        [
            str(i + 1),
            escape(_("{player} (first dealer)").format(player=player) if player == data.first_dealer else player),
        ]
        for i, player in enumerate(data.players)
    ]
    return _table([_("seat"), _("player")], rows, numeric=[0])


def _standings(data: EveningData) -> str:
    """The standings, best first, the evening's winner highlighted (a voided evening has none)."""
    cents = money_cents(data.points, data.stake_cents)
    order = sorted(data.players, key=lambda p: (-data.points[p], p.casefold()))
    winners = [] if data.voided else _winners(data.points)
    winner = _("winner")
    badge = f'<span class="badge">{escape(winner)}</span>'
    rows = [
        [
            escape(p) + (badge if p in winners else ""),
            _signed(data.points[p]),
            escape(format_cents(cents[p], data.currency, signed=True)),
        ]
        for p in order
    ]
    return _table(
        [_("player"), _("game points"), _("money")], rows, [1, 2], ["winner" if p in winners else "" for p in order]
    )


def _settlement(data: EveningData) -> str:
    """The fewest payments that settle the evening."""
    payments = fewest_payments(money_cents(data.points, data.stake_cents))
    if not payments:
        nobody = _("Nobody owes anything.")
        return f"<p>{escape(nobody)}</p>"
    rows = [[escape(p.payer), escape(p.payee), escape(format_cents(p.cents, data.currency))] for p in payments]
    return _table([_("who pays"), _("to whom"), _("how much")], rows, numeric=[2])


def _winner_line(data: EveningData) -> str:
    winners = _winners(data.points)
    if not winners:
        return ""
    label = ngettext("Winner", "Winners", len(winners))
    best = data.points[winners[0]]
    points = ngettext("({points} game point)", "({points} game points)", best).format(
        points=format_decimal(best, 0, signed=True)
    )
    return f'<p class="winner-line">{label}: <strong>{escape(", ".join(winners))}</strong> {escape(points)}</p>'


def _chart_figures(data: EveningData, address: str | None) -> str:
    """Every chart with something to show, captioned with what it shows in words: loaded from `address` (with
    `{kind}` in it) when given, else drawn into the page as SVG."""
    parts = []
    width, height = charts.PIXELS
    for kind, marked in CHARTS:
        if kind not in data.said:
            continue
        caption, said = escape(_(marked)), escape(data.said[kind])
        if address is None:
            svg = base64.b64encode(charts.chart_image(kind, data.frames, "svg")).decode("ascii")
            source = f"data:image/svg+xml;base64,{svg}"
        else:
            source = escape(address.format(kind=kind))
        lazy = "" if address is None else ' loading="lazy"'
        image = f'<img src="{source}" alt="{caption}: {said}" width="{width}" height="{height}"{lazy}>'
        parts.append(f'<figure id="chart-{kind}"><figcaption><b>{caption}</b>{said}</figcaption>{image}</figure>')
    none = _("No charts: no deal stands yet.")
    return "".join(parts) or f"<p>{escape(none)}</p>"


def _section(anchor: str, heading: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{escape(heading)}</h2>{body}</section>'


def _contents(sections: Sequence[tuple[str, str, str]]) -> str:
    """A link to each section, each a tap on a phone, where the deals run long."""
    links = "".join(f'<li><a href="#{anchor}">{escape(heading)}</a></li>' for anchor, heading, _body in sections)
    label = _("Contents")
    return f'<nav class="contents" aria-label="{escape(label)}"><ul>{links}</ul></nav>'


def render(data: EveningData, back: str | None = None, charts: str | None = None) -> str:
    """The report page of the evening's values; `back`, the address of the page it was opened from; `charts`, the
    address its chart images load from (with `{kind}` in it), else they are drawn into the page."""
    title = _("Evening {number}").format(number=data.number)
    going_back = _("Back to the evening")
    games = _("Games to {points} points").format(points=data.game_to)
    parts = [
        ("seats", _("Seats, in turn order"), _seats(data)),
        ("standings", _("Standings"), _standings(data)),
        *([("games", games, _games_section(data))] if data.games else []),
        *([] if data.voided else [("settlement", _("Settlement"), _settlement(data))]),  # a voided one settles nothing
        ("charts", _("Charts"), _chart_figures(data, charts)),  # before the deals, a screen each on a phone
        ("deals", _("Deals"), _deals_section(data)),
    ]
    sections = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="evening-voided" role="note">{escape(data.voided)}</p>' if data.voided else "",
        f'<p class="meta">{" · ".join(escape(m) for m in data.meta)}</p>',
        f'<p class="meta">{escape(data.note)}</p>' if data.note else "",
        "" if data.voided else _winner_line(data),
        _contents(parts[1:]),  # the seats follow at once
        *(_section(*part) for part in parts),
    ]
    way_back = _("Back")
    header = (
        f'<header><nav aria-label="{escape(way_back)}"><p class="back"><a href="{escape(back)}">← '
        f"{escape(going_back)}</a></p></nav></header>\n"
        if back
        else ""
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{language()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n{header}<main>\n"
        + "\n".join(s for s in sections if s)
        + "\n</main>\n</body></html>\n"
    )
