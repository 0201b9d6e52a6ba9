#!/usr/bin/env python3
"""Memory and responsiveness under a flood of large uploads (issue 8, finding 4).

For each server binary given, in the same run: start it on a fresh SQLite data directory,
sign up 24 users, then send 24 uploads of the same ~30 MB workout at once (one per user)
while /healthz is polled every 100 ms. Prints the server's resident memory before the flood
and at its peak (VmHWM from /proc), the peak per upload, the slowest /healthz answer during
the flood, and how many uploads were stored. Not a test: nothing is asserted.

    python3 Benchmarks/upload_memory.py NEW_BINARY [OLD_BINARY ...]

The body is a 24-hour workout at the limits (86,400 heart-rate values, 200,000 RR intervals,
172,800 GPS points) with full-precision numbers, pretty-printed to about 30 MB.
"""
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)

UPLOADS = 24


def body():
    rng = random.Random(8)
    seconds = 86_400
    heart_rate = ", ".join(str(120 + rng.randrange(40)) for _ in range(seconds))
    rr = ", ".join(repr(400 + rng.random() * 400) for _ in range(200_000))
    points = []
    for index in range(2 * seconds):
        points.append('    {"lat": %r, "lon": %r, "ele": %r, "t": %r}' % (
            48.2 + rng.random() * 0.01, 16.37 + rng.random() * 0.01, 180 + rng.random() * 20, index / 2))
    # Pretty-printed as exports are, to about 30 MB (the figure).
    indent = " " * 54
    points = [indent + point.lstrip() for point in points]
    text = ('{\n  "sport": "cycling", "startTime": "2026-11-01T06:00:00Z", "indoor": false,\n'
            '  "heartRate": [%s],\n  "rrIntervals": [%s],\n  "track": [\n%s\n  ]\n}\n') % (heart_rate, rr, ",\n".join(points))
    return text.encode()


def call(base, method, path, payload=None, token=None, raw=None, timeout=300):
    data = raw if raw is not None else (json.dumps(payload).encode() if payload is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run(binary, payload):
    data = tempfile.mkdtemp()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    environment = dict(os.environ, HEARTWORK_BCRYPT_COST="4", HEARTWORK_LOG_LEVEL="error")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data], env=environment,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                if call(base, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        tokens = []
        for index in range(UPLOADS):
            name = f"flood{index:02d}"
            call(base, "POST", "/api/auth/register", {"username": name, "fullName": name, "email": f"{name}@example.org", "password": "correct horse 1"})
            status, answer = call(base, "POST", "/api/auth/login", {"username": name, "password": "correct horse 1"})
            tokens.append(json.loads(answer)["token"])
        before, _ = memory(server.pid)
        results, health = [], []
        done = threading.Event()

        def poll():
            while not done.is_set():
                started = time.monotonic()
                try:
                    call(base, "GET", "/healthz", timeout=60)
                except OSError:
                    pass
                health.append(time.monotonic() - started)
                time.sleep(0.1)

        def upload(token):
            try:
                results.append(call(base, "POST", "/api/workouts", raw=payload, token=token)[0])
            except OSError as error:
                results.append(str(error))

        poller = threading.Thread(target=poll)
        poller.start()
        started = time.monotonic()
        threads = [threading.Thread(target=upload, args=(token,)) for token in tokens]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        done.set()
        poller.join()
        _, peak = memory(server.pid)
        stored = sum(1 for result in results if result == 201)
        return {"before": before, "peak": peak, "per_upload": (peak - before) / UPLOADS, "health_max": max(health or [0]),
                "elapsed": elapsed, "stored": stored, "statuses": sorted(set(map(str, results)))}
    finally:
        server.terminate()
        server.wait(timeout=30)


def main():
    binaries = sys.argv[1:]
    if not binaries:
        sys.exit(__doc__)
    payload = body()
    print(f"body: {len(payload) / 1e6:.1f} MB, {UPLOADS} concurrent uploads")
    figures = []
    for binary in binaries:
        figure = run(binary, payload)
        figures.append(figure)
        print(f"{binary}\n  RSS before {figure['before']:.0f} MB, peak {figure['peak']:.0f} MB "
              f"({figure['per_upload']:.1f} MB per upload); slowest /healthz {figure['health_max']:.2f} s; "
              f"{figure['stored']}/{UPLOADS} stored in {figure['elapsed']:.1f} s; statuses {figure['statuses']}")
    if len(figures) > 1:
        new, old = figures[0], figures[1]
        print(f"peak memory: {old['peak'] / new['peak']:.1f}x lower; slowest /healthz: "
              f"{old['health_max'] / max(new['health_max'], 1e-3):.1f}x faster (first binary against the second)")


if __name__ == "__main__":
    main()
