"""Bad input: one clear ``error:`` line on stderr, a non-zero exit, no traceback,
and the ledger exactly as it was (every table, byte for byte in its dump)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import file_digest

FOUR = ("--players", "Ann,Ben,Cat,Dan")
DEAL = ("Ann=0", "Ben=3", "Cat=4", "Dan=5")  # Ann goes out; Ben 3, Cat 4, Dan 5 cards

# Ledger states the bad commands run against; each leaves at least one session on file.
SETUPS: dict[str, list[tuple[str, ...]]] = {
    "ledger": [("session", "list")],  # an empty ledger: no session at all
    "classic": [("session", "start", *FOUR), ("deal", *DEAL)],
    "classic-empty": [("session", "start", *FOUR)],
    "classic-voided": [("session", "start", *FOUR), ("deal", *DEAL), ("void", "1")],
    "classic-undone": [("session", "start", *FOUR), ("deal", *DEAL), ("undo",)],
    "classic-all-undone": [("session", "start", *FOUR), ("deal", *DEAL), ("void", "1"), ("undo",),
                           ("undo",)],
    "classic-ended": [("session", "start", *FOUR), ("deal", *DEAL), ("session", "end")],
    "doubling": [("session", "start", *FOUR, "--rules", "doubling"), ("deal", *DEAL)],
    "hong-kong": [("session", "start", *FOUR, "--rules", "hong-kong"), ("deal", *DEAL)],
    "da-lao-er": [("session", "start", *FOUR, "--rules", "da-lao-er"), ("deal", *DEAL)],
    "places": [("session", "start", *FOUR, "--rules", "places"),
               ("deal", "--order", "Ann,Ben,Cat,Dan")],
    "teams": [("session", "start", *FOUR, "--teams"), ("deal", "Ann=0", "Ben=3", "Cat=2", "Dan=5")],
    "three-player": [("session", "start", "--players", "Ann,Ben,Cat", "--rules", "three-player"),
                     ("deal", "Ann=0", "Ben=3", "Cat=4")],
    "two-currencies": [("session", "start", *FOUR, "--currency", "USD"), ("deal", *DEAL),
                       ("session", "start", *FOUR, "--currency", "EUR"), ("deal", *DEAL)],
}

RULE_FILES = {
    "unknown-key.toml": 'base = "classic"\nfoo = 1\n',
    "not-toml.toml": "this is not [[ toml\n",
    "tiers-order.toml": "tiers = [[1, 1], [13, 2], [10, 3]]\n",
    "tiers-start.toml": "tiers = [[2, 1], [10, 2]]\n",
    "fry-low.toml": "fry_threshold = 9\n",
    "bad-base.toml": 'base = "nosuch"\n',
    "bad-choice.toml": 'twos = "sometimes"\n',
    "bad-bool.toml": 'assist = "yes"\n',
}

# (id, setup, command, words the one-line message must contain)
CASES: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    # -- no session --
    ("deal-no-session", "ledger", ("deal", *DEAL), ("no current session", "session start")),
    ("undo-no-session", "ledger", ("undo",), ("no current session",)),
    ("standings-all-empty", "ledger", ("standings", "--all"), ("no sessions",)),
    # -- winners --
    ("no-winner", "classic", ("deal", "Ann=1", "Ben=3", "Cat=4", "Dan=5"), ("no winner", "0 cards")),
    ("two-winners", "classic", ("deal", "Ann=0", "Ben=0", "Cat=4", "Dan=5"),
     ("2 players have 0 cards", "Ann", "Ben", "exactly one")),
    ("three-winners-seat-order", "classic", ("deal", "0", "0", "0", "5"), ("3 players have 0 cards",)),
    # -- seated players --
    ("player-missing", "classic", ("deal", "Ann=0", "Ben=3", "Cat=4"), ("Dan", "every seated player")),
    ("counts-too-few", "classic", ("deal", "0", "3", "4"), ("3 numbers for 4 players",)),
    ("counts-too-many", "classic", ("deal", "0", "3", "4", "5", "6"), ("5 numbers for 4 players",)),
    ("player-repeated", "classic", ("deal", *DEAL, "ann=2"), ("Ann", "more than once")),
    ("player-unknown", "classic", ("deal", "Ann=0", "Ben=3", "Cat=4", "Eve=5"),
     ("'Eve'", "not seated", "Ann, Ben, Cat, Dan")),
    ("player-unknown-extra", "classic", ("deal", *DEAL, "Eve=2"), ("'Eve'", "not seated")),
    ("player-empty-name", "classic", ("deal", "=0", "Ben=3", "Cat=4", "Dan=5"), ("not seated",)),
    ("pair-without-equals", "classic", ("deal", "Ann=0", "Ben", "Cat=4", "Dan=5"), ("'Ben'", "NAME=CARDS")),
    # -- cards --
    ("cards-negative", "classic", ("deal", "Ann=0", "Ben=-1", "Cat=4", "Dan=5"), ("Ben", "-1")),
    ("cards-text", "classic", ("deal", "Ann=0", "Ben=x", "Cat=4", "Dan=5"), ("Ben", "'x'")),
    ("cards-more-than-hand", "classic", ("deal", "Ann=0", "Ben=14", "Cat=4", "Dan=5"),
     ("Ben=14", "0 to 13")),
    ("cards-huge", "classic", ("deal", "Ann=0", "Ben=99999999999999999999999", "Cat=4", "Dan=5"),
     ("Ben=99999999999999999999999", "0 to 13")),
    ("cards-fraction", "classic", ("deal", "Ann=0", "Ben=3.5", "Cat=4", "Dan=5"), ("Ben", "3.5")),
    ("cards-empty", "classic", ("deal", "Ann=0", "Ben=", "Cat=4", "Dan=5"), ("Ben", "number of cards")),
    ("cards-seat-order-negative", "classic", ("deal", "--", "0", "-3", "4", "5"), ("Ben", "-3")),
    # Wikipedia: one of three players holds the 52nd card (18); 19 cannot be
    ("cards-three-player-hand", "three-player", ("deal", "Ann=0", "Ben=19", "Cat=1"),
     ("Ben=19", "0 to 18")),
    ("cards-typed-twice", "classic", ("deal", "Ann=0", "Ben=2S 2H", "Cat=2S", "Dan=5"),
     ("held twice", "Ben", "Cat")),
    ("none-given", "classic", ("deal",), ("no cards given",)),
    # -- twos --
    ("twos-more-than-held", "doubling", ("deal", *DEAL, "--twos", "Ben=4"),
     ("--twos Ben=4", "cannot fit in 3 cards")),
    ("twos-five-in-all", "doubling", ("deal", *DEAL, "--twos", "Cat=3", "--twos", "Dan=2"),
     ("add up to 5", "at most 4")),
    ("twos-with-finish-two", "doubling",
     ("deal", *DEAL, "--twos", "Ben=2", "--twos", "Cat=2", "--finish", "two"), ("add up to 4", "at most 3")),
    ("twos-by-winner", "doubling", ("deal", *DEAL, "--twos", "Ann=1"), ("Ann", "went out")),
    ("twos-negative", "doubling", ("deal", *DEAL, "--twos", "Ben=-1"), ("--twos Ben", "'-1'")),
    ("twos-text", "doubling", ("deal", *DEAL, "--twos", "Ben=x"), ("--twos Ben", "'x'")),
    ("twos-no-count", "doubling", ("deal", *DEAL, "--twos", "Ben"), ("--twos", "NAME=COUNT")),
    ("twos-unknown-player", "doubling", ("deal", *DEAL, "--twos", "Eve=1"), ("'Eve'", "not seated")),
    ("twos-repeated", "doubling", ("deal", *DEAL, "--twos", "Ben=1", "--twos", "ben=1"),
     ("--twos", "Ben", "more than once")),
    ("twos-classic", "classic", ("deal", *DEAL, "--twos", "Ben=1"), ("classic", "do not score twos")),
    ("twos-typed-disagree", "doubling",
     ("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=4", "Dan=5", "--twos", "Ben=1"), ("--twos Ben=1", "disagrees")),
    # -- bombs --
    ("bombs-do-not-fit", "doubling", ("deal", *DEAL, "--bombs", "Ben=1"), ("--bombs Ben=1", "3 cards")),
    ("bombs-do-not-fit-8", "doubling", ("deal", "Ann=0", "Ben=3", "Cat=8", "Dan=5", "--bombs", "Cat=3"),
     ("--bombs Cat=3", "8 cards")),
    ("bombs-by-winner", "doubling", ("deal", *DEAL, "--bombs", "Ann=1"), ("Ann", "went out")),
    ("bombs-classic", "classic", ("deal", *DEAL, "--bombs", "Dan=1"), ("classic", "do not score bombs")),
    # -- finish --
    ("finish-classic", "classic", ("deal", *DEAL, "--finish", "two"), ("classic", "do not score the finish")),
    ("finish-unknown", "doubling", ("deal", *DEAL, "--finish", "ace"),
     ("'ace'", "two, quads, straight-flush")),
    ("finish-empty", "doubling", ("deal", *DEAL, "--finish", ""), ("unknown finish",)),
    # -- assist and missed call --
    ("assist-winner", "classic", ("deal", *DEAL, "--assist", "Ann"), ("--assist Ann", "winner")),
    ("assist-unknown", "classic", ("deal", *DEAL, "--assist", "Eve"), ("--assist", "'Eve'", "not seated")),
    ("assist-ambiguous", "classic", ("deal", *DEAL, "--assist", ""), ("--assist", "not seated")),
    ("assist-and-missed-call", "classic", ("deal", *DEAL, "--assist", "Ben", "--missed-call"),
     ("--assist", "--missed-call", "not both")),
    ("assist-not-in-rules", "da-lao-er", ("deal", *DEAL, "--assist", "Ben"), ("da-lao-er", "no assist")),
    ("assist-teams", "teams", ("deal", "Ann=0", "Ben=3", "Cat=2", "Dan=5", "--assist", "Ben"),
     ("teams", "assist")),
    ("missed-call-hong-kong", "hong-kong", ("deal", *DEAL, "--missed-call"), ("hong-kong", "missed-call")),
    ("missed-call-doubling", "doubling", ("deal", *DEAL, "--missed-call"), ("doubling", "missed-call")),
    # -- options and modes the rule set does not have --
    ("dragon-places", "places", ("deal", "--dragon", "Ann"), ("places", "dragon")),
    ("dragon-with-order-places", "places", ("deal", "--order", "Ann,Ben,Cat,Dan", "--dragon", "Ann"),
     ("places", "dragon")),
    ("cards-places", "places", ("deal", *DEAL), ("places", "--order", "cards")),
    ("order-missing-player", "places", ("deal", "--order", "Ann,Ben,Cat"), ("--order", "Dan")),
    ("order-repeated", "places", ("deal", "--order", "Ann,Ann,Cat,Dan"),
     ("--order", "Ann", "more than once")),
    ("order-unknown", "places", ("deal", "--order", "Ann,Ben,Cat,Eve"), ("--order", "'Eve'")),
    ("order-classic", "classic", ("deal", *DEAL, "--order", "Ann,Ben,Cat,Dan"),
     ("finishing order", "places", "classic")),
    ("dragon-and-four-twos", "classic", ("deal", "--dragon", "Ann", "--four-twos", "Ben"),
     ("--dragon", "--four-twos", "not both")),
    ("dragon-with-cards", "classic", ("deal", *DEAL, "--dragon", "Ann"), ("dragon", "cards")),
    ("dragon-unknown", "classic", ("deal", "--dragon", "Eve"), ("--dragon", "'Eve'")),
    ("shootout-not-teams", "classic", ("deal", *DEAL, "--shootout", "Ann"), ("--shootout", "teams")),
    ("teams-tie-no-shootout", "teams", ("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=1"),
     ("tie", "--shootout")),
    ("teams-shootout-no-tie", "teams", ("deal", "Ann=0", "Ben=3", "Cat=1", "Dan=5", "--shootout", "Ann"),
     ("--shootout", "do not tie")),
    ("teams-shootout-unknown", "teams", ("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=1", "--shootout", "Eve"),
     ("--shootout", "'Eve'")),
    # -- void, amend, undo --
    ("void-missing", "classic", ("void", "99"), ("deal 99", "session 1", "1 to 1")),
    ("void-zero", "classic", ("void", "0"), ("deal 0",)),
    ("void-huge", "classic", ("void", "99999999999999999999"), ("deal 99999999999999999999",)),
    ("void-no-deals", "classic-empty", ("void", "1"), ("deal 1", "no deals")),
    ("void-already-void", "classic-voided", ("void", "1"), ("deal 1", "already void")),
    ("amend-missing", "classic", ("amend", "99", *DEAL), ("deal 99", "1 to 1")),
    ("amend-bad-facts", "classic", ("amend", "1", "Ann=0", "Ben=0", "Cat=4", "Dan=5"),
     ("2 players have 0 cards",)),
    ("amend-no-facts", "classic", ("amend", "1"), ("no cards given",)),
    ("undo-no-deals", "classic-undone", ("undo",), ("nothing left to undo", "session 1")),
    ("undo-all-undone", "classic-all-undone", ("undo",), ("nothing left to undo",)),
    ("deal-after-end", "classic-ended", ("deal", *DEAL), ("session 1 ended",)),
    ("end-twice", "classic-ended", ("session", "end"), ("already ended",)),
    # -- sessions --
    ("players-repeated", "classic", ("session", "start", "--players", "Ann,Ann,Ben"),
     ("'Ann'", "more than once")),
    ("players-repeated-case", "classic", ("session", "start", "--players", "Ann,Ben,ann"),
     ("'Ann'", "more than once")),
    ("players-one", "classic", ("session", "start", "--players", "Ann"), ("2 to 8", "not 1")),
    ("players-nine", "classic", ("session", "start", "--players", "A,B,C,D,E,F,G,H,I"),
     ("2 to 8", "not 9")),
    ("players-five", "classic", ("session", "start", "--players", "A,B,C,D,E"),
     ("13 cards each", "5 players would need 65 cards", "decks = 2 or deal_all = true")),
    ("players-empty-name", "classic", ("session", "start", "--players", "Ann,,Ben"), ("empty",)),
    ("players-empty", "classic", ("session", "start", "--players", ""), ("empty",)),
    ("players-equals", "classic", ("session", "start", "--players", "Ann,B=n"), ("'B=n'", "cannot contain")),
    ("players-number", "classic", ("session", "start", "--players", "Ann,7"), ("'7'", "number")),
    ("rules-unknown", "classic", ("session", "start", *FOUR, "--rules", "nosuch"),
     ("'nosuch'", "classic", "hong-kong")),
    ("rules-file-unknown-key", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/unknown-key.toml"),
     ("unknown-key.toml", "'foo'", "allowed keys")),
    ("rules-file-not-toml", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/not-toml.toml"),
     ("not-toml.toml", "not valid TOML")),
    ("rules-file-tiers-order", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/tiers-order.toml"),
     ("tiers", "10 does not rise above 13")),
    ("rules-file-tiers-start", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/tiers-start.toml"),
     ("tiers", "starts at 2")),
    ("rules-file-fry-low", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/fry-low.toml"),
     ("fry_threshold", "10 to 13")),
    ("rules-file-bad-base", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/bad-base.toml"),
     ("'nosuch'", "presets")),
    ("rules-file-bad-choice", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/bad-choice.toml"),
     ("twos", "off, each, once")),
    ("rules-file-bad-bool", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/bad-bool.toml"),
     ("assist", "true or false")),
    ("rules-file-missing", "classic", ("session", "start", *FOUR, "--rules", "{tmp}/missing.toml"),
     ("missing.toml", "cannot read")),
    ("rules-show-unknown", "classic", ("rules", "show", "nosuch"), ("'nosuch'",)),
    ("rules-show-bad-file", "classic", ("rules", "show", "{tmp}/not-toml.toml"), ("not valid TOML",)),
    *[
        (f"stake-{i}", "classic", ("session", "start", *FOUR, "--stake", stake), ("bad stake", repr(stake)))
        for i, stake in enumerate(["-1", "abc", "0", "1e3", "", "1,5", "nan", "Infinity", "0.0000001",
                                   "2000000", "0.00"])
    ],
    ("currency-digits", "classic", ("session", "start", *FOUR, "--currency", "12"), ("bad currency", "'12'")),
    ("currency-empty", "classic", ("session", "start", *FOUR, "--currency", ""), ("bad currency",)),
    ("teams-three", "classic", ("session", "start", "--players", "Ann,Ben,Cat", "--teams"),
     ("teams", "4 players", "not 3")),
    ("teams-places", "classic", ("session", "start", *FOUR, "--teams", "--rules", "places"), ("places",)),
    ("three-player-four", "classic", ("session", "start", *FOUR, "--rules", "three-player"),
     ("three-player", "68 cards", "52")),
    # -- unknown sessions --
    *[
        (f"session-42-{'-'.join(cmd[:2])}", "classic", cmd, ("no session 42",))
        for cmd in [("standings", "--session", "42"), ("settle", "--session", "42"),
                    ("log", "--session", "42"), ("deal", *DEAL, "--session", "42"),
                    ("void", "1", "--session", "42"), ("undo", "--session", "42"),
                    ("session", "show", "42"), ("session", "use", "42"),
                    ("session", "end", "--session", "42")]
    ],
    ("session-huge", "classic", ("standings", "--session", "99999999999999999999"),
     ("no session 99999999999999999999",)),
    ("session-use-huge", "classic", ("session", "use", "99999999999999999999"),
     ("no session 99999999999999999999",)),
    ("session-and-all", "classic", ("settle", "--all", "--session", "1"), ("--session", "--all")),
    ("settle-all-currencies", "two-currencies", ("settle", "--all"), ("different currencies", "EUR, USD")),
    # -- the ledger file --
    ("db-folder", "classic", ("--db", "{tmp}", "session", "list"), ("folder",)),
    ("db-no-folder", "classic", ("--db", "{tmp}/nowhere/x.db", "session", "list"), ("does not exist",)),
    ("db-not-sqlite", "classic", ("--db", "{tmp}/not-toml.toml", "session", "list"), ("not an SQLite",)),
]


@pytest.fixture
def rule_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    for name, text in RULE_FILES.items():
        (folder / name).write_text(text, "utf-8")
    return folder


def _setup(cli, name: str) -> None:
    for command in SETUPS[name]:
        cli.ok(*command)


@pytest.mark.parametrize(("setup", "args", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_clean_line(cli, ledger_path, rule_dir, setup, args, words):
    _setup(cli, setup)
    before = file_digest(ledger_path)
    args = tuple(a.replace("{tmp}", str(rule_dir)) for a in args)
    result = cli(*args)
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    message = lines[0]
    assert message.startswith("error: ")
    for word in words:
        assert word.replace("{tmp}", str(rule_dir)) in message, f"{word!r} not in {message!r}"
    assert file_digest(ledger_path) == before


def test_case_ids_are_unique():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))


def test_input_errors_exit_2_and_store_errors_exit_1(cli, tmp_path):
    cli.ok("session", "list")
    cli.fails("deal", *DEAL, code=2)
    cli.fails("--db", str(tmp_path), "session", "list", code=1)


USAGE = [
    ("void",),  # missing argument
    ("void", "abc"),
    ("amend",),
    ("session", "start"),  # missing --players
    ("session", "start", "--players"),
    ("session", "use"),
    ("deal", *DEAL, "--session", "x"),
    ("deal", *DEAL, "--nosuch"),
    ("nosuchcommand",),
    ("session", "nosuch"),
    ("rules", "show"),
]


@pytest.mark.parametrize("args", USAGE, ids=[" ".join(a) for a in USAGE])
def test_usage_errors_fail_without_traceback(cli, ledger_path, args):
    _setup(cli, "classic")
    before = file_digest(ledger_path)
    result = cli(*args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.stderr.strip(), "a usage error explains itself on stderr"
    assert file_digest(ledger_path) == before


def test_deal_without_session_on_a_new_ledger_fails_cleanly(cli):
    stderr = cli.fails("deal", *DEAL, code=2)
    assert stderr.splitlines() == [stderr.strip()]
    assert stderr.startswith("error: no current session")


@pytest.mark.no_ledger
@pytest.mark.parametrize("args", [("deal", *DEAL), ("undo",), ("standings",), ("settle",),
                                  ("log",), ("stats",), ("export", "--all")])
def test_rejected_command_on_a_new_ledger_creates_no_file(cli, ledger_path, args):
    cli.fails(*args)
    assert not ledger_path.exists()


def test_every_command_in_the_table_is_covered():
    """The issue's list, in its own words, each has at least one case above."""
    ids = " ".join(c[0] for c in CASES)
    for needed in ("no-winner", "two-winners", "player-missing", "player-repeated", "player-unknown",
                   "cards-negative", "cards-text", "cards-more-than-hand", "cards-fraction",
                   "twos-more-than-held", "twos-five-in-all", "twos-classic", "bombs-do-not-fit",
                   "assist-winner", "assist-unknown", "assist-and-missed-call", "missed-call-hong-kong",
                   "dragon-places", "order-classic", "finish-unknown", "finish-classic",
                   "teams-tie-no-shootout", "void-missing", "amend-missing", "void-already-void",
                   "players-repeated", "players-one", "players-five", "rules-unknown",
                   "rules-file-unknown-key", "rules-file-not-toml", "rules-file-tiers-order",
                   "stake-", "currency-digits", "teams-three", "three-player-four", "undo-no-deals",
                   "session-42-standings"):
        assert needed in ids, needed
