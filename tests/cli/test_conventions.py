"""Command-line conventions: --version, completion, --db anywhere, "did you mean",
headers, plurals, session end's final word, redeal-check's 13 cards, demo cleanup,
and reports that fall back to --all when no session is current."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FOUR = ("--players", "Ann,Ben,Cat,Dan")


def test_version(cli) -> None:
    from ledger import __version__

    assert cli.ok("--version").strip() == f"bigtwo {__version__}"


def test_completion_options_are_offered(cli) -> None:
    out = cli.ok("--help")
    assert "--install-completion" in out and "--show-completion" in out


@pytest.mark.no_ledger
def test_db_before_or_after_the_subcommand(cli, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    cli.ok("session", "start", *FOUR, "--db", str(other))
    cli.ok("deal", "0", "3", "11", "8", f"--db={other}")
    assert json.loads(cli.ok("standings", "--json", "--db", str(other)))["players"][0]["deals"] == 1
    assert json.loads(cli.ok("--db", str(other), "log", "--json"))[0]["deal"] == 1
    assert not (tmp_path / "ledger.db").exists()  # BIGTWO_DB's ledger was never touched


@pytest.mark.parametrize(("typed", "meant"), [
    ("stat", "'stats'"), ("histroy", "'history'"), ("tabel", "'table'"), ("exprot", "'export'"),
    ("standing", "'standings'"),
])
def test_did_you_mean_covers_every_command(cli, typed: str, meant: str) -> None:
    result = cli(typed)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: no such command '{typed}'; did you mean {meant}")
    assert result.stderr.endswith("? (see 'bigtwo --help')\n") and result.stderr.count("\n") == 1


def test_did_you_mean_for_players_and_presets(cli) -> None:
    cli.ok("session", "start", *FOUR)
    assert "did you mean 'Ben'?" in cli.fails("deal", "Ann=0", "Bne=3", "Cat=1", "Dan=2")
    assert "did you mean hong-kong?" in cli.fails("rules", "show", "hongkong")


def test_session_list_has_a_header_on_every_column_and_plurals_are_right(cli) -> None:
    cli.ok("session", "start", *FOUR)
    out = cli.ok("deal", "0", "3", "11", "8")
    header = cli.ok("session", "list").splitlines()[0].split()
    assert header == ["current", "id", "date", "name", "players", "rules", "stake", "deals", "status"]
    assert cli.ok("session", "show").startswith("session 1: Ann, Ben, Cat, Dan — rules classic, "
                                                 "stake 1 PTS per point, 1 deal\n")
    assert "1 deals" not in out
    assert "#    deal    entry    facts" in cli.ok("log") and "status" in cli.ok("log")


def test_session_end_gives_the_final_standings_and_settlement(cli) -> None:
    cli.ok("session", "start", *FOUR, "--stake", "0.5", "--currency", "HKD")
    cli.ok("deal", "0", "3", "11", "8")
    out = cli.ok("session", "end")
    assert out.startswith("ended session 1:")
    assert ", ended 20" in out.splitlines()[0]  # a readable local time, no ISO "T"
    assert "T" not in out.splitlines()[0].split("ended 20")[1]
    assert "player  deals  wins  fried  penalty  net     HKD" in out
    assert "fewest payments (3):" in out


def test_redeal_check_wants_the_13_cards_as_dealt(cli) -> None:
    assert "13 cards (17 or 18 with three players), not 3" in cli.fails(
        "redeal-check", "JS QH 3D", code=2)
    assert "13 cards (17 or 18 with three players), not 14" in cli.fails(
        "redeal-check", "JS QH 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S 6S", code=2)
    assert cli.ok("redeal-check", "JS QH 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S").startswith("13 cards")


def test_redeal_check_takes_three_player_hands_and_four_twos(cli) -> None:
    """Wikipedia: "a hand with only 3 points or less" (17 cards with three players); the
    Russian article: a hand with all four twos may ask for a reshuffle (doubling)."""
    seventeen = "JS QH 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S 6S 7S 8S 9S"
    assert cli.ok("redeal-check", seventeen).startswith("17 cards, hand points")
    twos = "2S 2H 2C 2D 3D 4D 5C 6C 7C 8C 9C 10S 3S"
    assert "so no redeal" in cli.ok("redeal-check", twos)
    assert "all four twos: the holder may ask for a reshuffle (rules doubling)" in cli.ok(
        "redeal-check", twos, "--rules", "doubling")


@pytest.mark.no_ledger
def test_demo_leaves_no_folder_behind_unless_kept(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path), "COLUMNS": "200"}
    env.pop("BIGTWO_DB", None)
    run = subprocess.run([sys.executable, "-m", "ledger", "demo"], capture_output=True, text=True,
                         env=env, check=True)
    assert "removed now" in run.stdout
    assert ".png" not in run.stdout  # no plot named in a folder it removes
    assert list(tmp_path.iterdir()) == []
    kept = subprocess.run([sys.executable, "-m", "ledger", "demo", "--keep"], capture_output=True,
                          text=True, env=env, check=True)
    folders = list(tmp_path.iterdir())
    assert len(folders) == 1 and (folders[0] / "demo.db").exists()
    assert (folders[0] / "demo-net.png").exists() and "removed" not in kept.stdout
    assert f"{folders[0].resolve() / 'demo-net.png'}" in kept.stdout  # the plot where it says


def test_reports_use_all_sessions_when_none_is_current(cli, tmp_path: Path) -> None:
    sheet = tmp_path / "year.txt"
    sheet.write_text("2025-01-03\nAnn Ben Cat Dan\n0 3 11 8\n5 0 2 7\n2025-01-10\n"
                     "Ann Ben Cat Dan\n0 1 2 3\n", "utf-8")
    cli.ok("import", str(sheet))
    for args in (("standings",), ("settle",), ("stats",)):
        result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
        assert result.stderr.count("\n") == 1 and "showing all sessions (--all)" in result.stderr
    # history lists every session a page at a time whatever is current: nothing to notice
    assert cli("history").stderr == "" and cli("history", "--all").stderr == ""
    assert json.loads(cli.ok("standings", "--json"))["players"][0]["deals"] == 3
    cli.ok("session", "use", "1")
    assert cli("standings").stderr == ""  # a current session again: no notice


def test_undo_walks_back_through_session_end_and_corrections(cli) -> None:
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("amend", "1", "0", "4", "11", "8")
    cli.ok("session", "end")
    assert "undone: the end of session 1" in cli.ok("undo")
    assert "undone: the amendment of deal 1 (Ann=0 Ben=4 Cat=11 Dan=8) — deal 1 is back to " \
        "Ann=0 Ben=3 Cat=11 Dan=8" in cli.ok("undo")
    assert cli.ok("undo").startswith("undone: deal 1 (Ann=0 Ben=3 Cat=11 Dan=8)")
    assert "nothing left to undo in session 1" in cli.fails("undo", code=2)
    assert cli.ok("deal", "0", "1", "1", "1").startswith("deal 2:")  # open again, numbers go on
    assert cli.ok("doctor").startswith("ok: 1 session, 5 entries, 1 live deal,")


def test_standings_by_month_and_year_is_a_league_table(cli, tmp_path: Path) -> None:
    sheet = tmp_path / "year.txt"
    sheet.write_text("2025-01-03\nAnn Ben Cat Dan\n0 3 11 8\n2025-01-10\nAnn Ben Cat Eve\n0 1 2 3\n"
                     "2025-02-07\nAnn Ben Cat Dan\n5 0 2 7\n", "utf-8")
    cli.ok("import", str(sheet))
    league = json.loads(cli.ok("standings", "--by", "month", "--json"))
    assert [b["period"] for b in league] == ["2025-01", "2025-02"]
    jan = {r["player"]: r for r in league[0]["players"]}
    assert (jan["Ann"]["sessions"], jan["Dan"]["sessions"], jan["Eve"]["sessions"]) == (2, 1, 1)
    assert jan["Ann"]["deals"] == 2 and jan["Ann"]["wins"] == 2
    assert sum(r["net"] for r in jan.values()) == 0
    assert league[0]["players"][0]["player"] == "Ann"  # by money, most first
    year = json.loads(cli.ok("standings", "--by", "year", "--json"))
    assert [b["period"] for b in year] == ["2025"] and len(year[0]["players"]) == 5
    text = cli.ok("standings", "--by", "month")
    assert text.startswith("2025-01 (PTS)\nplayer") and "sessions" in text  # one block per currency
    assert "month or year" in cli.fails("standings", "--by", "week", code=2)


def test_an_ended_session_is_told_in_local_time(cli, monkeypatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Hong_Kong")
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "0", "1", "2", "3")
    cli.ok("session", "end")
    ended = json.loads(cli.ok("session", "list", "--json"))[0]["ended_at"]
    from ledger.book.clock import local_minute

    shown = local_minute(ended)  # "YYYY-MM-DD HH:MM" in Hong Kong, not the stored ISO UTC
    for args in (["session", "end"], ["deal", "0", "1", "2", "3"]):
        err = cli.fails(*args)
        assert f"ended at {shown}" in err and ended not in err and err.count("\n") == 1
    result = cli("table", input="0 1 2 3\n")
    assert f"ended at {shown};" in result.output and result.exit_code != 0
