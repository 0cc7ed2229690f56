"""The engine's answers as the chat's text: the scoreboard, a deal's short reply, the
fewest payments, what is owed, the deals so far, the help.  Each function takes the
JSON an op answers (a view record's ``to_dict()``) and gives plain text in the current
language (``ledger.core.i18n``): no scoring or money arithmetic here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.core.i18n import _


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def nets(net: dict[str, int]) -> str:
    """``陳大文 +35 · 李小明 +23 · Dan −61``"""
    return " · ".join(f"{name} {signed(value)}" for name, value in net.items())


def board(b: dict[str, Any]) -> str:
    """The scoreboard: the session, the last deal and its points, the standings with
    their money, and who deals and leads next."""
    s = b["session"]
    head = _("Session {id} · {rules} · {stake} {currency} a point").format(
        id=s["id"], rules=s["rules"], stake=s["stake"], currency=s["currency"])
    lines = [head]
    if b["deals"]:
        last = b["deals"][0]
        lines.append(_("Deal {deal}: {nets}").format(deal=last["deal"], nets=nets(last["net"])))
    else:
        lines.append(_("No deals yet: send /d and the cards left, e.g. /d 0 3 8 12"))
    lines.append(_("Standings:"))
    money = b["money"]["nets"]
    for p in b["standings"]["players"]:
        lines.append(f"  {p['name']}  {signed(p['net'])}  {money.get(p['name'], '')}")
    lines += lineup(b["seats"])
    if s["ended_at"]:
        lines.append(_("This session has ended."))
    else:
        lines.append(b["next"]["text"])
    return "\n".join(lines)


def after_deal(a: dict[str, Any]) -> str:
    """The short reply to a deal: ``deal 4 recorded: 陳大文 +35 · …``."""
    net = {p["name"]: p["net"] for p in a["players"] or []}
    return _("deal {deal} recorded: {nets}").format(deal=a["deal"], nets=nets(net))


def undo_button(u: dict[str, Any]) -> str:
    """The button that takes it back: ``Undo deal 7``, or ``Undo: seat join Eve``."""
    if u["deal"] is None:
        return _("Undo: {action}").format(action=u["action"])
    return _("Undo deal {deal}").format(deal=u["deal"])


def undo_question(u: dict[str, Any]) -> str:
    """``undo deal 7? It takes back: LINE`` (the undo_preview op's answer); a seat change
    or a session's end named as itself (``Undo seat join Eve?``)."""
    if u["deal"] is None:
        return _("Undo {action}?").format(action=u["action"])
    if u["action"] in ("amend", "void") and u["back"]:
        what = _("the correction of deal {deal}, back to: {line}").format(deal=u["deal"], line=u["back"])
    elif u["action"] == "void":
        what = _("the voiding of deal {deal}").format(deal=u["deal"])
    else:
        what = u["line"] or ""
    return _("Undo deal {deal}? It takes back: {what}").format(deal=u["deal"], what=what)


def undone(u: dict[str, Any]) -> str:
    if u["deal"] is None:
        return _("taken back: {action}").format(action=u["action"])
    return _("deal {deal} taken back: {line}").format(deal=u["deal"], line=u["line"] or "")


def lineup(seats: dict[str, Any]) -> list[str]:
    """Who sits out (and so who plays the next deal), when anyone does."""
    if not seats["sitting_out"]:
        return []
    return [_("sitting out: {names}").format(names=", ".join(seats["sitting_out"])),
            _("next deal: {names}").format(names=", ".join(seats["playing"]))]


def seated(done: dict[str, Any]) -> str:
    """The reply to a seat change: what was written, and the table now."""
    seats = done["lineup"]
    return "\n".join([_("recorded: {action}").format(action=done["action"]),
                      _("seated: {names}").format(names=", ".join(seats["seated"])), *lineup(seats)])


def seat_usage(action: str) -> str:
    return {
        "join": _("write /join NAME (or /join NAME --sit-out)"),
        "leave": _("write /leave NAME"), "sit-out": _("write /sitout NAME"), "back": _("write /back NAME"),
        "swap": _("write /swap NAME NAME"),
        "order": _("write /order and every seated name in the order of play"),
    }[action]


def payments(st: dict[str, Any]) -> str:
    """The fewest payments (the settle op's ``progress``), what is paid of each."""
    cur = st["currency"]
    rows = st.get("progress") or [dict(p, paid="0", outstanding=p["amount"]) for p in st["payments"]]
    if not rows:
        return _("Nobody owes anybody anything.")
    lines = [_("Fewest payments:")]
    for p in rows:
        line = f"  {p['from']} → {p['to']}  {cur} {p['amount']}"
        if p["outstanding"] != p["amount"]:
            line += "  " + _("(still to pay: {amount})").format(amount=p["outstanding"])
        lines.append(line)
    return "\n".join(lines)


def owed(st: dict[str, Any]) -> str:
    """What is still to pay, payment by payment."""
    cur = st["currency"]
    left = [p for p in st.get("progress") or [] if Decimal(p["outstanding"]) > 0]
    if not left:
        return _("Nothing is owed: every payment is made.")
    lines = [_("Still to pay:")]
    lines += [f"  {p['from']} → {p['to']}  {cur} {p['outstanding']}" for p in left]
    return "\n".join(lines)


def paid(a: dict[str, Any]) -> str:
    p = a["payment"]
    return _("payment recorded: {payer} paid {payee} {currency} {amount}").format(
        payer=p["from"], payee=p["to"], currency=p["currency"], amount=p["amount"])


def pay_code(p: dict[str, Any], currency: str, outstanding: str) -> str:
    """The caption of a payment's code, sent privately to its payer."""
    return "\n".join([
        _("Pay {payee} {currency} {amount}: scan this code in your banking app.").format(
            payee=p["to"], currency=currency, amount=outstanding),
        _("Then tell the table: /paid {payer} {payee} {amount}").format(
            payer=p["from"], payee=p["to"], amount=outstanding)])


def codes_unreached(names: list[str], bot: str) -> str:
    """Who has a payment code waiting that the bot could not send them (no pay id here)."""
    return _("A payment code is ready for {names}: send /iam and your name here, and open a "
             "private chat with @{bot} (send it /start) so it can send you the code.").format(
        names=", ".join(names), bot=bot)


def iam(name: str, bot: str) -> str:
    return _("You are {name} at this table: your payment codes come to you privately from @{bot} "
             "(open a chat with it and send /start once).").format(name=name, bot=bot)


def deal_list(deals: list[dict[str, Any]]) -> str:
    """Every live deal, oldest first: ``#1 陳大文=0 李小明=3 …``."""
    if not deals:
        return _("No deals yet.")
    return "\n".join(f"#{d['deal']} {d['line']}" for d in reversed(deals))


def help_text() -> str:
    return "\n".join([
        _("Keep the score of Big Two in this chat:"),
        _("/new NAMES… [preset] [stake CURRENCY] — a new table, e.g. "
          "/new 陳大文 李小明 José Dan classic 0.5 HKD"),
        _("/new alone — the same players and rules as this chat's last table"),
        _("/d 0 3 8 12 — a deal: the cards left in seat order, or 陳大文=0 李小明=3 …, facts too"),
        _("(or reply to the scoreboard with just the counts)"),
        _("/settle — the fewest payments; /owed — what is still to pay"),
        _("/paid FROM TO AMOUNT — a payment made"),
        _("/iam NAME — who you are at this table: your payment codes come to you privately"),
        _("/join NAME, /leave NAME, /sitout NAME, /back NAME, /swap A B, /order NAMES… — the seats"),
        _("/log — the deals so far; /end — the money, and the session ended"),
        _("/lang en | zh_Hant | zh_Hans — this chat's language"),
    ])
