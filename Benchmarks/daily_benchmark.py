#!/usr/bin/env python3
"""Daily health against issue 11's targets, on SQLite, in one run (release build):

  1. import a generated Apple Health export of --megabytes (default 1,024) through
     `heartwork import apple-health` into a running server: wall time from the command's start
     to the import's end (upload, parsing, storing, the export's workouts), and the server's
     peak resident set (VmHWM) — targets ≤ 2 minutes and < 300 MB;
  2. the recomputation the import queues (every day of the export, oldest first): days per
     second, and the time for a year of days — target ≤ 1 s;
  3. GET /api/days/{date} with wrk, 2 threads and 64 connections for 20 s: requests/s and
     latency percentiles — target p99 ≤ 20 ms.

    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product heartwork
    python3 Benchmarks/daily_benchmark.py .build/release/heartwork [--megabytes 1024]

The export is the one `health_export_benchmark.py` writes (per-minute heart rate, steps from a
watch and a phone, HRV with beats, sleep stages, resting heart rate, a run a day).
"""
import argparse
import datetime
import importlib.util
import json
import os
import pathlib
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("health_export_benchmark", HERE / "health_export_benchmark.py")
generator = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generator)


def call(base, method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--megabytes", type=int, default=1024)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        export = os.path.join(directory, "export.xml")
        first_day = datetime.datetime(2021, 1, 1)
        days = 0
        started = time.time()
        with open(export, "w", encoding="utf-8") as out:
            out.write(generator.HEADER)
            day = first_day
            while out.tell() < args.megabytes * 1_000_000:
                out.write(generator.day_lines(day)[0])
                day += datetime.timedelta(days=1)
                days += 1
            out.write("</HealthData>\n")
        size = os.path.getsize(export)
        print(f"wrote {size / 1e6:.0f} MB ({days} days) in {time.time() - started:.0f} s", file=sys.stderr)

        data = os.path.join(directory, "data")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--data-dir", data, "--log-level", "warning"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    call(base, "GET", "/healthz")
                    break
                except OSError:
                    time.sleep(0.2)
            call(base, "POST", "/api/auth/register", body={"username": "bench", "fullName": "Bench Mark", "email": "b@example.org", "password": "benchmark!"})
            token = call(base, "POST", "/api/auth/login", body={"username": "bench", "password": "benchmark!"})["token"]
            call(base, "PATCH", "/api/me", token, body={"dateOfBirth": "1990-01-01", "sex": "female"})

            # 1. The import.
            started = time.perf_counter()
            result = subprocess.run([args.binary, "import", "apple-health", export, "--server", base, "--token", token, "--format", "json"],
                                    capture_output=True, text=True)
            import_seconds = time.perf_counter() - started
            imported_at = time.perf_counter()
            if result.returncode != 0:
                print(result.stdout, result.stderr, file=sys.stderr)
                sys.exit(1)
            summary = json.loads(result.stdout)
            import_rss = peak_rss_mib(server.pid)

            # 2. The recomputation the import queued: done when the last day is there.
            last = (first_day + datetime.timedelta(days=days - 1)).strftime("%Y-%m-%d")
            while True:
                day = call(base, "GET", f"/api/days/{last}", token)
                if day.get("hasData"):
                    break
                if time.perf_counter() - imported_at > 1800:
                    raise SystemExit("the recomputation did not finish in 30 minutes")
                time.sleep(0.05)
            recompute_seconds = time.perf_counter() - imported_at
            computed = len(call(base, "GET", f"/api/days?from={first_day:%Y-%m-%d}&to={(first_day + datetime.timedelta(days=365)):%Y-%m-%d}", token)["days"])
            peak = peak_rss_mib(server.pid)

            # 3. GET a day under load.
            wrk = subprocess.run(["wrk", "-t2", "-c64", "-d20s", "--latency", "-H", f"Authorization: Bearer {token}",
                                  f"{base}/api/days/{(first_day + datetime.timedelta(days=days // 2)):%Y-%m-%d}"],
                                 capture_output=True, text=True, check=True).stdout
            rate = float(re.search(r"Requests/sec:\s+([0-9.]+)", wrk).group(1))

            def latency(label):
                value, unit = re.search(rf"\s{label}%\s+([0-9.]+)(us|ms|s)", wrk).groups()
                return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
            errors = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)
            with sqlite3.connect(os.path.join(data, "heartwork.sqlite")) as database:
                blocks = database.execute("SELECT SUM(LENGTH(data)), SUM(sample_count) FROM health_blocks").fetchone()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)

    print("Daily health benchmarks (release build, SQLite, this machine: 2 cores shared by server, client and wrk)")
    print()
    print(f"1. import of a {size / 1e6:,.0f} MB export.xml ({days} days; {summary['samplesRead']:,} samples, {summary['samplesAdded']:,} stored; "
          f"{summary['workoutsAdded']} workouts) with `heartwork import apple-health`:")
    print(f"   {import_seconds:.1f} s from the command's start to the import's end (target ≤ 120 s); server peak RSS {import_rss:.0f} MiB (target < 300 MB)")
    print(f"   stored: {blocks[0] / 1e6:.1f} MB of sample blocks for {blocks[1]:,} samples ({blocks[0] / max(1, blocks[1]):.1f} bytes a sample)")
    print(f"2. recomputation of every day ({days} days, oldest first): {recompute_seconds:.1f} s, {days / recompute_seconds:.0f} days/s "
          f"→ a year of days in {365 * recompute_seconds / days:.2f} s (target ≤ 1 s); {computed} days of the first year read back; "
          f"server peak RSS after it {peak:.0f} MiB")
    print(f"3. GET /api/days/{{date}}, wrk 2 threads, 64 connections, 20 s: {rate:,.0f} requests/s; latency p50 {latency('50'):.2f} ms, "
          f"p90 {latency('90'):.2f} ms, p99 {latency('99'):.2f} ms (target ≤ 20 ms); non-2xx {int(errors.group(1)) if errors else 0}")


if __name__ == "__main__":
    main()
