#!/usr/bin/env python3
"""Two `heartwork serve` processes on one PostgreSQL database share one live picture (issue 9):
a gateway streams to instance A over the gateway protocol while a viewer watches on instance
B's feed socket; every reading must arrive at B within a second (the p50/p99 are printed).
Then a sign-out on A is refused by B at once, though B had the session cached, and a password
change on A ends B's other sessions at once.

    HEARTWORK_TEST_POSTGRES_URL=postgres://… python3 Tests/Live/two_instances_test.py [heartwork] [--readings N] [--json out.json]

Needs the `websockets` package. Exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import os
import pathlib
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from common import call, free_port  # noqa: E402  (the Python checks' shared helpers)


def start(binary, url, port):
    environment = dict(os.environ, HEARTWORK_BCRYPT_COST="4")
    process = subprocess.Popen([str(binary), "serve", "--port", str(port), "--database", url, "--data-dir", tempfile.mkdtemp()],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"instance on {port} exited: {process.stderr.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if json.load(response)["status"] == "ok":
                    return process, base
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"instance on {port} did not become healthy")


def hrm(bpm):
    # Flags 0x16: 8-bit heart rate, contact detected, RR present; one RR interval in 1/1024 s.
    ticks = round(60000 / bpm * 1.024)
    return f"16{bpm:02x}{ticks & 0xFF:02x}{ticks >> 8:02x}"


async def stream(base_a, base_b, gateway_token, viewer_token, readings, sensors):
    sent, received = {}, {}
    feed_url = base_b.replace("http", "ws") + "/api/live/feed"
    gateway_url = base_a.replace("http", "ws") + f"/api/live/gateway?token={gateway_token}"
    async with websockets.connect(feed_url, additional_headers={"Authorization": f"Bearer {viewer_token}"}) as feed:
        first = json.loads(await feed.recv())
        assert first["type"] == "watching", first

        async def watch():
            while len(received) < readings:
                message = json.loads(await feed.recv())
                if message["type"] == "reading":
                    received[(message["address"], message["seq"])] = time.perf_counter()

        watcher = asyncio.create_task(watch())
        acked = 0
        async with websockets.connect(gateway_url) as gateway:
            base_ms = int(time.time() * 1000)
            per_frame = sensors
            for frame in range(readings // per_frame):
                items = []
                for sensor in range(per_frame):
                    key = (f"bus-strap-{sensor}", frame)
                    items.append({"sensor": key[0], "seq": frame, "at": base_ms + frame * 100, "hrm": hrm(90 + (frame + sensor) % 80)})
                    sent[key] = time.perf_counter()
                await gateway.send(json.dumps({"type": "readings", "items": items}))
                await asyncio.sleep(0.1)
            # An ack per sensor per frame, each after its commit.
            frames = readings // per_frame
            while acked < frames * per_frame:
                message = json.loads(await asyncio.wait_for(gateway.recv(), 10))
                if message["type"] == "ack":
                    acked += 1
        await asyncio.wait_for(watcher, 10)
    latencies = sorted(1000 * (received[key] - sent[key]) for key in sent if key in received)
    return sent, received, latencies


async def revoke_across(base_a, base_b, gateway, user_token):
    """A gateway connected to A, revoked through B: A closes its socket with 1008 within a
    second (issue 29), and a reconnect is refused with 401 and a problem body."""
    gateway_url = base_a.replace("http", "ws") + f"/api/live/gateway?token={gateway['token']}"
    async with websockets.connect(gateway_url) as socket:
        await socket.send(json.dumps({"type": "reading", "sensor": "revoked-strap", "seq": 1, "at": int(time.time() * 1000), "hrm": hrm(80)}))
        ack = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert ack["type"] == "ack", ack
        started = time.perf_counter()
        status, _ = await asyncio.to_thread(call, base_b, "DELETE", f"/api/gateways/{gateway['id']}", None, user_token)
        assert status == 204, status
        try:
            while True:
                await asyncio.wait_for(socket.recv(), 10)
        except websockets.exceptions.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            reason = closed.rcvd.reason if closed.rcvd else ""
        seconds = time.perf_counter() - started
    try:
        async with websockets.connect(gateway_url):
            refused = None
    except websockets.exceptions.InvalidStatus as error:
        refused = error.response.status_code
    return code, reason, seconds, refused


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=str(ROOT / ".build" / "debug" / "heartwork"))
    parser.add_argument("--readings", type=int, default=1000)
    parser.add_argument("--sensors", type=int, default=20)
    parser.add_argument("--json")
    arguments = parser.parse_args()
    url = os.environ.get("HEARTWORK_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit("set HEARTWORK_TEST_POSTGRES_URL to a PostgreSQL database")
    a, base_a = start(arguments.binary, url, free_port())
    b, base_b = None, None
    failures = []
    try:
        b, base_b = start(arguments.binary, url, free_port())
        name = "bus" + secrets.token_hex(4)
        password = "bus test password"
        status, _ = call(base_a, "POST", "/api/auth/register", {"username": name, "fullName": "Bus Tester", "email": f"{name}@example.org", "password": password})
        assert status == 201, status
        token_a = call(base_a, "POST", "/api/auth/login", {"username": name, "password": password})[1]["token"]
        token_b = call(base_b, "POST", "/api/auth/login", {"username": name, "password": password})[1]["token"]
        gateway = call(base_a, "POST", "/api/gateways", {"name": "Bus test"}, token=token_a)[1]

        sent, received, latencies = asyncio.run(stream(base_a, base_b, gateway["token"], token_b, arguments.readings, arguments.sensors))
        missing = len(sent) - len([key for key in sent if key in received])
        p50 = statistics.median(latencies) if latencies else float("nan")
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan")
        print(f"cross-instance: {len(received)} of {len(sent)} readings reached instance B; latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(latencies):.1f} ms")
        if missing:
            failures.append(f"{missing} readings sent to A never reached the viewer on B")
        if p99 > 1000:
            failures.append(f"p99 {p99:.0f} ms: readings must reach the other instance within a second")

        # A gateway on A revoked through B: its socket on A closes within a second.
        revocable = call(base_a, "POST", "/api/gateways", {"name": "Revoked"}, token=token_a)[1]
        code, reason, seconds, refused = asyncio.run(revoke_across(base_a, base_b, revocable, token_b))
        print(f"revocation across instances: socket closed {code} ({reason}) {seconds * 1000:.0f} ms after the DELETE on B; a reconnect got {refused}")
        if code != 1008 or seconds > 1:
            failures.append(f"a gateway revoked on B kept its socket on A: close {code} after {seconds:.2f} s (bound 1 s, 1008)")
        if refused != 401:
            failures.append(f"a revoked gateway's reconnect was answered {refused}, not 401")

        # B caches the session (one request), A signs it out, B refuses it at once.
        status, _ = call(base_b, "GET", "/api/me", token=token_a)
        assert status == 200, status
        assert call(base_a, "POST", "/api/auth/logout", token=token_a)[0] == 204
        time.sleep(0.3)
        status, _ = call(base_b, "GET", "/api/me", token=token_a)
        if status != 401:
            failures.append(f"instance B still honoured a session signed out on A ({status})")
        # A password change on A ends B's other sessions at once.
        token_a2 = call(base_a, "POST", "/api/auth/login", {"username": name, "password": password})[1]["token"]
        assert call(base_b, "GET", "/api/me", token=token_b)[0] == 200
        assert call(base_a, "POST", "/api/me/password", {"currentPassword": password, "newPassword": "a new bus password"}, token=token_a2)[0] == 204
        time.sleep(0.3)
        status, _ = call(base_b, "GET", "/api/me", token=token_b)
        if status != 401:
            failures.append(f"instance B still honoured a session ended by a password change on A ({status})")
        if arguments.json:
            pathlib.Path(arguments.json).write_text(json.dumps({"readings": len(sent), "received": len(received), "p50_ms": p50, "p99_ms": p99}, indent=2))
    finally:
        for process in (a, b):
            if process is not None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
    if failures:
        raise SystemExit("two-instance test failed:\n  " + "\n  ".join(failures))
    print("two-instance test passed")


if __name__ == "__main__":
    main()
