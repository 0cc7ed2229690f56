"""The bot's time from a deal's update to its answer, beside the command line's whole
``bigtwo deal`` process on a ledger of the same size (issue 34: the bot answers within
1x the CLI's deal; docs/performance.md, "The Telegram bot").

    python benchmarks/bot_latency.py              # 30 deals each
    python benchmarks/bot_latency.py --deals 100 --json benchmarks/bot-last-run.json

The bot runs as ``bigtwo bot telegram`` against the tests' fake Bot API
(tests/bot/fakeapi.py) on a local port: the time is from the moment the update is
offered to ``getUpdates`` to the moment the bot's reply arrives (its write, the
scoreboard edited, the reply sent: three calls).  The command line's time is the whole
process, from start to exit, as a user waits for it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bot.fakeapi import FakeApi, serve  # noqa: E402

CHAT, USER = -100111, 11
LINES = ["0 3 8 12", "5 0 3 9", "2 7 0 1", "13 4 6 0"]


def bot_times(folder: Path, deals: int) -> list[float]:
    fake = FakeApi()
    fake.chat(CHAT, [USER])
    url, stop = serve(fake)
    token = folder / "token"
    token.write_text(fake.token, encoding="utf-8")
    token.chmod(0o600)
    env = {**os.environ, "BIGTWO_LANG": "en"}
    proc = subprocess.Popen([sys.executable, "-m", "ledger", "--db", str(folder / "bot.db"), "bot",
                             "telegram", "--token-file", str(token), "--api-url", url,
                             "--allow-chat", str(CHAT)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    times = []
    try:
        fake.say(CHAT, USER, "/new 陳大文 李小明 José Dan")
        fake.wait(lambda: fake.in_chat(CHAT))
        for i in range(deals):
            start = time.perf_counter()
            mid = fake.say(CHAT, USER, "/d " + LINES[i % len(LINES)])
            while not any(s.reply_to == mid for s in fake.in_chat(CHAT)):
                time.sleep(0.001)
            times.append(time.perf_counter() - start)
    finally:
        proc.kill()
        proc.wait()
        stop()
    return times


def cli_times(folder: Path, deals: int) -> list[float]:
    db = str(folder / "cli.db")
    bigtwo = [sys.executable, "-m", "ledger", "--db", db]
    env = {**os.environ, "BIGTWO_LANG": "en"}
    subprocess.run([*bigtwo, "session", "start", "--players", "陳大文,李小明,José,Dan"], check=True,
                   stdout=subprocess.DEVNULL, env=env)
    times = []
    for i in range(deals):
        start = time.perf_counter()
        subprocess.run([*bigtwo, "deal", *LINES[i % len(LINES)].split()], check=True,
                       stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bot = bot_times(Path(tmp), args.deals)
        cli = cli_times(Path(tmp), args.deals)
    result = {"deals": args.deals, "python": platform.python_version(),
              "bot_median_ms": round(statistics.median(bot) * 1000, 1),
              "bot_max_ms": round(max(bot) * 1000, 1),
              "cli_deal_median_ms": round(statistics.median(cli) * 1000, 1)}
    result["ratio"] = round(result["bot_median_ms"] / result["cli_deal_median_ms"], 2)
    print("| what | median (ms) |\n|---|---|")
    print(f"| the bot: a deal's update to its answer | {result['bot_median_ms']} "
          f"(max {result['bot_max_ms']}) |")
    print(f"| `bigtwo deal`, the whole process | {result['cli_deal_median_ms']} |")
    print(f"\nratio: {result['ratio']}x (the bound: 1x)")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
