#!/usr/bin/env python3
"""Match benchmark (issue 10): simultaneous live matches on one Heartwork process on SQLite.

`--matches` pairs of friends (2 × matches players, default 1,000 matches) each play a live match
of `--minutes` over the match socket (docs/PROTOCOL.md §10), every player sending one reading a
second from a made-up series with zone steps and lost-contact stretches. Measured:

  * state latency: for each state message a player receives for second s, the receive instant
    minus the send instant of the reading that completed second s (the later of the two
    players' readings; CLOCK_MONOTONIC, shared by the load-generator processes, and both players
    of a match live in the same process);
  * correctness: every match's final scores against `heartwork compete` on the same two series
    written as CSV files (the offline engine), for every match;
  * the server's CPU (user + system from /proc) over the play, and its memory at the end.

Usage: match_benchmark.py BINARY [--matches 1000] [--minutes 1] [--workers 2] [--json out.json]
Exits 1 if a match's score differs from the offline engine's or a state message is missing.
"""
import argparse
import asyncio
import concurrent.futures
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time

# Process and HTTP helpers shared with the live-ingest benchmark.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_benchmark import free_port, percentile, process_cpu, process_rss_mb  # noqa: E402
from live_benchmark import call as call_with_status  # noqa: E402


def call(base, method, path, token=None, body=None):
    """The reply's JSON (the status is checked by urllib: an error status raises)."""
    return call_with_status(base, method, path, token, body)[1]

PASSWORD = "match-benchmark!"
BIRTH = "1992-02-22"
RESTING = 65
# Steps long enough for the 15-s rule: none, low, moderate, high, red line for resting 65 and
# age 34 (zones at 136 / 148 / 160 / 172 bpm), and lost contact (0).
LEVELS = [125, 142, 154, 166, 178]


def series(player, seconds):
    """A player's heart rate: a zone step every 20 s, shifted per player, 3 s of lost contact a minute."""
    values = []
    for second in range(seconds):
        if (second + player * 7) % 60 in (30, 31, 32):
            values.append(0)
        else:
            step = (second // 20 + player) % len(LEVELS)
            values.append(LEVELS[step] + (second + player) % 3)
    return values


def prepare(base, matches, minutes):
    """Players, friendships, invitations and acceptances, through the API (16 at a time)."""
    def player(index):
        name = f"p{index:05d}"
        call(base, "POST", "/api/auth/register", body={"username": name, "fullName": f"Player {index}", "email": f"{name}@example.org", "password": PASSWORD})
        token = call(base, "POST", "/api/auth/login", body={"username": name, "password": PASSWORD})["token"]
        me = call(base, "PATCH", "/api/me", token, {"dateOfBirth": BIRTH})
        call(base, "POST", "/api/me/resting-heart-rates", token, {"bpm": RESTING, "measuredAt": "2026-01-01T00:00:00Z"})
        return me["id"], token

    def pair(match):
        (a_id, a_token), (b_id, b_token) = players[2 * match], players[2 * match + 1]
        call(base, "POST", "/api/friend-requests", a_token, {"userID": b_id})
        call(base, "POST", "/api/friend-requests", b_token, {"userID": a_id})
        created = call(base, "POST", "/api/matches", a_token, {"opponent": b_id, "minutes": minutes})
        call(base, "POST", f"/api/matches/{created['id']}/accept", b_token)
        return created["id"]

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        players = list(pool.map(player, range(2 * matches)))
        ids = list(pool.map(pair, range(matches)))
    return [{"id": ids[m], "a": players[2 * m][1], "b": players[2 * m + 1][1], "index": m} for m in range(matches)]


async def play_worker(port, jobs, seconds, out):
    from websockets.asyncio.client import connect
    sends = {}  # (match, side, second) -> monotonic send instant
    latencies, results, problems = [], {}, []
    states = 0
    lag = []

    async def player(job, side):
        nonlocal states
        url = f"ws://127.0.0.1:{port}/api/live/matches/{job['id']}"
        values = series(2 * job["index"] + (0 if side == "a" else 1), seconds)
        async with connect(url, additional_headers={"Authorization": f"Bearer {job[side]}"}, max_size=1 << 20, open_timeout=120,
                           ping_interval=None) as websocket:
            sender = None

            async def send_all(at, length):
                for second, bpm in enumerate(values):
                    due = (at + second * length + length * 0.1) / 1000.0
                    delay = due - time.time()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    else:
                        lag.append(-delay * 1000)
                    sends[(job["index"], side, second)] = time.monotonic()
                    await websocket.send(json.dumps({"type": "reading", "second": second, "bpm": bpm}))

            async for text in websocket:
                received = time.monotonic()
                message = json.loads(text)
                kind = message.get("type")
                if kind == "start" and sender is None:
                    sender = asyncio.create_task(send_all(message["at"], message["secondMilliseconds"]))
                elif kind == "state":
                    second = message["second"]
                    a, b = sends.get((job["index"], "a", second)), sends.get((job["index"], "b", second))
                    if a is not None and b is not None:
                        latencies.append((received - max(a, b)) * 1000)
                    states += 1
                elif kind == "error":
                    problems.append(f"match {job['index']} {side}: {message.get('detail')}")
                elif kind == "end":
                    results[(job["index"], side)] = message["result"]
                    break
                elif kind == "closed":
                    problems.append(f"match {job['index']} {side} closed: {message.get('detail')}")
                    break
            if sender:
                sender.cancel()

    await asyncio.gather(*(player(job, side) for job in jobs for side in ("a", "b")), return_exceptions=False)
    out.put({"latencies": latencies, "results": {f"{m}:{s}": r for (m, s), r in results.items()}, "problems": problems[:20],
             "problem_count": len(problems), "states": states, "lag_p99": percentile(sorted(lag), 0.99) if lag else 0.0})


def worker_main(port, jobs, seconds, out):
    asyncio.run(play_worker(port, jobs, seconds, out))


def offline_scores(binary, matches, seconds, directory):
    """`heartwork compete` on each match's two series (the offline engine), four at a time."""
    def score(job):
        paths = []
        for side, player in (("a", 2 * job["index"]), ("b", 2 * job["index"] + 1)):
            path = os.path.join(directory, f"{job['index']}-{side}.csv")
            with open(path, "w") as out:
                out.write("second,bpm\n" + "\n".join(f"{s},{bpm}" for s, bpm in enumerate(series(player, seconds))) + "\n")
            paths.append(path)
        age = "34"
        report = subprocess.run([binary, "compete", *paths, "--a-age", age, "--a-resting-hr", str(RESTING), "--b-age", age,
                                 "--b-resting-hr", str(RESTING), "--format", "json"], capture_output=True, text=True, check=True)
        parsed = json.loads(report.stdout)
        return parsed["a"]["score"], parsed["b"]["score"]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return list(pool.map(score, matches))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    seconds = args.minutes * 60
    data = tempfile.mkdtemp(prefix="heartwork-match-bench-")
    port = free_port()
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--data-dir", data, "--log-level", "warning",
                               "--max-connections", str(4 * args.matches + 100)],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "server.log"), "w"),
                              env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                call(base, "GET", "/healthz")
                break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit(f"the server exited; see {data}/server.log")
                time.sleep(0.2)
        started = time.time()
        matches = prepare(base, args.matches, args.minutes)
        print(f"prepared {args.matches} matches ({2 * args.matches} players) in {time.time() - started:.0f} s", flush=True)

        queue = multiprocessing.Queue()
        shares = [matches[w::args.workers] for w in range(args.workers)]
        cpu_before = process_cpu(server.pid)
        play_started = time.time()
        workers = [multiprocessing.Process(target=worker_main, args=(port, share, seconds, queue)) for share in shares]
        for worker in workers:
            worker.start()
        outcomes = [queue.get(timeout=seconds + 600) for _ in workers]
        for worker in workers:
            worker.join()
        play_seconds = time.time() - play_started
        cpu = process_cpu(server.pid) - cpu_before
        rss = process_rss_mb(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

    latencies = sorted(value for outcome in outcomes for value in outcome["latencies"])
    results = {key: value for outcome in outcomes for key, value in outcome["results"].items()}
    expected = offline_scores(args.binary, matches, seconds, data)
    mismatches = []
    for job, (score_a, score_b) in zip(matches, expected):
        for side in ("a", "b"):
            result = results.get(f"{job['index']}:{side}")
            if result is None or (result["a"]["score"], result["b"]["score"]) != (score_a, score_b) or result["secondsPlayed"] != seconds:
                mismatches.append((job["index"], side, result and (result["a"]["score"], result["b"]["score"], result["secondsPlayed"]), (score_a, score_b)))
    states = sum(outcome["states"] for outcome in outcomes)
    summary = {
        "matches": args.matches, "players": 2 * args.matches, "seconds": seconds,
        "state_messages": states, "state_messages_expected": 2 * args.matches * seconds,
        "state_latency_ms": {name: round(percentile(latencies, q), 2) for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))} if latencies else None,
        "scores_equal_to_offline": args.matches * 2 - len(mismatches), "mismatches": mismatches[:10],
        "refused_or_closed": sum(outcome["problem_count"] for outcome in outcomes),
        "problem_samples": [p for outcome in outcomes for p in outcome["problems"]][:10],
        "server_cpu_cores": round(cpu / play_seconds, 3), "server_rss_mb": round(rss, 1),
        "client_send_lag_p99_ms": round(max(outcome["lag_p99"] for outcome in outcomes), 2),
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(summary, out, indent=1)
    if mismatches or states != summary["state_messages_expected"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
