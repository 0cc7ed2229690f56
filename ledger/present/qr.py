"""QR codes drawn as text: two modules a character row (half blocks), for the links
``bigtwo serve`` prints and the payment codes of ``bigtwo settle --qr``; and as an SVG
image, for the offline app's address (``bigtwo app build --url``); as the module rows a
phone paints, for a payment's code on the settle screen (:func:`pay_code_rows`); and as a
PNG image for the chat bot to send a payer.

segno is imported here only, and only inside the functions that use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ledger.book.views.settlement import SettleView

GLYPH = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
"""Dark modules are the drawn part of the character: the code reads as printed on a
terminal showing light characters on dark, or anywhere with :func:`on_white`."""


def qr_lines(text: str, border: int = 2) -> list[str]:
    """A QR code of ``text`` (error correction M) as text rows, ``border`` modules of
    quiet zone around it."""
    import segno

    rows = [list(r) for r in segno.make(text, error="m").matrix_iter(scale=1, border=border)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    return ["".join(GLYPH[(bool(a), bool(b))] for a, b in zip(top, bottom, strict=True))
            for top, bottom in zip(rows[::2], rows[1::2], strict=True)]


def qr_svg(text: str, scale: int = 4, border: int = 2) -> bytes:
    """A QR code of ``text`` (error correction M) as an SVG image, black on white, for a
    page to show (the offline app's own address, ``bigtwo app build --url``)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=scale, border=border, xmldecl=False,
                                     dark="#000", light="#fff")
    return out.getvalue()


def qr_png(text: str, scale: int = 8, border: int = 4) -> bytes:
    """A QR code of ``text`` (error correction M) as a PNG image, black on white, for a
    chat to show (a payment's code, sent by the chat bot to its payer)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=scale, border=border, dark="#000", light="#fff")
    return out.getvalue()


def on_white(lines: list[str]) -> list[str]:
    """The rows in black on white (ANSI colours), whatever the terminal's own colours."""
    return [f"\x1b[30;47m{x}\x1b[0m" for x in lines]


def pay_codes_text(view: SettleView, colour: bool = False, width: int = 80) -> str:
    """``settle --qr``: each of the fewest payments still outstanding, with its payment
    code drawn (a ``text`` receive code as given, drawn too, the amount beside it), or
    why it has none.  An EMVCo payload's code is at most 61 columns wide (QR version
    10 at most) and a receive code's at most 73 (:data:`ledger.core.paycode.TEXT_MAX`
    bytes), so each fits a terminal of 80; in a narrower ``width`` (a wrapped code
    cannot be scanned) a code that does not fit is not drawn, and the line says how
    wide the terminal must be."""
    from ledger.core.i18n import _
    from ledger.core.paycode import SCHEME_NAMES
    from ledger.core.settlement import format_amount
    from ledger.core.text import shown

    currency = view.currency
    codes = list(view.pay_codes) or [None] * len(view.progress)
    out: list[str] = []
    for p, code in zip(view.progress, codes, strict=True):
        if not p.outstanding:
            continue
        head = _("{payer} pays {payee} {amount} {currency}").format(
            payer=shown(p.payer), payee=shown(p.payee), amount=format_amount(p.outstanding),
            currency=currency)
        if code is None:
            out += [head, "  " + _("(no pay id of {payee} for {currency}: bigtwo player pay-id)")
                    .format(payee=shown(p.payee), currency=currency), ""]
            continue
        drawn = qr_lines(code.payload)
        out.append(f"{head} · {_(SCHEME_NAMES[code.scheme])}")
        if len(drawn[0]) > width:
            out.append("  " + _("(the code needs a terminal {columns} columns wide)").format(
                columns=len(drawn[0])))
        else:
            out += on_white(drawn) if colour else drawn
        if code.scheme == "text":
            out.append("  " + _("receive code: {code} (type the amount: {amount})").format(
                code=shown(code.payload), amount=format_amount(p.outstanding)))
        out.append("")
    if not out:
        return _("(all square)")
    return "\n".join(out).rstrip("\n")


def qr_matrix(text: str, border: int = 4) -> list[str]:
    """A QR code of ``text`` (error correction M) as rows of ``"0"``/``"1"`` (1 dark),
    ``border`` modules of quiet zone around it: the phone draws it on a canvas."""
    import segno

    return ["".join("1" if m else "0" for m in row)
            for row in segno.make(text, error="m").matrix_iter(scale=1, border=border)]


QR_MAX = 512
"""The longest text a payment code's drawing takes: an EMVCo payload is at most 512 characters."""


def pay_code_rows(text: object) -> dict[str, list[str]]:
    """``{"rows": ["0110…", …]}``: a payment code's modules for the phone's canvas
    (:func:`qr_matrix`), or InputError for anything but text of 1 to :data:`QR_MAX`
    characters.  The one drawing of both phones: the hub's ``POST /qr`` and the offline
    app's own engine (the ``qr`` op of ``ledger/engine/phone.py``, segno vendored for
    Pyodide by scripts/vendor_pyodide.py)."""
    from ledger.core.errors import InputError
    from ledger.core.i18n import _

    if not isinstance(text, str) or not text or len(text) > QR_MAX:
        raise InputError(_("a payment code is text of 1 to {n} characters").format(n=QR_MAX))
    return {"rows": qr_matrix(text)}
