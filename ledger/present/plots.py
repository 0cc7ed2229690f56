"""Charts of the ledger, written to PNG, SVG or PDF with matplotlib (Agg).

matplotlib is imported inside :func:`plot` only, so no other command pays for
it.  Each player keeps one look in every chart (a colour, a marker and a line style,
:mod:`ledger.core.palette`, chosen by the order players first appeared in the
ledger: 24 distinct looks); dates are written in the interface's language; fonts come from
:mod:`ledger.present.fonts`.  Long histories are summed per day or per
period and thinned to at most MAX_POINTS points a line, so a decade of play
draws as fast as an evening.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.book import digest, stats
from ledger.book.money import session_nets
from ledger.book.scope import Scope, day_of
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _, ngettext
from ledger.core.palette import Style, style
from ledger.core.scoring import teams_of
from ledger.present.chart_values import (
    MAX_GROUPS,
    MAX_POINTS,
    date_formats,
    fixed,
    group_results,
    thin,
    weighted_box,
)
from ledger.present.fonts import Fonts
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

KINDS = {
    "net": "cumulative net points over the deals of one session",
    "timeline": "cumulative money per player over the dates of the sessions",
    "sessions": "each session's money per player as grouped bars (per period when many)",
    "distribution": "cards left and penalty per deal, per player",
    "rates": "win rate and fry rate per player",
    "rating": "skill rating per player with its uncertainty",
}
FORMATS = (".png", ".svg", ".pdf")
SMALL_MULTIPLES = 4  # more players: cards left as one small panel each
MARKS_PER_LINE = 12  # a long line shows its marker this many times, so its look stays told
# Dates and tools leave no timestamp in the file: the same ledger draws the same bytes.
_METADATA = {".png": {"Software": None}, ".svg": {"Date": None}, ".pdf": {"CreationDate": None}}


def colour(player_id: int) -> str:
    return style(player_id).colour


def default_kind(scope: Scope) -> str:
    return "net" if len(scope.sessions) == 1 else "timeline"


def default_path(kind: str, scope: Scope, folder: Path | None = None) -> Path:
    """``bigtwo-net-session-3.png``, ``bigtwo-timeline-all.png``, ... in the current folder."""
    if len(scope.sessions) == 1:
        where = f"session-{scope.sessions[0].id}"
    elif scope.everything:
        where = "all"
    else:
        where = f"{day_of(scope.sessions[0])}-to-{day_of(scope.sessions[-1])}"
    return (folder or Path.cwd()) / f"bigtwo-{kind}-{where}.png"


def check_out(path: Path) -> Path:
    if path.suffix.lower() not in FORMATS:
        raise InputError(_("cannot write a plot to {path}: give a file ending in {formats}").format(
            path=path, formats=", ".join(FORMATS)))
    if not path.parent.is_dir():
        raise InputError(_("cannot write a plot to {path}: the folder {folder} does not exist").format(
            path=path, folder=path.parent))
    return path


# --- the charts ----------------------------------------------------------------


@dataclass
class Canvas:
    """What a chart function gets: the open ledger, the scope, and a blank figure."""

    ledger: Ledger
    scope: Scope
    figure: Figure
    ids: dict[str, int]
    notice: Callable[[str], None] | None = None

    def colour(self, name: str) -> str:
        return self.style(name).colour

    def style(self, name: str) -> Style:
        return style(self.ids.get(name.split("+")[0], 1))

    def line(self, name: str, count: int) -> dict[str, Any]:
        """matplotlib keywords for ``name``'s line of ``count`` points: its colour, its
        marker (shown at most MARKS_PER_LINE times) and its line style."""
        look = self.style(name)
        return {"color": look.colour, "marker": look.marker, "ls": "--" if look.dashed else "-",
                "markevery": max(1, count // MARKS_PER_LINE)}

    def bar(self, name: str) -> dict[str, Any]:
        """matplotlib keywords for ``name``'s bars: its colour, hatched for the second twelve."""
        look = self.style(name)
        return {"color": look.colour, "hatch": "//" if look.dashed else None,
                "edgecolor": "white" if look.dashed else None}

    def unit(self) -> tuple[str, bool]:
        """The money axis label, and whether money can be shown (one currency)."""
        currencies = self.scope.currencies
        if len(currencies) == 1:
            return _("money ({currency})").format(currency=currencies[0]), True
        return _("net points (the sessions use different currencies)"), False


def _finish(ax: Axes, title: str, xlabel: str, ylabel: str, legend: bool = True) -> None:
    ax.set_title(title, fontsize=13, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if not legend or not handles:
        return
    if ax.child_axes:  # a money axis on the right: the legend goes below, under the labels
        ax.figure.legend(handles, labels, frameon=False, fontsize=9, loc="outside lower center",
                         ncols=min(len(labels), 6))
    else:  # beside the chart: it never hides a line
        ax.legend(frameon=False, fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1))


def _net(c: Canvas) -> None:
    if len(c.scope.sessions) != 1:
        raise InputError("--kind net draws one session; give --session ID "
                         "(or use --kind timeline for several)")
    s = c.scope.sessions[0]
    last = c.ledger.journal.next_deal_no(s.id) - 1
    bucket = max(1, math.ceil(last / MAX_POINTS))
    lines: dict[str, list[tuple[int, int]]] = {}
    members = {m: "+".join(t) for t in teams_of(s.seats) for m in t} if s.teams else {}
    for deal_no, name, net in c.ledger.totals.deal_nets(s.id, bucket):
        label = members.get(name, name)
        if s.teams and name != label.split("+")[0]:
            continue  # both partners carry the team's net: draw it once
        line = lines.setdefault(label, [(0, 0)])
        line.append((deal_no, line[-1][1] + net))
    ax = c.figure.subplots()
    for label, points in sorted(lines.items(), key=lambda kv: -kv[1][-1][1]):
        xs, ys = zip(*points, strict=True)
        ax.plot(xs, ys, lw=2, ms=4, label=f"{label} ({ys[-1]:+d})", **c.line(label, len(xs)))
    ax.axhline(0, color="black", lw=0.8)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # deals are whole numbers
    stake = float(Decimal(s.stake) / (2 if s.teams else 1))
    if stake != 1 or (s.currency or "PTS") != "PTS":
        def to_money(points: Any) -> Any:  # numbers or numpy arrays, as matplotlib gives
            return points * stake

        def to_points(money: Any) -> Any:
            return money / stake

        side = ax.secondary_yaxis("right", functions=(to_money, to_points))
        side.set_ylabel((_("money ({currency}, stake {stake}, half each partner)") if s.teams
                         else _("money ({currency}, stake {stake})")).format(
                             currency=s.currency or "PTS", stake=s.stake))
    every = _(" (summed every {n} deals)").format(n=bucket) if bucket > 1 else ""
    name = f' "{s.name}"' if s.name else ""
    _finish(ax, _("Session {id}{name}, {date}: cumulative net points").format(
                id=s.id, name=name, date=day_of(s)),
            _("deal") + every, _("net points"))


def _timeline(c: Canvas) -> None:
    label, money = c.unit()
    by_day: dict[str, dict[str, float]] = {}
    for session, values in stats.chart_values(c.ledger, c.scope, money):
        day = by_day.setdefault(day_of(session), {})
        for name, v in values.items():
            day[name] = day.get(name, 0.0) + v
    running: dict[str, float] = {}
    lines: dict[str, list[tuple[date, float]]] = {}
    for day_text in sorted(by_day):
        when = date.fromisoformat(day_text)
        for name, v in by_day[day_text].items():
            running[name] = running.get(name, 0.0) + v
            lines.setdefault(name, []).append((when, running[name]))
    ax = c.figure.subplots()
    whole = not money or c.scope.currencies == ["PTS"]  # points: whole numbers
    for name, points in sorted(lines.items(), key=lambda kv: -kv[1][-1][1]):
        points = thin(points)
        xs, ys = zip(*points, strict=True)
        end = f"{round(ys[-1]):+,d}" if whole else f"{ys[-1]:+,.2f}"
        ax.plot(xs, ys, lw=1.8, drawstyle="steps-post", ms=4, label=f"{name} ({end})",
                **c.line(name, len(xs)))
    if whole:
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.axhline(0, color="black", lw=0.8)
    _date_axis(ax, sorted(by_day))
    title = (_("Cumulative money per player, {scope}") if money
             else _("Cumulative net points per player, {scope}"))
    _finish(ax, title.format(scope=c.scope.describe()), _("date"), label)


def _date_axis(ax: Axes, days: Sequence[str]) -> None:
    import matplotlib.dates as mdates

    locator = mdates.AutoDateLocator()  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(  # type: ignore[no-untyped-call]
        locator, **date_formats()))
    if days and days[0] == days[-1]:
        one = date.fromisoformat(days[0])
        ax.set_xlim(mdates.date2num(one - timedelta(days=1)),  # type: ignore[no-untyped-call]
                    mdates.date2num(one + timedelta(days=1)))  # type: ignore[no-untyped-call]


def _sessions(c: Canvas) -> None:
    label, money = c.unit()
    period, groups = group_results(stats.chart_values(c.ledger, c.scope, money))
    keys = list(groups)[-MAX_GROUPS:]
    names = sorted({n for k in keys for n in groups[k]}, key=lambda n: (c.ids.get(n, 0), n))
    ax = c.figure.subplots()
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        xs = [g + (i - (len(names) - 1) / 2) * width for g in range(len(keys))]
        ys = [groups[k].get(name, 0.0) for k in keys]
        ax.bar(xs, ys, width=width, label=name, **c.bar(name))
    few = len(keys) <= 12
    labels = [k.replace(" ", "\n", 1) if few and not period else k for k in keys]
    ax.set_xticks(range(len(keys)), labels, fontsize=8, rotation=0 if few else 45,
                  ha="center" if few else "right", rotation_mode="anchor")
    ax.axhline(0, color="black", lw=0.8)
    periods = {"week": N_("week"), "month": N_("month"), "quarter": N_("quarter"), "year": N_("year")}
    per = _("per {period}").format(period=_(periods[period])) if period else _("per session")
    shown = _(" (the last {n})").format(n=len(keys)) if len(groups) > len(keys) else ""
    _finish(ax, _("Results {per}{shown}, {scope}").format(per=per, shown=shown,
                                                           scope=c.scope.describe()),
            _(periods[period]) if period else _("session (id and date)"), label)


def _cards_left(c: Canvas, ax: Axes, cards: dict[str, Counter[int]]) -> None:
    """Share of each player's deals lost with 1, 2, ... cards, as grouped bars (few players)."""
    top = max((k for counts in cards.values() for k in counts), default=0)
    if top == 0:
        ax.text(0.5, 0.5, "no cards-left counts (places mode)", ha="center",
                transform=ax.transAxes)
        return
    xs = list(range(1, top + 1))
    width = 0.8 / max(len(cards), 1)
    for i, (name, counts) in enumerate(cards.items()):
        total = sum(counts.values())
        ys = [100 * counts.get(x, 0) / total for x in xs]
        ax.bar([x + (i - (len(cards) - 1) / 2) * width for x in xs], ys, width=width,
               label=name, **c.bar(name))
    ax.set_xticks(xs)


def _panels(c: Canvas, where: Any, cards: dict[str, Counter[int]]) -> None:
    """Cards left when losing, one small panel per player on shared axes."""
    cols = min(4, math.ceil(len(cards) / 2))
    rows = math.ceil(len(cards) / cols)
    grid = where.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    top = max((k for counts in cards.values() for k in counts), default=0) or 13
    xs = list(range(1, top + 1))
    for ax, (name, counts) in zip(grid.flat, cards.items(), strict=False):
        total = sum(counts.values()) or 1
        ax.bar(xs, [100 * counts.get(x, 0) / total for x in xs], width=0.8, **c.bar(name))
        ax.set_title(name, fontsize=9, loc="left")
        ax.grid(True, alpha=0.3)
        ax.tick_params(labelsize=7)
    from matplotlib.ticker import MaxNLocator

    grid.flat[0].xaxis.set_major_locator(MaxNLocator(integer=True))  # shared: every panel
    for ax in grid.flat[len(cards):]:
        ax.remove()
    where.suptitle(_("Cards left when losing"), fontsize=11, x=0.02, ha="left")
    where.supxlabel(_("cards left"), fontsize=10)
    where.supylabel(_("% of the player's deals"), fontsize=10)


def _distribution(c: Canvas) -> None:
    names = c.ledger.journal.shown_names()
    wanted = {n for s in c.scope.sessions for n in s.seats}
    cards: dict[str, Counter[int]] = {}
    penalty: dict[str, Counter[int]] = {}
    for pid, (by_cards, by_penalty) in digest.distributions(c.ledger, c.scope.ids).items():
        if names.get(pid) in wanted:  # two ids of one player (merged) add up
            name = names[pid]
            cards[name] = cards.get(name, Counter()) + by_cards
            penalty[name] = penalty.get(name, Counter()) + by_penalty
    order = sorted(cards, key=lambda n: (c.ids.get(n, 0), n))
    if len(order) > SMALL_MULTIPLES:  # one small panel each: many lines on one axes tangle
        cells, side = c.figure.subfigures(1, 2, width_ratios=[3, 2], squeeze=False)[0]
        right = side.subplots()
        _panels(c, cells, {n: cards[n] for n in order})
    else:
        left, right = c.figure.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        _cards_left(c, left, {n: cards[n] for n in order})
        _finish(left, _("Cards left when losing"), _("cards left"), _("% of the player's deals"))
    boxes = [(n, weighted_box(penalty[n])) for n in order if penalty[n]]
    if boxes:
        stats_list = [{**b, "label": n} for n, b in boxes]
        art = right.bxp(stats_list, showmeans=True, showfliers=False, patch_artist=True,
                        medianprops={"color": "black"},
                        meanprops={"marker": "D", "markerfacecolor": "white",
                                   "markeredgecolor": "black", "markersize": 5})
        for patch, (name, _b) in zip(art["boxes"], boxes, strict=True):
            patch.set_facecolor(c.colour(name))
            patch.set_alpha(0.75)
        right.tick_params(axis="x", labelrotation=45 if len(boxes) > 6 else 0)
    _finish(right, _("Penalty per deal"), _("player (box: middle half; diamond: mean)"),
            _("penalty points"), legend=False)
    c.figure.suptitle(_("Distributions, {scope}").format(scope=c.scope.describe()), fontsize=13,
                      x=0.01, ha="left")


def _player_totals(c: Canvas) -> dict[str, list[int]]:
    totals: dict[str, list[int]] = {}
    for sid_rows in session_nets(c.ledger, c.scope).values():
        for name, sums in sid_rows.items():
            line = totals.setdefault(name, [0] * 5)
            for i, v in enumerate(sums):
                line[i] += v
    return {n: t for n, t in totals.items() if t[0] > 0}


def _rates(c: Canvas) -> None:
    totals = _player_totals(c)
    names = sorted(totals, key=lambda n: (c.ids.get(n, 0), n))
    ax = c.figure.subplots()
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        deals, wins, fried = totals[name][:3]
        rates = [100 * wins / deals, 100 * fried / deals]
        xs = [g + (i - (len(names) - 1) / 2) * width for g in range(2)]
        bars = ax.bar(xs, rates, width=width, **c.bar(name),
                      label=ngettext("{name} ({deals} deal)", "{name} ({deals} deals)", deals).format(
                          name=name, deals=deals))
        if len(names) <= 8:
            ax.bar_label(bars, fmt="%.0f%%", fontsize=8, padding=2)
    ax.set_xticks([0, 1], [_("win rate (deals won)"), _("fry rate (deals fried)")])
    ax.yaxis.set_major_formatter("{x:.0f}%")
    _finish(ax, _("Win and fry rates, {scope}").format(scope=c.scope.describe()), "",
            _("% of the player's deals"))


def _rating(c: Canvas) -> None:
    """Best at the top, in the order of ``bigtwo stats`` (mu - 3 sigma); dot mu, bar mu ± sigma."""
    from ledger.book import ratings

    wanted = {n for s in c.scope.sessions for n in s.seats}
    names = c.ledger.journal.shown_names()
    by_name = {names[pid]: r for pid, r in ratings.current(c.ledger, c.notice).items()
               if pid in names}  # as bigtwo stats: one rating per shown name
    rated = ratings.ranked((n, r) for n, r in by_name.items() if n in wanted)
    c.figure.set_size_inches(11, max(5.5, 1.8 + 0.42 * len(rated)))  # a row of room each
    ax = c.figure.subplots()
    top = len(rated) - 1
    right = max((r.mu + r.sigma for _n, r in rated), default=25.0)
    left = min((min(r.mu - r.sigma, r.conservative) for _n, r in rated), default=25.0)
    for i, (name, r) in enumerate(rated):
        y = top - i
        look = c.style(name)
        ax.errorbar(r.mu, y, xerr=r.sigma, fmt=look.marker, color=look.colour, ms=8, capsize=4, lw=2)
        ax.plot(r.conservative, y, marker="D", ms=6, color=look.colour, mfc="white", mew=1.5)
        # Each row's numbers in one column right of every bar: they can never overlap.
        ax.annotate(_("μ {mu}, σ {sigma}; μ − 3σ {low}").format(
                        mu=fixed(r.mu), sigma=fixed(r.sigma), low=fixed(r.conservative)),
                    (right, y), xytext=(10, 0), textcoords="offset points", ha="left",
                    va="center", fontsize=8)
    span = max(right - left, 1.0)
    ax.set_xlim(left - 0.05 * span, right + 0.9 * span)  # room for the column of numbers
    ax.axvline(25, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(rated)), [n for n, _r in reversed(rated)])
    ax.set_ylim(-0.7, len(rated) - 0.3)
    _finish(ax, _("Skill rating (openskill Plackett-Luce, every deal in the ledger)"),
            _("dot: μ (mu), bar: μ ± σ (sigma), diamond: μ − 3σ, the order of bigtwo stats; "
              "dashed: the start, 25"), "", legend=False)


CHARTS: dict[str, Callable[[Canvas], None]] = {
    "net": _net, "timeline": _timeline, "sessions": _sessions,
    "distribution": _distribution, "rates": _rates, "rating": _rating,
}


def preload() -> None:
    """Import matplotlib (with the file-only Agg backend) ahead of the first chart: the
    server's drawing process does it at start."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot


def plot(ledger: Ledger, scope: Scope, kind: str, out: Path,
         notice: Callable[[str], None] | None = None) -> Path:
    """Draw chart ``kind`` of ``scope`` into ``out`` (.png, .svg or .pdf).

    ``notice`` hears about a long one-time catch-up of the rating cache.
    """
    if kind not in CHARTS:
        raise InputError(_("unknown plot kind {kind!r}; choose from {kinds}").format(
            kind=kind, kinds=", ".join(KINDS)))
    check_out(out)
    with Fonts(notice):
        save(draw(ledger, scope, kind, notice), out, out.suffix.lower())
    return out


def draw(ledger: Ledger, scope: Scope, kind: str,
         notice: Callable[[str], None] | None = None) -> Figure:
    """The figure of chart ``kind``, not yet written anywhere (tests measure its artists)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(11, 5.5), dpi=110, layout="constrained")
    CHARTS[kind](Canvas(ledger, scope, figure, ledger.journal.shown_ids(), notice))
    return figure


def save(figure: Figure, out: Path, suffix: str) -> None:
    try:
        figure.savefig(out, format=suffix[1:], metadata=_METADATA[suffix])
    except OSError as exc:
        raise InputError(_("cannot write a plot to {path}: {reason}").format(
            path=out, reason=exc.strerror or exc)) from None
