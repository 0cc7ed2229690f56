"""bigtwo plot: every kind writes a real, non-blank PNG / SVG / PDF; names, sizes and errors."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from helpers import ROOT
from history_ledger import add_session, build

from ledger.book import stats
from ledger.book.scope import select
from ledger.present import fonts, plots
from ledger.storage.store import open_ledger

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-"}


@pytest.fixture
def ledger(ledger_path):
    with open_ledger(ledger_path) as led:
        build(led)
        yield led


def assert_real_image(path: Path) -> None:
    data = path.read_bytes()
    assert len(data) > 5_000, f"{path} is only {len(data)} bytes"
    if path.suffix == ".svg":
        assert b"<svg" in data[:2000]
        return
    assert data.startswith(MAGIC[path.suffix])
    if path.suffix == ".png":
        from matplotlib.image import imread

        pixels = imread(path)
        assert pixels.ndim == 3 and pixels.shape[0] > 300 and pixels.shape[1] > 600
        assert pixels[..., :3].std() > 0.05  # lines and text, not a blank canvas


@pytest.mark.parametrize("kind", sorted(plots.KINDS))
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_every_kind_writes_a_real_file(cli, ledger, tmp_path, kind, suffix):
    out = tmp_path / f"chart{suffix}"
    scope = ["--session", "1"] if kind == "net" else ["--all"]
    printed = cli.ok("plot", *scope, "--kind", kind, "--out", str(out))
    assert printed.strip() == str(out.resolve())
    assert_real_image(out)


def test_same_ledger_draws_the_same_bytes(cli, ledger, tmp_path):
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    cli.ok("plot", "--all", "--kind", "timeline", "--out", str(a))
    cli.ok("plot", "--all", "--kind", "timeline", "--out", str(b))
    assert a.read_bytes() == b.read_bytes()


def test_without_out_a_named_file_in_the_current_folder(cli, ledger, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    printed = cli.ok("plot").strip()  # current session (3), one session: net
    assert printed == str(tmp_path / "bigtwo-net-session-3.png")
    assert_real_image(Path(printed))
    printed = cli.ok("plot", "--all").strip()
    assert printed == str(tmp_path / "bigtwo-timeline-all.png")
    printed = cli.ok("plot", "--since", "2024-03-05", "--kind", "rates").strip()
    assert printed == str(tmp_path / "bigtwo-rates-2024-03-08-to-2024-04-02.png")
    assert_real_image(Path(printed))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "pie"], "unknown plot kind 'pie'"),
        (["--out", "chart.jpg"], ".png, .svg, .pdf"),
        (["--out", "/no/such/folder/chart.png"], "does not exist"),
        (["--all", "--kind", "net"], "draws one session"),
        (["--all", "--session", "1"], "not both"),
        (["--since", "03/01/2024"], "YYYY-MM-DD"),
    ],
)
def test_bad_input_is_one_clean_line(cli, ledger, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    err = cli.fails("plot", *args, code=2)
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.png"))


def test_teams_session_draws_one_line_per_team(cli, ledger, tmp_path):
    add_session(ledger, ["Ann", "Ben", "Cat", "Dan"],
                ["Ann=0 Ben=3 Cat=1 Dan=2", "Ann=4 Ben=0 Cat=6 Dan=1"], "2024-05-02", teams=True)
    out = tmp_path / "teams.svg"
    cli.ok("plot", "--out", str(out))
    text = out.read_text()
    assert "Ann+Cat" in text and "Ben+Dan" in text


def test_a_long_history_is_summed_per_period(ledger_path):
    with open_ledger(ledger_path) as led:
        day = date(2023, 1, 2)
        for i in range(60):
            add_session(led, ["Ann", "Ben"], [f"Ann=0 Ben={1 + i % 9}"], day.isoformat())
            day += timedelta(days=9)
        scope = select(led, None, True)
        period, groups = plots.group_results(stats.chart_values(led, scope, money=True))
    assert period == "month"
    assert len(groups) <= plots.MAX_GROUPS
    total = sum(g["Ann"] for g in groups.values())
    assert total == sum(1 + i % 9 for i in range(60))  # nothing lost by grouping


def test_a_long_session_is_summed_in_buckets(ledger_path, tmp_path, monkeypatch):
    monkeypatch.setattr(plots, "MAX_POINTS", 10)
    with open_ledger(ledger_path) as led:
        s = add_session(led, ["Ann", "Ben"], [f"Ann=0 Ben={1 + i % 3}" for i in range(45)],
                        "2024-01-01")
        rows = led.totals.deal_nets(s.id, 5)
        out = plots.plot(led, select(led, s.id, False), "net", tmp_path / "n.png")
    assert len(rows) == 2 * 9 and rows[-1][0] == 45
    assert sum(net for _d, name, net in rows if name == "Ann") == sum(1 + i % 3 for i in range(45))
    assert_real_image(out)


def test_thin_keeps_ends_and_limit():
    points = list(range(10_000))
    kept = plots.thin(points, 100)
    assert len(kept) == 100 and kept[0] == 0 and kept[-1] == 9_999


def test_colours_are_stable_per_player():
    from ledger.core.palette import COLOURS, DISTINCT

    assert plots.colour(1) == plots.colour(1 + DISTINCT)
    assert len({plots.colour(i) for i in range(1, len(COLOURS) + 1)}) == len(COLOURS)


def test_plotting_module_is_not_imported_by_the_cli():
    import subprocess
    import sys

    code = ("import sys, ledger.cli.app; "
            "print(any(m.startswith(('matplotlib', 'openskill', 'ledger.present.plots'))"
            " for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_demo_writes_a_plot(cli, tmp_path):
    db = tmp_path / "demo.db"
    out = cli.ok("--db", str(db), "demo")
    line = next(x for x in out.splitlines() if x.startswith("plot: "))
    assert_real_image(Path(line.removeprefix("plot: ")))


def test_docs_show_every_kind():
    root = ROOT
    page = (root / "docs" / "plots.md").read_text()
    for kind in plots.KINDS:
        assert (root / "docs" / "img" / f"{kind}.png").is_file(), "run scripts/make_doc_plots.py"
        assert f"`--kind {kind}`" in page and f"img/{kind}.png" in page


def rendered(figure):
    """Lay the figure out as savefig would; its renderer, to measure artists in pixels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure).draw()
    return figure.canvas.get_renderer()


def all_axes(figure):
    """Every axes of the figure, with the secondary (money) axes they carry."""
    for ax in figure.axes:
        yield ax
        yield from ax.child_axes


def legends(figure):
    return [*figure.legends, *(ax.get_legend() for ax in figure.axes if ax.get_legend())]


def test_net_legend_covers_no_axis_labels_and_no_data(ledger):
    scope = select(ledger, 1, False)  # stake 0.5 USD: a money axis on the right
    assert scope.sessions[0].stake == "0.5"
    figure = plots.draw(ledger, scope, "net")
    renderer = rendered(figure)
    assert figure.axes[0].child_axes, "the money axis is drawn"
    [legend] = legends(figure)
    box = legend.get_window_extent(renderer)
    texts = [t for ax in all_axes(figure)
             for t in (*ax.get_xticklabels(), *ax.get_yticklabels(),
                       ax.xaxis.label, ax.yaxis.label, ax.title)
             if t.get_visible() and t.get_text()]
    assert any(t.get_text() for ax in figure.axes[0].child_axes for t in ax.get_yticklabels())
    for t in texts:
        assert not box.overlaps(t.get_window_extent(renderer)), f"legend covers {t.get_text()!r}"
    assert not box.overlaps(figure.axes[0].get_window_extent(renderer)), "legend covers the lines"


def test_rating_plot_order_bars_and_labels_agree_with_stats(cli, ledger):
    import json
    import re

    # A newcomer who won her two deals: the highest mu, but the widest sigma, so
    # `stats` (mu - 3 sigma) ranks her below the regulars.
    add_session(ledger, ["Ann", "Fay"], ["Ann=5 Fay=0", "Ann=7 Fay=0"], "2024-05-01")
    players = json.loads(cli.ok("stats", "--all", "--json"))["players"]
    rated = {p["name"]: p["rating"] for p in players}
    by_stats = sorted(rated, key=lambda n: (-rated[n]["conservative"], n))
    by_mu = sorted(rated, key=lambda n: -rated[n]["mu"])
    assert by_stats != by_mu  # the two orders differ here, so the test can tell them apart
    figure = plots.draw(ledger, select(ledger, None, True), "rating")
    rendered(figure)
    [ax] = figure.axes
    shown = [t.get_text() for t in sorted(ax.get_yticklabels(), key=lambda t: -t.get_position()[1])]
    assert shown == by_stats
    labels = {round(a.xy[1]): a.get_text() for a in ax.texts}
    assert len(ax.containers) == len(shown)
    for bars in ax.containers:
        (x0, y), (x1, _y) = bars.lines[2][0].get_segments()[0]
        said = re.fullmatch(r"μ ([\d.]+), σ ([\d.]+); μ − 3σ (-?[\d.]+)", labels[round(y)])
        assert said, labels[round(y)]
        mu, sigma = float(said[1]), float(said[2])
        name = shown[len(shown) - 1 - round(y)]
        assert abs((x1 - x0) / 2 - sigma) <= 0.05 and abs((x0 + x1) / 2 - mu) <= 0.05
        assert abs(rated[name]["sigma"] - sigma) <= 0.05 and abs(rated[name]["mu"] - mu) <= 0.05
    assert "μ ± σ" in ax.get_xlabel() and "μ − 3σ" in ax.get_xlabel()


@pytest.mark.parametrize(("players", "panels"), [(4, 1), (5, 5), (8, 8)])
def test_distribution_draws_a_small_panel_per_player_beyond_four(ledger_path, players, panels):
    club = ["Ann", "Ben", "Cat", "Dan", "陳大文", "李小明", "Eve", "Fay"][:players]
    with open_ledger(ledger_path) as led:
        for i in range(players):  # each table of four seats a different four
            seats = [club[(i + k) % players] for k in range(min(4, players))]
            deals = [" ".join(f"{n}={0 if k == j % len(seats) else (j + k) % 9 + 1}"
                              for k, n in enumerate(seats)) for j in range(6)]
            add_session(led, seats, deals, f"2024-02-{i + 1:02d}")
        with fonts.Fonts(lambda line: None):  # the Chinese names in their font
            figure = plots.draw(led, select(led, None, True), "distribution")
            rendered(figure)
    axes = figure.axes  # the subfigures' axes too
    assert len(axes) == panels + 1  # and the penalty box plot
    if panels > 1:
        cells = [a for a in axes if a.get_title(loc="left") in club]
        assert sorted(a.get_title(loc="left") for a in cells) == sorted(club)  # one each, named
        assert len({a.get_xlim() for a in cells}) == 1 and len({a.get_ylim() for a in cells}) == 1
