#!/usr/bin/env python3
"""Measures the Heartwork server against issue #4's targets, on SQLite, in one run:

  1. uploading a 2-hour workout (7,200 HR samples, 9,000 RR intervals, 7,200 GPS points):
     time inside the server (from its own request-duration histogram) and as the client sees it;
  2. GET /api/workouts (20 per page) with wrk at 64 connections: requests/s and p99 latency;
  3. the bytes a 2-hour workout's streams take in the database.
"""
import json
import os
import pathlib
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)


def call(base, method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=body)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.read()


def two_hour_workout(start):
    return json.dumps({
        "sport": "running", "startTime": start, "indoor": False,
        "heartRate": [120 + (i % 40) for i in range(7200)],
        "rrIntervals": [round(600 + (i % 50) + 0.25, 2) for i in range(9000)],
        "track": [{"lat": round(48.2 + i * 1e-5, 7), "lon": round(16.37 + (i % 100) * 1e-5, 7), "ele": 180.5, "t": i} for i in range(7200)],
    }).encode()


def histogram_mean(metrics, route, method):
    pattern = rf'heartwork_http_request_duration_seconds_(sum|count)\{{method="{method}",route="{re.escape(route)}"\}} ([0-9.e+-]+)'
    values = dict(re.findall(pattern, metrics))
    return float(values["sum"]) / float(values["count"]), int(float(values["count"]))


def start_server(binary, data, read_cache=True):
    port = free_port()
    environment = dict(os.environ, HEARTWORK_READ_CACHE="on" if read_cache else "off")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data, "--log-level", "warning"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            call(base, "GET", "/healthz")
            break
        except OSError:
            time.sleep(0.2)
    return server, base


def stop(server):
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)


def load(base, token):
    """wrk on the list endpoint: requests/s, latency percentiles (ms), non-2xx count."""
    wrk = subprocess.run(["wrk", "-t2", "-c64", "-d20s", "--latency", "-H", f"Authorization: Bearer {token}",
                          f"{base}/api/workouts?limit=20"], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([0-9.]+)", wrk).group(1))
    def latency(label):
        value, unit = re.search(rf"\s{label}%\s+([0-9.]+)(us|ms|s)", wrk).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)
    return rate, latency("50"), latency("90"), latency("99"), int(errors.group(1)) if errors else 0


def main():
    binary = sys.argv[1]
    data = tempfile.mkdtemp(prefix="heartwork-bench-")
    server, base = start_server(binary, data)
    try:
        call(base, "POST", "/api/auth/register", body=json.dumps({"username": "bench", "fullName": "Bench Mark", "email": "b@example.org", "password": "benchmark!"}).encode())
        token = json.loads(call(base, "POST", "/api/auth/login", body=json.dumps({"username": "bench", "password": "benchmark!"}).encode())[1])["token"]
        call(base, "PATCH", "/api/me", token, json.dumps({"dateOfBirth": "1990-01-01", "sex": "male"}).encode())
        call(base, "POST", "/api/me/resting-heart-rates", token, json.dumps({"bpm": 58}).encode())
        call(base, "POST", "/api/me/weights", token, json.dumps({"kilograms": 72}).encode())

        # 1. Two-hour uploads.
        client_times, ids = [], []
        for index in range(25):
            body = two_hour_workout(f"2026-10-{1 + index:02d}T07:00:00Z")
            start = time.perf_counter()
            status, reply = call(base, "POST", "/api/workouts", token, body)
            client_times.append(time.perf_counter() - start)
            ids.append(json.loads(reply)["summary"]["id"])
        metrics = call(base, "GET", "/metrics")[1].decode()
        server_mean, uploads = histogram_mean(metrics, "/api/workouts", "POST")
        payload = len(two_hour_workout("2026-10-01T07:00:00Z"))

        # 3. Stored size of one 2-hour workout's streams.
        with sqlite3.connect(os.path.join(data, "heartwork.sqlite")) as database:
            sizes = database.execute(
                "SELECT length(heart_rate), length(rr), length(track) FROM workout_streams WHERE workout_id = ?", (ids[0],)).fetchone()

        # 2. The list endpoint under load: more rows so pages are real, then wrk.
        for index in range(200):
            small = json.dumps({"sport": "cycling", "startTime": f"2026-09-{1 + index % 28:02d}T{index % 24:02d}:00:00Z",
                                "heartRate": [130] * 60}).encode()
            call(base, "POST", "/api/workouts", token, small)
        cached = load(base, token)
        stop(server)
        server, base = start_server(binary, data, read_cache=False)
        uncached = load(base, token)

        print("Heartwork server benchmarks (release build, SQLite, one machine with 2 cores shared with wrk)")
        print()
        print(f"2-hour upload ({payload / 1024:.0f} KiB JSON: 7,200 HR, 9,000 RR, 7,200 GPS points), {uploads} uploads:")
        print(f"  time in the server (mean, from its request histogram): {server_mean * 1000:7.1f} ms   target ≤ 50 ms")
        print(f"  as the client sees it (median):                        {statistics.median(client_times) * 1000:7.1f} ms")
        print("GET /api/workouts (20 per page), wrk 2 threads, 64 connections, 20 s:")
        for label, (rate, p50, p90, p99, errors) in [("lists cached in memory (the default on SQLite)", cached),
                                                      ("HEARTWORK_READ_CACHE=off (every list from SQLite)", uncached)]:
            print(f"  {label}:")
            print(f"    throughput {rate:7.0f} requests/s (target ≥ 5,000); latency p50 {p50:.2f} ms, p90 {p90:.2f} ms, "
                  f"p99 {p99:.2f} ms (target ≤ 20 ms); non-2xx {errors}")
        total = sum(sizes)
        print(f"2-hour workout streams stored: {total:,} bytes (HR {sizes[0]:,}, RR {sizes[1]:,}, GPS {sizes[2]:,})   target ≤ 200 kB")
    finally:
        if server.poll() is None:
            stop(server)


if __name__ == "__main__":
    main()
