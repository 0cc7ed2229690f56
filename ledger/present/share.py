"""A settlement to share in a group chat: plain text that survives a proportional
font (no column alignment, one fact per line), a Markdown table, or a PNG card
drawn with matplotlib (CJK names through the chart fonts of ledger.present.fonts).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ledger.book.clock import local_day
from ledger.book.reports import Settlement
from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.settlement import format_amount
from ledger.present.text import signed

FORMATS = ("table", "text", "markdown", "png")


def title(st: Settlement) -> str:
    return _("Big Two settlement — {what}").format(what=subtitle(st))


def subtitle(st: Settlement) -> str:
    if st.working and len(st.working) == 1:
        s = st.working[0].session
        where = _("session {id}{name}, {date}").format(
            id=s.id, name=f" {s.name}" if s.name else "", date=local_day(s.started_at))
    else:
        where = _("{count} sessions").format(count=st.session_count)
    coin = _(", in coins of {coin}").format(coin=format_amount(st.coin)) if st.coin is not None else ""
    return _("{where} ({currency}{coin})").format(where=where, currency=st.currency, coin=coin)


def _rounding_lines(st: Settlement) -> list[str]:
    extra = {k: v for k, v in st.remainder().items() if v}
    if not extra:
        return []
    parts = ", ".join(f"{k} {signed(v)}" for k, v in extra.items())
    return [_("rounding to the coin: {changes}").format(changes=parts)]


def chat_text(st: Settlement) -> str:
    """One fact a line, no padding: reads the same in any font."""
    lines = [title(st), "", _("net:")]
    lines += [f"• {name} {signed(v)} {st.currency}" for name, v in st.nets.items()]
    lines += _rounding_lines(st)
    lines += ["", _("pay ({count}):").format(count=len(st.payments)) if st.payments else _("all square")]
    lines += [f"• {p.payer} → {p.payee}: {format_amount(p.amount)} {st.currency}" for p in st.payments]
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def markdown(st: Settlement) -> str:
    """Markdown tables (the pipe kind chat apps and GitHub render)."""
    lines = [f"**{_md(title(st))}**", "",
             f"| {_('player')} | {_('net {currency}').format(currency=st.currency)} |", "|:--|--:|"]
    lines += [f"| {_md(name)} | {signed(v)} |" for name, v in st.nets.items()]
    lines += ["", *(_md(x) for x in _rounding_lines(st))] if _rounding_lines(st) else []
    if st.payments:
        lines += ["", f"| {_('pays')} | {_('to')} | {st.currency} |", "|:--|:--|--:|"]
        lines += [f"| {_md(p.payer)} | {_md(p.payee)} | {format_amount(p.amount)} |"
                  for p in st.payments]
    else:
        lines += ["", _("all square")]
    return "\n".join(lines)


def default_card_path(st: Settlement, folder: Path | None = None) -> Path:
    where = f"session-{st.working[0].session.id}" if st.working and len(st.working) == 1 else "all"
    return (folder or Path.cwd()) / f"bigtwo-settle-{where}.png"


def card(st: Settlement, out: Path, notice: Callable[[str], None] | None = None) -> Path:
    """A PNG card: the title, each player's net, and who pays whom."""
    from ledger.present import fonts, plots

    if out.suffix.lower() != ".png":
        raise InputError(_("cannot write a settlement card to {path}: give a file ending in .png").format(
            path=out))
    if not out.parent.is_dir():
        raise InputError(_("cannot write a settlement card to {path}: the folder {folder} does not exist")
                         .format(path=out, folder=out.parent))
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows: list[tuple[str, str, str]] = [(name, signed(v), "#1a7f37" if v > 0 else "#b42318" if v < 0
                                         else "#444444") for name, v in st.nets.items()]
    pays = [(f"{p.payer}  →  {p.payee}", format_amount(p.amount)) for p in st.payments]
    extra = _rounding_lines(st)
    lines = 4 + len(rows) + 2 + max(len(pays), 1) + len(extra)
    height = 0.42 * lines + 0.4
    with fonts.Fonts(notice, what="settle"):
        figure = Figure(figsize=(6, height), dpi=150)
        figure.patch.set_facecolor("#fbfaf5")
        step = 1 / lines
        y = 1 - step

        def put(x: float, text: str, **kw: object) -> None:
            figure.text(x, y, text, va="center", **kw)  # type: ignore[arg-type]

        put(0.05, _("Big Two settlement"), fontsize=14, weight="bold")
        y -= step
        put(0.05, subtitle(st), fontsize=10, color="#444444")
        y -= 1.5 * step
        put(0.05, _("net ({currency})").format(currency=st.currency), fontsize=10, color="#666666")
        y -= step
        for name, amount, colour in rows:
            put(0.08, name, fontsize=13)
            put(0.92, amount, fontsize=13, ha="right", color=colour, family="DejaVu Sans Mono")
            y -= step
        y -= 0.5 * step
        put(0.05, _("pay ({count})").format(count=len(pays)) if pays else _("all square"), fontsize=10,
            color="#666666")
        y -= step
        for who, amount in pays:
            put(0.08, who, fontsize=13)
            put(0.92, f"{amount} {st.currency}", fontsize=13, ha="right", family="DejaVu Sans Mono")
            y -= step
        for line in extra:
            put(0.05, line, fontsize=8, color="#666666")
            y -= step
        plots.save(figure, out, ".png")
    return out
