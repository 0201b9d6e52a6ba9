#!/usr/bin/env python3
"""Issue 29's mixed load: a user with 300 workouts (uploaded before the profile was complete,
so every snapshot lacks something), 32 connections for 30 s with wrk, 90 % reads
(GET /api/workouts, GET /api/me) and 10 % writes (a profile edit, a weight). Before issue 29
every write completed every workout's snapshot in the request: p99 2.5 s. Target: p99 ≤ 100 ms.

Two binaries are measured in the same run, alternately (a machine whose speed drifts weighs
on both alike), each on a fresh data directory:

    python3 Benchmarks/mixed_load_benchmark.py BEFORE_BINARY AFTER_BINARY [--rounds 2]

(release builds: `swift build -c release --product heartwork`, the earlier one in a worktree
of the commit before the change). Needs wrk (Debian: wrk).
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)

LUA = r"""
local token = os.getenv("TOKEN")
local json_headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
local read_headers = { ["Authorization"] = "Bearer " .. token }
local counter = 0
request = function()
  counter = counter + 1
  local slot = counter % 20
  if slot == 0 then
    return wrk.format("PATCH", "/api/me", json_headers, '{"status":"round ' .. counter .. '"}')
  elseif slot == 10 then
    return wrk.format("POST", "/api/me/weights", json_headers, '{"kilograms":' .. (60 + counter % 20) .. '}')
  elseif slot % 2 == 0 then
    return wrk.format("GET", "/api/workouts?limit=20", read_headers)
  else
    return wrk.format("GET", "/api/me", read_headers)
  end
end
"""


def call(base, method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read() or b"null")


def measure(binary, seconds):
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", directory], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, env={**os.environ, "HEARTWORK_BCRYPT_COST": "4"})
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            call(base, "POST", "/api/auth/register", body={"username": "heavy", "fullName": "Heavy User", "email": "h@example.org", "password": "mixed load 1"})
            token = call(base, "POST", "/api/auth/login", body={"username": "heavy", "password": "mixed load 1"})["token"]
            for index in range(300):
                start = f"2026-{1 + index // 28 % 12:02d}-{1 + index % 28:02d}T07:{index % 60:02d}:00Z"
                call(base, "POST", "/api/workouts", token, {"sport": "running", "startTime": start, "heartRate": [120 + i % 30 for i in range(1800)]})
            script = os.path.join(directory, "mixed.lua")
            with open(script, "w") as out:
                out.write(LUA)
            result = subprocess.run(["wrk", "-t2", "-c32", f"-d{seconds}s", "--timeout", "30s", "--latency", "-s", script, base], capture_output=True, text=True,
                                    env={**os.environ, "TOKEN": token})
            text = result.stdout
            def percentile(label):
                match = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
                if not match:
                    return float("nan")
                value, unit = float(match.group(1)), match.group(2)
                return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
            rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
            errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
            timeouts = re.search(r"Socket errors:.*timeout (\d+)", text)
            # wrk leaves requests slower than its --timeout out of the percentiles: 30 s, so
            # that the slow writes of a build that has them are measured, not dropped.
            return {"p50": percentile("50%"), "p99": percentile("99%"), "rps": float(rate.group(1)) if rate else float("nan"),
                    "non2xx": int(errors.group(1)) if errors else 0, "timeouts": int(timeouts.group(1)) if timeouts else 0}
        finally:
            server.terminate()
            server.wait(30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()
    results = {"before": [], "after": []}
    for round_number in range(args.rounds):
        for name, binary in (("before", args.before), ("after", args.after)):
            figures = measure(binary, args.seconds)
            results[name].append(figures)
            print(f"round {round_number + 1} {name:6}: p50 {figures['p50']:.1f} ms, p99 {figures['p99']:.1f} ms, "
                  f"{figures['rps']:.0f} requests/s, {figures['non2xx']} non-2xx, {figures['timeouts']} over 30 s", flush=True)
    before = statistics.median(r["p99"] for r in results["before"])
    after = statistics.median(r["p99"] for r in results["after"])
    rate_before = statistics.median(r["rps"] for r in results["before"])
    rate_after = statistics.median(r["rps"] for r in results["after"])
    print(f"p99 (median of rounds): before {before:.1f} ms, after {after:.1f} ms — {before / after:.1f}× lower; target ≤ 100 ms: "
          f"{'met' if after <= 100 else 'NOT met'}; throughput {rate_before:.0f} → {rate_after:.0f} requests/s ({rate_after / rate_before:.1f}×)")


if __name__ == "__main__":
    sys.exit(main())
