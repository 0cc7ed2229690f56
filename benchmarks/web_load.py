"""Load on ``bigtwo serve``: phones watching the live feed while others post deals.

    python benchmarks/web_load.py                 # 50 viewers, 4 writers x 50 deals, 0.25 s apart
    python benchmarks/web_load.py --viewers 10 --deals 10 --json out.json

Starts ``bigtwo serve`` on a free port of 127.0.0.1 (loopback only) over a fresh
ledger, opens ``--viewers`` server-sent-event streams on ``/api/events?session=1`` (the phone
app's live feed: the table's board as JSON at every change), then ``--writers``
clients each post ``--deals`` deals to ``/api/record``, one after another with
``--gap`` seconds between them.  It reports

- the p50/p95/max time from sending a POST until *every* viewer has received a
  scoreboard that includes that deal,
- the p50/p95/max POST latency (request sent to answer read),
- the scorekeeper's POST latency while ``--readers`` viewers keep asking for the
  history and a chart (``/api/history``, ``/plot/net.png``), 40 deals ``--gap`` apart,
  the readers in a process of their own (as on their own phones), and how late the
  keeper's own event loop ran meanwhile (``client_loop_lag_ms``),
- the server's peak resident memory (VmHWM) and its memory at the end (VmRSS),
- the start-up time: launching ``bigtwo serve`` until it answers the scoreboard,
- a floor in the same run: one client fetching a small static file, one at a time,

and checks that the ledger holds exactly the deals posted.  Bounded: at most
``--viewers`` x (``--writers`` x ``--deals``) events, and ``--timeout`` seconds in all.
The client runs on the same machine, so it shares the CPU with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

KEY = "benchmark-key-0123456789"

def viewer_token() -> str:
    from ledger.web.auth import viewer_token as derived

    return derived(KEY)

NEXT_DEAL = re.compile(rb'"next_deal":(\d+)')
PLAYERS = "陳大文,李小明,Cat,Dan"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_server(db: Path) -> tuple[subprocess.Popen[str], str, float]:
    """A session started in ``db``, then ``bigtwo serve`` on a free loopback port:
    (process, base URL, seconds from launch until it answers a page)."""
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "session", "start",
                    "--players", PLAYERS, "--stake", "0.5", "--currency", "HKD"],
                   check=True, capture_output=True)
    launched = time.perf_counter()
    proc, base = serve(db)
    return proc, base, time.perf_counter() - launched


def serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    """``bigtwo serve`` of ``db`` on a free loopback port, once it answers a page:
    (process, base URL)."""
    import httpx

    proc = subprocess.Popen(
        [sys.executable, "-m", "ledger", "--db", str(db), "serve", "--host", "127.0.0.1",
         "--port", "0", "--token", KEY],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("scorekeeper link"):
            base = line.split(": ", 1)[1].strip().split("/entry")[0]
            while True:
                try:
                    httpx.get(base + "/", headers={"Authorization": f"Bearer {KEY}"}).raise_for_status()
                    return proc, base
                except httpx.TransportError:
                    time.sleep(0.01)
    raise SystemExit("bigtwo serve did not start:\n" + (proc.stderr.read() if proc.stderr else ""))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


async def viewer(host: str, port: int, arrivals: list[tuple[float, int]], connected: asyncio.Event,
                 want: int, stop: asyncio.Event) -> None:
    """One phone on the live feed: (arrival time, next deal number) of every update."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write((f"GET /api/events?session=1 HTTP/1.1\r\nHost: {host}:{port}\r\n"
                  f"Authorization: Bearer {KEY}\r\nAccept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass  # the response head
    connected.set()
    buffer = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                break
            now = time.perf_counter()
            buffer += chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                found = NEXT_DEAL.search(event)  # no JSON decoding: the client stays light
                if found:
                    next_deal = int(found.group(1))
                    arrivals.append((now, next_deal))
                    if next_deal > want:
                        return
    finally:
        writer.close()


async def poster(base: str, deals: int, gap: float, seat: int,
                 sent: list[tuple[float, float, int]]) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {KEY}"},
                                 timeout=30) as client:
        for i in range(deals):
            cards = [str(1 + (i + seat + k) % 12) for k in range(4)]
            cards[seat % 4] = "0"
            t0 = time.perf_counter()
            answer = await client.post("/api/record", json={"session": 1, "line": " ".join(cards)},
                                       headers={"Idempotency-Key": str(uuid.uuid4())})
            t1 = time.perf_counter()
            answer.raise_for_status()
            sent.append((t0, t1, answer.json()["deal"]))
            await asyncio.sleep(gap)


async def reader(base: str, path: str, stop: asyncio.Event, statuses: dict[str, int]) -> None:
    """A viewer asking for ``path`` (history, a chart) again and again until ``stop``."""
    import httpx

    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {viewer_token()}"},
                                 timeout=60) as client:
        while not stop.is_set():
            try:
                status = str((await client.get(path)).status_code)
            except httpx.TimeoutException:
                status = "timeout"
            statuses[status] = statuses.get(status, 0) + 1
            if status == "503":  # busy drawing: try again a second later, as a page would
                await asyncio.sleep(1)


def readers_process(base: str, readers: int, started: Any, stop: Any, answers: Any) -> None:
    """The ``readers`` viewers, in a process of their own: their own phones, not the
    keeper's.  Puts their answer counts on ``answers`` once ``stop`` is set."""
    async def run() -> dict[str, int]:
        done = asyncio.Event()
        statuses: dict[str, int] = {}
        paths = ["/api/history", "/plot/net.png?session=1"]
        asking = [asyncio.create_task(reader(base, paths[i % 2], done, statuses)) for i in range(readers)]
        started.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        done.set()
        await asyncio.gather(*asking)
        return statuses

    answers.put(asyncio.run(run()))


async def keeper_under_readers(base: str, readers: int, deals: int, gap: float) -> dict[str, object]:
    """The scorekeeper's posts while ``readers`` viewers fetch history and charts.

    The readers run in another process: timed in the same event loop as them, each POST
    also waited for this client's own turn behind sixty readers' work (its loop ran
    26 ms late at p50, 45 ms at p95), which a keeper's own phone does not.  The keeper's
    loop lag is still reported (``client_loop_lag_ms``)."""
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    started, stop, answers = spawn.Event(), spawn.Event(), spawn.Queue()
    others = spawn.Process(target=readers_process, args=(base, readers, started, stop, answers))
    others.start()
    started.wait(60)
    await asyncio.sleep(1.0)  # every reader is asking
    lags: list[float] = []
    done = asyncio.Event()
    ticking = asyncio.create_task(loop_lag(lags, done))
    sent: list[tuple[float, float, int]] = []
    t0 = time.perf_counter()
    await poster(base, deals, gap, 0, sent)
    seconds = time.perf_counter() - t0
    done.set()
    await ticking
    stop.set()
    statuses = answers.get(timeout=60)
    others.join(30)
    posts = [(t1 - t0) * 1000 for t0, t1, _ in sent]
    return {"readers": readers, "posts": len(sent), "reader_answers": statuses,
            "reader_answers_per_s": round(sum(statuses.values()) / (seconds + 1.0)),
            "post_ms": {"p50": pct(posts, 0.5), "p95": pct(posts, 0.95), "max": max(posts)},
            "client_loop_lag_ms": {"p50": pct(lags, 0.5), "p95": pct(lags, 0.95)}}


async def loop_lag(lags: list[float], stop: asyncio.Event, every: float = 0.01) -> None:
    """How late the keeper's event loop wakes a 10 ms sleep: time in every POST above
    that is the client's, not the server's."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        lags.append((time.perf_counter() - t0 - every) * 1000)


async def floor(base: str, count: int = 40) -> dict[str, float]:
    """The floor, in the same run: one client asking the same server for a small static
    file, one request at a time (what any answer costs on this machine right now)."""
    import httpx

    times = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for _ in range(count):
            t0 = time.perf_counter()
            (await client.get("/static/app/app.css")).raise_for_status()
            times.append((time.perf_counter() - t0) * 1000)
    return {"p50": pct(times, 0.5), "p95": pct(times, 0.95)}


async def load(base: str, viewers: int, writers: int, deals: int, gap: float,
               timeout: float, readers: int) -> dict[str, object]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    static = await floor(base)
    total = writers * deals
    arrivals: list[list[tuple[float, int]]] = [[] for _ in range(viewers)]
    stop = asyncio.Event()
    connected = [asyncio.Event() for _ in range(viewers)]
    watching = [asyncio.create_task(viewer(host, int(port), arrivals[i], connected[i], total, stop))
                for i in range(viewers)]
    await asyncio.wait_for(asyncio.gather(*(c.wait() for c in connected)), timeout)
    await asyncio.sleep(0.5)  # every viewer has its first scoreboard
    sent: list[tuple[float, float, int]] = []
    await asyncio.wait_for(asyncio.gather(*(poster(base, deals, gap, w, sent) for w in range(writers))),
                           timeout)
    try:
        await asyncio.wait_for(asyncio.gather(*watching), 10)
    except TimeoutError:
        stop.set()
    updates = []
    missed = 0
    for t0, _t1, deal_no in sent:
        latest = 0.0
        for got in arrivals:
            first = next((at for at, next_deal in got if next_deal > deal_no), None)
            if first is None:
                missed += 1
                continue
            latest = max(latest, first - t0)
        updates.append(latest * 1000)
    posts = [(t1 - t0) * 1000 for t0, t1, _ in sent]
    busy = await asyncio.wait_for(keeper_under_readers(base, readers, 40, gap), timeout)
    return {
        "under_readers": busy,
        "posts": len(sent), "viewers": viewers, "missed_updates": missed,
        "events_received": sum(len(a) for a in arrivals),
        "update_ms": {"p50": pct(updates, 0.5), "p95": pct(updates, 0.95), "max": max(updates)},
        "post_ms": {"p50": pct(posts, 0.5), "p95": pct(posts, 0.95), "max": max(posts)},
        "floor_static_get_ms": static,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--deals", type=int, default=50, help="deals each writer posts")
    parser.add_argument("--gap", type=float, default=0.25, help="seconds between a writer's posts")
    parser.add_argument("--readers", type=int, default=60,
                        help="viewers fetching history and charts while the keeper posts 40 deals")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if not (1 <= args.viewers <= 120 and 1 <= args.writers <= 16 and 1 <= args.deals <= 1000
            and 1 <= args.readers <= 120):
        raise SystemExit("keep it bounded: 1-120 viewers, 1-16 writers, 1-1000 deals each, "
                         "1-120 readers (the server takes 128 connections from one address)")
    folder = Path(tempfile.mkdtemp(prefix="bigtwo-web-load-"))
    db = folder / "ledger.db"
    proc, base, startup = start_server(db)
    try:
        idle = memory_kib(proc.pid)
        cpu = cpu_seconds(proc.pid)
        results = asyncio.run(load(base, args.viewers, args.writers, args.deals, args.gap, args.timeout,
                                   args.readers))
        memory = memory_kib(proc.pid)
        cpu = cpu_seconds(proc.pid) - cpu
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    log = json.loads(subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "log", "--json"],
                                    capture_output=True, text=True, check=True).stdout)
    posted = args.writers * args.deals + results["under_readers"]["posts"]  # type: ignore[index]
    results.update({
        "ledger_deals": len(log), "lost": posted - len(log),
        "server_rss_mib": {"idle": round(idle["VmRSS"] / 1024, 1), "end": round(memory["VmRSS"] / 1024, 1),
                           "peak": round(memory["VmHWM"] / 1024, 1)},
        "startup_s": round(startup, 3),
        "server_cpu_ms_per_deal": round(cpu * 1000 / max(1, len(log)), 1),
        "load_average": os.getloadavg()[0],
        "settings": vars(args) | {"json": None},
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"Python {platform.python_version()}",
    })
    met = (startup < 1.5 and results["update_ms"]["p95"] < 200 and results["post_ms"]["p95"] < 50  # type: ignore[index]
           and results["server_rss_mib"]["peak"] < 150 and results["lost"] == 0  # type: ignore[index]
           and results["missed_updates"] == 0
           and results["under_readers"]["post_ms"]["p95"] < 100)  # type: ignore[index]
    results["targets_met"] = met
    print(json.dumps(results, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
