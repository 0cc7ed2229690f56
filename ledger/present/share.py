"""Pictures to share: the settlement as a PNG for the group chat, and the plots as
bytes (for the web page), both with a CJK font after the Latin one so that 陳大文
draws.  matplotlib is imported inside the functions only.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from ledger.book import stats
from ledger.book.reports import Settlement
from ledger.core.settlement import format_amount
from ledger.present.text import signed
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

# Latin first, then CJK: matplotlib falls back glyph by glyph along this list.
FONTS = ("DejaVu Sans", "Noto Sans CJK TC", "Noto Sans CJK SC", "Noto Sans CJK JP",
         "WenQuanYi Zen Hei", "Droid Sans Fallback")


def fonts() -> list[str]:
    """The fonts of :data:`FONTS` this machine has (naming a missing one only warns)."""
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return [f for f in FONTS if f in have] or ["DejaVu Sans"]


def plot_bytes(ledger: Ledger, scope: stats.Scope, kind: str, fmt: str) -> bytes:
    """:func:`ledger.present.plots.plot` as bytes of a ``.png`` or ``.svg``."""
    import matplotlib

    from ledger.present import plots

    with matplotlib.rc_context({"font.family": fonts()}), \
            tempfile.TemporaryDirectory(prefix="bigtwo-plot-") as folder:
        out = Path(folder) / f"plot.{fmt}"
        plots.plot(ledger, scope, kind, out)
        return out.read_bytes()


def settle_png(s: SessionRow, st: Settlement) -> bytes:
    """Title, each player's money, and the fewest payments, on one card."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    cur = s.currency or "PTS"
    title = s.name or f"Session {s.id}"
    sub = f"{s.started_at[:10]} · {s.deals} deals · rules {s.rules_name} · {s.stake} {cur} a point"
    nets = list(st.nets.items())
    pays = [(p.payer, p.payee, format_amount(p.amount)) for p in st.payments]
    rows = 4 + len(nets) + max(1, len(pays))
    line = 0.42  # inches a row
    fig = Figure(figsize=(6.4, 0.6 + rows * line), dpi=150)
    fig.patch.set_facecolor("#fffdf7")
    top = 1.0
    step = line / (0.6 + rows * line)

    with matplotlib.rc_context({"font.family": fonts()}):
        def text(x: float, y: float, value: str, **kw: object) -> None:
            # "$" would start matplotlib's math mode: names are shown as typed.
            fig.text(x, y, value.replace("$", r"\$"), va="top", **kw)  # type: ignore[arg-type]

        y = top - step * 0.6
        text(0.05, y, title, fontsize=17, weight="bold", color="#1b1b1b")
        y -= step * 1.1
        text(0.05, y, sub, fontsize=9.5, color="#5d5d5d")
        y -= step * 1.2
        text(0.05, y, f"Money ({cur})", fontsize=11, weight="bold", color="#b00020")
        for name, amount in nets:
            y -= step
            colour = "#0a7a2f" if amount > 0 else "#b00020" if amount < 0 else "#5d5d5d"
            text(0.08, y, name, fontsize=13, color="#1b1b1b")
            text(0.92, y, signed(amount), fontsize=13, weight="bold", color=colour, ha="right")
        y -= step * 1.2
        text(0.05, y, f"Fewest payments ({len(pays)})", fontsize=11, weight="bold", color="#b00020")
        if not pays:
            y -= step
            text(0.08, y, "All square.", fontsize=13, color="#1b1b1b")
        for payer, payee, due in pays:
            y -= step
            text(0.08, y, f"{payer}  →  {payee}", fontsize=13, color="#1b1b1b")
            text(0.92, y, f"{due} {cur}", fontsize=13, weight="bold", color="#1b1b1b", ha="right")
        out = io.BytesIO()
        fig.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()
