"""Fonts for charts and cards: DejaVu Sans with a CJK fallback, glyph by glyph.

Chinese names (陳大文, 李小明) must draw as characters, not boxes.  matplotlib is
imported inside the functions only, so importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ledger.core.i18n import N_, _

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

# Fonts that draw Chinese names, in order of preference: Traditional first (Hong Kong,
# Taiwan), then Simplified, then whatever a system has.  The first one installed is a
# fallback behind DejaVu Sans, glyph by glyph, so Latin text keeps matplotlib's look.
CJK_FONTS = (
    "Noto Sans CJK TC", "Noto Sans CJK HK", "Noto Sans CJK SC", "Source Han Sans TC",
    "Source Han Sans HC", "Source Han Sans SC", "Source Han Sans", "PingFang TC", "PingFang HK",
    "PingFang SC", "Microsoft JhengHei", "Microsoft YaHei", "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Noto Sans CJK KR",
)
EMOJI_FONTS = ("Noto Emoji", "Symbola", "Segoe UI Symbol")  # outline fonts Agg can draw
BASE_FONT = "DejaVu Sans"
NO_CJK_FONT = N_("{what}: no installed font draws Chinese characters, so they show as boxes; "
                  "install one, e.g. apt-get install fonts-noto-cjk (Debian/Ubuntu), "
                  "dnf install google-noto-sans-cjk-fonts (Fedora) or Noto Sans CJK from fonts.google.com")
NO_GLYPH_FONT = N_("{what}: no installed font draws {chars}, shown as a box "
                   "(an outline emoji font such as Noto Emoji or Symbola would)")


def installed_fonts(wanted: Sequence[str]) -> list[str]:
    """The families of ``wanted`` that matplotlib's font manager finds, in that order."""
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return [name for name in wanted if name in have]


def font_family(simplified: bool = False) -> list[str]:
    """rcParams["font.family"] for charts: DejaVu Sans, then the first CJK font found
    (a Simplified one first when ``simplified``), then an emoji outline font if any."""
    order: tuple[str, ...] = CJK_FONTS
    if simplified:
        order = tuple(sorted(CJK_FONTS, key=lambda n: 0 if ("SC" in n or "YaHei" in n) else 1))
    return [BASE_FONT, *installed_fonts(order)[:1], *installed_fonts(EMOJI_FONTS)[:1]]


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF
            or 0xFF00 <= code <= 0xFFEF or 0x20000 <= code <= 0x3FFFF)


class Fonts:
    """Draws with :func:`font_family` and turns matplotlib's one-warning-per-missing-glyph
    into at most one line through ``notice``: how to get a CJK font, or which characters
    no installed font has."""

    def __init__(self, notice: Callable[[str], None] | None, simplified: bool | None = None,
                 what: str = "plot") -> None:
        from ledger.core.i18n import language

        self.notice = notice
        self.what = what
        # Simplified glyph shapes first when the interface is in Simplified Chinese.
        self.family = font_family(language() == "zh_Hans" if simplified is None else simplified)
        self.has_cjk = any(name in CJK_FONTS for name in self.family)
        self.missing: set[str] = set()

    def rc(self) -> dict[RcKeyType, Any]:
        return {"font.family": self.family, "svg.fonttype": "none",  # SVG keeps text as text
                "pdf.fonttype": 42, "svg.hashsalt": "bigtwo"}  # SVG ids: the same every time

    def __enter__(self) -> Fonts:
        import re
        import warnings

        import matplotlib

        self._rc = matplotlib.rc_context(self.rc())
        self._rc.__enter__()
        self._warnings = warnings.catch_warnings(record=True)
        self._caught = self._warnings.__enter__()
        warnings.simplefilter("always")
        self._glyph = re.compile(r"Glyph (\d+) .*missing from font")
        return self

    def __exit__(self, *exc: Any) -> None:
        import warnings

        self._warnings.__exit__(*exc)
        self._rc.__exit__(*exc)
        for w in self._caught:
            found = self._glyph.search(str(w.message))
            if found:
                self.missing.add(chr(int(found.group(1))))
            else:  # anything else is not ours to hide
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        if self.missing and exc[0] is None:
            self.say()

    def say(self) -> None:
        if not self.has_cjk and any(_is_cjk(ch) for ch in self.missing):
            line = _(NO_CJK_FONT).format(what=self.what)
        else:
            line = _(NO_GLYPH_FONT).format(what=self.what, chars=repr("".join(sorted(self.missing))))
        if self.notice is not None:
            self.notice(line)
        else:
            import sys

            print(line, file=sys.stderr)
