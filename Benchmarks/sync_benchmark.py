#!/usr/bin/env python3
"""Phone sync at its largest realistic size (issue 24): one Health Auto Export payload with a
day of per-second heart rate (86,400 entries, as the app sends with "seconds" grouping) plus
a week of the other metrics (hourly steps, resting heart rate, HRV, the nights' sleep in the
aggregated form, a weight a day), posted to `POST /api/sync/health-auto-export`.

    swift build -c release --product heartwork
    python3 Benchmarks/sync_benchmark.py .build/release/heartwork

Measures, against a fresh server on SQLite in a temporary data directory:
- the time to answer the first post (read, stored, workouts, arrival recorded);
- the time until the week is recomputed (every day of it answers with data: the job queue);
- the server's peak resident set (VmHWM) before and after;
- a resend of the same payload: its time, and that nothing is stored twice (added 0, every
  sample `already`, the store's sample count unchanged).
The ratios reported: the resend's time to the first post's, and the first post's (read,
checked, stored, answered) to CPython's `json.loads` of the same bytes in the same run (the
named baseline: parsing alone, no checks, nothing stored).
"""
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)


def call(base, method, path, body=None, token=None, raw=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, method=method, data=data)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=600) as response:
        text = response.read()
        return json.loads(text) if text else None


def peak_rss_mib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def stamp(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S +0000")


def payload(today):
    start_day = datetime.datetime.combine(today - datetime.timedelta(days=7), datetime.time(0), tzinfo=datetime.timezone.utc)
    last_day = datetime.datetime.combine(today - datetime.timedelta(days=1), datetime.time(0), tzinfo=datetime.timezone.utc)
    heart = []
    for second in range(86_400):
        bpm = 55 + (second * 7919) % 60
        heart.append({"date": stamp(last_day + datetime.timedelta(seconds=second)), "Min": bpm, "Avg": bpm, "Max": bpm, "source": "Anna’s Apple Watch"})
    steps, resting, hrv, sleep, weight = [], [], [], [], []
    for d in range(7):
        day = start_day + datetime.timedelta(days=d)
        for hour in range(7, 22):
            steps.append({"qty": 300 + hour * 11, "date": stamp(day + datetime.timedelta(hours=hour))})
        resting.append({"qty": 50 + d % 3, "date": stamp(day)})
        hrv.append({"qty": 40 + d, "date": stamp(day + datetime.timedelta(hours=3))})
        bed = day - datetime.timedelta(minutes=60)
        sleep.append({"date": day.strftime("%Y-%m-%d"), "core": 4.5, "deep": 1.25, "rem": 1.5, "asleep": 0, "totalSleep": 7.25,
                      "sleepStart": stamp(bed + datetime.timedelta(minutes=15)), "sleepEnd": stamp(day + datetime.timedelta(hours=7)),
                      "inBedStart": stamp(bed), "inBedEnd": stamp(day + datetime.timedelta(hours=7, minutes=10)), "inBed": 8.17})
        weight.append({"qty": 154 + d * 0.2, "date": stamp(day + datetime.timedelta(hours=7, minutes=30))})
    metrics = [
        {"name": "heart_rate", "units": "count/min", "data": heart},
        {"name": "step_count", "units": "count", "data": steps},
        {"name": "resting_heart_rate", "units": "count/min", "data": resting},
        {"name": "heart_rate_variability", "units": "ms", "data": hrv},
        {"name": "sleep_analysis", "units": "hr", "data": sleep},
        {"name": "weight_body_mass", "units": "lb", "data": weight},
    ]
    expected = len(heart) + len(steps) + len(resting) + len(hrv) + 4 * len(sleep) + len(weight)
    return {"data": {"metrics": metrics, "workouts": []}}, expected, [(start_day + datetime.timedelta(days=d)).date() for d in range(7)]


def main():
    binary = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".build/release/heartwork")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-sync-bench-")
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    try:
        for _ in range(200):
            try:
                call(base, "GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        call(base, "POST", "/api/auth/register", {"username": "bench", "fullName": "Bench Mark", "email": "bench@example.org", "password": "bench password"})
        session = call(base, "POST", "/api/auth/login", {"username": "bench", "password": "bench password"})["token"]
        token = call(base, "POST", "/api/sync-tokens", {"name": "Bench iPhone"}, token=session)["token"]
        today = datetime.datetime.now(datetime.timezone.utc).date()
        body, expected, days = payload(today)
        raw = json.dumps(body).encode()
        idle_rss = peak_rss_mib(server.pid)
        parse_started = time.perf_counter()
        json.loads(raw)
        python_parse = time.perf_counter() - parse_started

        started = time.perf_counter()
        first = call(base, "POST", "/api/sync/health-auto-export", raw=raw, token=token)
        answered = time.perf_counter() - started
        assert first["added"]["samples"] == expected, (first["added"], expected)
        # The recomputation: every day of the week has its data.
        while True:
            listed = call(base, "GET", f"/api/days?from={days[0]}&to={days[-1]}", token=session)
            items = listed.get("days", listed.get("items", []))
            if len(items) == 7 and all(day.get("hasData") and day.get("steps") for day in items):
                break
            if time.perf_counter() - started > 600:
                raise SystemExit("the week was not recomputed within 10 minutes")
            time.sleep(0.05)
        recomputed = time.perf_counter() - started
        first_rss = peak_rss_mib(server.pid)

        started = time.perf_counter()
        again = call(base, "POST", "/api/sync/health-auto-export", raw=raw, token=token)
        resent = time.perf_counter() - started
        assert again["added"]["samples"] == 0 and again["already"]["samples"] == expected and again["updated"] == 0, again
        resend_rss = peak_rss_mib(server.pid)
        print(json.dumps({
            "payloadMegabytes": round(len(raw) / 1e6, 1), "entries": expected,
            "firstAnswerSeconds": round(answered, 2), "recomputedWeekSeconds": round(recomputed, 2),
            "resendSeconds": round(resent, 2), "resendToFirstRatio": round(resent / answered, 2),
            "cpythonJsonLoadsSeconds": round(python_parse, 2), "firstToJsonLoadsRatio": round(answered / python_parse, 2),
            "peakRSSMiB": {"idle": round(idle_rss, 1), "afterFirst": round(first_rss, 1), "afterResend": round(resend_rss, 1)},
            "resend": {"added": again["added"]["samples"], "already": again["already"]["samples"]},
        }, indent=1))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
