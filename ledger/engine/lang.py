"""The page's language, per request: ``?lang=`` (remembered in a cookie), else the
cookie, else the browser's ``Accept-Language``, else the server's language (``bigtwo
--lang``, ``BIGTWO_LANG``, the locale).

The words the page's scripts show are here too (:data:`WORDS`), marked for the
catalogs and handed to the page as one JSON dictionary in its own language.
"""

from __future__ import annotations

from typing import Any

from ledger.core.i18n import LANGUAGES, N_, normalize

COOKIE = "bigtwo_lang"
COOKIE_AGE = 365 * 24 * 3600
# <html lang>: the script, and the region whose usage the catalog follows.
HTML_LANG = {"en": "en", "zh_Hant": "zh-Hant-HK", "zh_Hans": "zh-Hans-CN"}
# The switcher's labels, each in its own language.
NATIVE = {"en": "English", "zh_Hant": "繁體", "zh_Hans": "简体"}


def known(value: str | None) -> str | None:
    """``value`` if it names one of the page's languages exactly (``?lang=``, cookie)."""
    if value is None:
        return None
    value = value.strip()
    return value if value in LANGUAGES else None


def from_accept(header: str | None) -> str | None:
    """The first language of ``Accept-Language`` we speak, by q-value (ties: the order
    given); None if it names none (``*`` and q=0 are skipped).

    >>> from_accept("fr-FR, zh-HK;q=0.8, zh-CN;q=0.9")
    'zh_Hans'
    >>> from_accept("en-US,en;q=0.9,zh-TW;q=0.8")
    'en'
    >>> print(from_accept("fr, de;q=0.5, zh;q=0"))
    None
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:40]):
        tag, *params = (p.strip() for p in part.split(";"))
        if not tag or tag == "*":
            continue
        q = 1.0
        for param in params:
            key, _eq, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, i, tag))
    for _q, _i, tag in sorted(ranked):
        found = normalize(tag)
        if found is not None:
            return found
    return None


def negotiate(query: str | None, cookie: str | None, accept: str | None, default: str) -> str:
    """The language of one request (``query`` already checked with :func:`known`)."""
    return known(query) or known(cookie) or from_accept(accept) or default


def bad_language(value: str) -> str:
    from ledger.core.i18n import _

    return _("unknown language {value!r}; choose en, zh_Hant (繁體) or zh_Hans (简体)").format(
        value=value[:40])


# Every word the phone app shows (ledger/web/static/app/): one table, marked for the
# catalogs, handed to the app in its language by the engine's ``words``.
# {n}-style placeholders are filled in by the app.
WORDS = {
    "title": N_("Big Two"),
    "loading": N_("Loading…"),
    "unreachable": N_("The scorekeeping server does not answer; check the Wi-Fi and that bigtwo serve runs."),
    "link_down": N_("The live link is down: the numbers on screen may be out of date. Trying again…"),
    "language": N_("Language"),
    # tabs
    "tab_table": N_("Table"),
    "tab_log": N_("Deals"),
    "tab_settle": N_("Settle"),
    "tab_history": N_("History"),
    "tab_tables": N_("Tables"),
    # saving
    "saving": N_("{what}: saving…"),
    "saved": N_("{what}: saved"),
    "waiting": N_("{what}: not saved yet — will retry"),
    "refused": N_("{what}: not saved — {reason}"),
    "pending_saving": N_("{what}: saving…"),
    "pending_waiting": N_("{what}: not saved yet — will retry"),
    "what_deal": N_("Deal {n}"),
    "what_amend": N_("Fix of deal {n}"),
    "what_void": N_("Void of deal {n}"),
    "what_undo": N_("Undo"),
    "what_start": N_("New session"),
    "what_end": N_("End of the session"),
    "what_reopen": N_("Reopening"),
    # the scoreboard and entry
    "session_n": N_("Session {id}"),
    "rules_stake": N_("rules {rules} · {stake} {currency} a point"),
    "ended": N_("ended"),
    "open": N_("open"),
    "player": N_("Player"),
    "wins": N_("Wins"),
    "points": N_("Points"),
    "last_deals": N_("Last deals"),
    "deal_n": N_("Deal {n}"),
    "deal_after_gap": N_("Deal {n} (deal {gone} was taken back)"),
    "deal_after_gaps": N_("Deal {n} (deals {gone} were taken back)"),
    "deal_taken_back": N_("Deal {n}: taken back (undone or voided)"),
    "fix_deal": N_("Fix deal {n}"),
    "save_deal": N_("Save deal {n}"),
    "record": N_("Record deal"),
    "who_won": N_("Who went out?"),
    "tap_order": N_("Tap every player in finishing order."),
    "tap_winner": N_("Tap the winner, then each player's cards left."),
    "tap_counts": N_("Tap each player's cards left."),
    "cards_left": N_("Cards left"),
    "cards_left_of": N_("Cards left: {name}"),
    "key": N_("{name}: {n} cards left"),
    "chip": N_("Cards left of {name}: {n}"),
    "chip_unset": N_("Cards left of {name}: not yet"),
    "extra_count": N_("{name}: {what} {n}"),
    "extra_player": N_("{what}: {name}"),
    "immediate_by": N_("{what}: {name}"),
    "fact_twos": N_("Twos still held"),
    "fact_bombs": N_("Bombs still held"),
    "fact_finish": N_("Winner's last play"),
    "fact_assist": N_("Let the winner go out (assist)"),
    "fact_missed_call": N_("winner did not call “last card”"),
    "fact_shootout": N_("Teams tie on cards: shoot-out won by"),
    "fact_dragon": N_("Dealt a dragon (one card of each rank)"),
    "fact_four_twos": N_("Dealt all four twos"),
    "finish_two": N_("a two"),
    "finish_quads": N_("four of a kind"),
    "finish_straight_flush": N_("straight flush"),
    "cards": N_("cards"),
    "penalty": N_("penalty"),
    "fried": N_("(fried)"),
    "preview_later": N_("The points show once the server answers."),
    "session_ended": N_("This session has ended. Its deals can still be fixed or voided."),
    "reopen": N_("Reopen"),
    "reopen_ask": N_("Reopen {name}? It takes deals again."),
    "new_session": N_("New session"),
    "cancel": N_("Cancel"),
    # the log and corrections
    "log_of": N_("Deals of {name}"),
    "chart_evening": N_("Each player's points, deal by deal"),
    "deal_axis": N_("deal"),
    "amended": N_("amended"),
    "fix": N_("Fix"),
    "void": N_("Void"),
    "void_deal": N_("Void deal {n}"),
    "void_ask": N_("Void deal {n} ({line})? It stays in the log, marked void."),
    "no_deals": N_("No deals yet."),
    "corrections": N_("Corrections"),
    "undo": N_("Undo"),
    "undo_last": N_("Undo last action"),
    "undo_nothing": N_("Nothing to undo."),
    "undo_ask_deal": N_("Undo deal {n} ({line})? It will not count."),
    "undo_ask_seat": N_("Undo the seat change ({action})? The seats go back as they were."),
    "undo_ask_amend": N_("Undo the fix of deal {n} ({line})? The deal goes back to {back}."),
    "undo_ask_void": N_("Undo voiding deal {n}? It counts again ({back})."),
    "undo_ask_end": N_("Undo the end of this session? It opens again."),
    "undo_ask_reopen": N_("Undo the reopening of this session? It is ended again."),
    "undo_wait": N_("Wait until the last change is saved, then undo."),
    "no_such_deal": N_("There is no deal {n} in this session."),
    "not_deal_number": N_("{text} is not a deal number (write it with the digits 0-9)."),
    "not_session_number": N_("{text} is not a session number (write it with the digits 0-9)."),
    "end_session": N_("End session"),
    "end_ask": N_("End this session? No more deals can be added (fixes still can)."),
    # settle
    "settle_of": N_("Settle {name}"),
    "working_pairwise": N_("Working"),
    "working_teams": N_("Working (teams)"),
    "formula": N_("Σs = {sum}, net = Σs − {n}·s"),
    "working_pairwise_note": N_("s is each player's penalty total; money is net × {stake} {currency}."),
    "working_teams_note": N_("s is each team's penalty total; money "
                             "is net × {stake} {currency}, split in half."),
    "working_winner": N_("Pay the winner"),
    "working_winner_note": N_("Each loser pays each deal's winner "
                              "their penalty, at {stake} {currency} a point."),
    "working_ranked": N_("Ranked: losers pay the winner by rank of cards left"),
    "working_ranked_note": N_("Each deal's losers pay the winner by their "
                              "rank of cards left; a point is {stake} {currency}."),
    "team": N_("Team"),
    "net_points": N_("net points"),
    "penalty_s": N_("penalty s"),
    "money": N_("Money ({currency})"),
    "coins": N_("Round to coins of"),
    "exact": N_("exact"),
    "rounding": N_("rounding"),
    "rounded_to": N_("Rounded to coins of {coin} {currency}; the nets still add up to 0."),
    "pair_by_pair": N_("Pair by pair"),
    "nobody_owes": N_("Nobody owes anybody."),
    "fewest_payments": N_("Fewest payments ({count})"),
    "all_square": N_("All square."),
    "pays": N_("{payer} pays {payee}"),
    "paid_what": N_("{payer} paid {payee} {amount} {currency}"),
    "what_unpay": N_("Taking back: {what}"),
    "paid_in_full": N_("Paid."),
    "paid_outstanding": N_("paid {paid} · outstanding {outstanding} {currency}"),
    "amount_paid_label": N_("Amount {payer} pays {payee} now ({currency})"),
    "mark_paid": N_("Mark paid"),
    "mark_paid_label": N_("Mark paid: {payer} pays {payee}"),
    "payments_recorded": N_("Payments recorded"),
    "no_payments": N_("No payments recorded for this session yet."),
    "take_back": N_("Take back"),
    "take_back_label": N_("Take back: {what}"),
    "take_back_ask": N_("Take back the payment “{what}”? It will not count."),
    "share": N_("Share"),
    "no_share_sheet": N_("This browser has no share sheet (Web Share): copy the text or "
                         "download the image."),
    "no_share_insecure": N_("This page is not a secure (https) page, so the phone's "
                            "share sheet is not offered: copy the text or download the image."),
    "show_working": N_("How this was worked out"),
    "show_pay_code_label": N_("Payment code: {payer} pays {payee}"),
    "pay_code_label": N_("Payment code"),
    "pay_code_drawing": N_("Drawing the code…"),
    "pay_code_sending": N_("Saving the payment…"),
    "brightness_hint": N_("Turn the screen's brightness up, then scan with the banking app."),
    "text_code_note": N_("Pay {amount} {currency} to this receive code in its own app."),
    "close": N_("Close"),
    "pay_ids_title": N_("Ways to be paid"),
    "pay_ids_note": N_("A player's FPS, PayNow or PromptPay id (or any receive code as text) "
                       "puts a payment code on each payment to them. Kept on the "
                       "scorekeeper's devices only."),
    "pay_scheme": N_("Scheme"),
    "scheme_fps": N_("FPS (Hong Kong)"),
    "scheme_paynow": N_("PayNow (Singapore)"),
    "scheme_promptpay": N_("PromptPay (Thailand)"),
    "scheme_text": N_("Other (receive code as text)"),
    "pay_id": N_("Pay id"),
    "pay_id_hint": N_("FPS id, mobile number or e-mail"),
    "save_pay_id": N_("Save pay id"),
    "what_set_pay_id": N_("{player}'s pay id"),
    # the board's seats (board-seats.js; docs/seats.md)
    "seats": N_("Seats"),
    "seats_summary": N_("Seats: {seated} seated, {playing} play"),
    "sits_out": N_("sits out"),
    "seat_sit_out": N_("Sit out"),
    "seat_sit_out_of": N_("{name} sits out"),
    "seat_back": N_("Back"),
    "seat_back_of": N_("{name} is back"),
    "seat_leave": N_("Leave"),
    "seat_leave_of": N_("{name} leaves"),
    "seat_join_name": N_("Who joins"),
    "seat_join_out": N_("joins sitting out"),
    "seat_join": N_("Join"),
    "seat_swap_a": N_("Swap seats: who"),
    "seat_swap_b": N_("Swap seats: with"),
    "seat_swap": N_("Swap"),
    "what_seat_join": N_("{a} joins"),
    "what_seat_leave": N_("{a} leaves"),
    "what_seat_sit_out": N_("{a} sits out"),
    "what_seat_back": N_("{a} is back"),
    "what_seat_swap": N_("{a} and {b} swap seats"),
    "seat_order": N_("Seat order"),
    "seat_order_up": N_("Move {name} up"),
    "seat_order_down": N_("Move {name} down"),
    "seat_order_from": N_("From deal"),
    "seat_order_from_hint": N_("Blank: from the next deal on. A deal from 1 to {last}: the order was "
                               "entered wrong and has been this one since that deal."),
    "seat_order_save": N_("Save seat order"),
    "what_seat_order": N_("The new seat order"),
    "what_seat_order_from": N_("The seat order from deal {n}"),
    "copy_text": N_("Copy text"),
    "copied": N_("Copied"),
    "download_image": N_("Download image"),
    "card_label": N_("The settlement as a picture"),
    # tables, start, history
    "tables": N_("Tables"),
    "new_table": N_("New table"),
    "no_tables": N_("No sessions yet."),
    "search_tables": N_("Search: a player, a name or a number"),
    "no_match": N_("No session matches “{q}”."),
    "tables_shown": N_("{shown} of {total} sessions"),
    "more_tables": N_("More sessions"),
    "deals_count": N_("deals: {n}"),
    "keeper_note": N_("One scorekeeper link writes to every table of this server; the "
                      "viewer link only reads. Starting a new table moves nobody else's page."),
    "viewer_note": N_("This is the viewer link: it shows the tables but cannot record."),
    "viewer_cannot_start": N_("The viewer link cannot start a session; ask the scorekeeper."),
    "same_as_last": N_("Same players and rules as last time"),
    "start_same": N_("Start with the same"),
    # Who deals and leads next (ledger/core/dealer.py's Turn.describe, the same words).
    "turn_deals": N_("{name} deals"),
    "turn_or": N_("{names} or {last}"),
    "turn_deals_tied": N_("{names} deals (tied on most cards: a showdown decides)"),
    "turn_showdown_leads": N_("the showdown's winner leads"),
    "turn_leads": N_("{name} leads"),
    "turn_twin_leads": N_("the holder of {card} first after {dealer} leads"),
    "turn_next": N_("next: {deals}, {leads}"),
    "preset_source": N_("Source: {source}"),
    "start_while_running": N_("{name} is still running. Start another table anyway?"),
    "players_in_order": N_("Players in seat order"),
    "player_n": N_("Player {n}"),
    "player_1_hint": N_("Player 1 (e.g. 陳大文)"),
    "player_4_hint": N_("Player 4 (blank for 3 players)"),
    "rules": N_("Rules"),
    "stake": N_("Stake a point"),
    "currency": N_("Currency"),
    "evening_name": N_("Name of the evening"),
    "optional": N_("optional"),
    "teams": N_("teams (partners opposite)"),
    "start": N_("Start"),
    "history": N_("History"),
    "players": N_("Players"),
    "sessions": N_("Sessions"),
    "sessions_axis": N_("session"),
    "points_n": N_("{n} points"),
    "player_summary": N_("sessions: {n} · points in all: {points}"),
    "chart_player": N_("{name}'s points, session by session, and the running total"),
}


def words() -> dict[str, Any]:
    """:data:`WORDS` in the current language (of this request)."""
    from ledger.core.i18n import _

    return {key: _(text) for key, text in WORDS.items()}
