#!/usr/bin/env python3
"""Live-ingest benchmark (issue #9): one Heartwork process on SQLite against mosquitto, same run.

A club scenario: `--viewers` clubs (users), each with its share of the `--gateways` gateway
connections, each gateway carrying `--sensors / --gateways` straps at 1 Hz, and one feed viewer
per club. Every gateway sends one `readings` frame a second (one reading per strap); the
gateways' send instants are spread evenly over the second. Measured:

  * loss: every reading sent must be acknowledged, and every viewer must receive every reading
    of its club's gateways (and, after the run, the database must hold them all);
  * ingest-to-viewer latency per reading: the viewer's receive instant minus the instant the
    gateway sent the frame that carried it (CLOCK_MONOTONIC, shared by all processes);
  * the server's CPU (user + system, /proc/<pid>/stat) over the measured window, and the
    load generators' own CPU, so that the reader can judge who was the bottleneck.

Then the same frames, on the same schedule, relayed through mosquitto (QoS 0): one publisher
per gateway to `club/<n>`, one subscriber per club. mosquitto relays a frame as a whole (no
decoding, storing or fan-out per reading), so a frame is one MQTT message and its latency counts
once per reading it carries.

Usage: live_benchmark.py BINARY [--seconds 300] [--sensors 10000] [--gateways 100]
       [--viewers 50] [--warmup 10] [--workers 2] [--skip-mosquitto] [--no-batch] [--json out.json]
Gateways and viewers ask for several acks and readings a message (?batch=1) unless --no-batch.
Exits 1 if a reading was lost on the Heartwork side (2 if only mosquitto lost readings).
"""
import argparse
import array
import asyncio
import json
import multiprocessing
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import secrets
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_common import address, call, free_port, hrm_hex, own_cpu, percentile, process_cpu  # noqa: E402

VARIANTS = 4  # heart-rate variants per strap; frame k uses variant k % VARIANTS


# ---------------------------------------------------------------------------------------------
# Scenario



def frame_templates(gateway, straps):
    """One `readings` frame per variant, with \x01 standing for seq and \x02 for at."""
    templates = []
    for variant in range(VARIANTS):
        items = ",".join(
            f'{{"sensor":"{address(gateway, s)}","seq":\x01,"at":\x02,"hrm":"{hrm_hex(gateway, s, variant)}","battery":{80 - s % 30}}}'
            for s in range(straps))
        templates.append('{"type":"readings","items":[' + items + "]}")
    return templates


def plan(sensors, gateways, viewers):
    """Clubs: club c has gateways g with g % viewers == c; gateway g carries straps[g] straps."""
    straps = [sensors // gateways + (1 if g < sensors % gateways else 0) for g in range(gateways)]
    clubs = [[g for g in range(gateways) if g % viewers == c] for c in range(viewers)]
    return straps, clubs


# ---------------------------------------------------------------------------------------------
# Process helpers



def process_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0



# ---------------------------------------------------------------------------------------------
# Load generator (one per worker process): its share of the clubs, gateways and viewers


class Load:
    """State shared by the gateways and viewers of one worker's clubs."""

    def __init__(self, job):
        self.job = job
        self.total_gateways = job["total_gateways"]
        self.frames = job["warmup"] + job["seconds"]
        self.warmup = job["warmup"]
        self.straps = {g: n for g, n in job["straps"].items()}
        self.sent_at = {g: [0.0] * self.frames for g in self.straps}  # monotonic send instant per frame
        self.frames_sent = {g: 0 for g in self.straps}
        self.received = {g: bytearray(n * self.frames) for g, n in self.straps.items()}  # per strap and seq
        self.templates = {g: frame_templates(g, n) for g, n in self.straps.items()}
        self.address_index = {address(g, s): (g, s) for g, n in self.straps.items() for s in range(n)}
        self.latencies = array.array("l")  # µs, readings of the measured window
        self.duplicates = 0
        self.unknown = 0
        self.late_sends = array.array("l")  # µs behind schedule, per frame
        self.acked = {g: [-1] * n for g, n in self.straps.items()}  # highest acked seq per strap
        self.ack_messages = 0
        self.ack_counts = {g: {} for g in self.straps}
        self.ack_latencies = array.array("l")  # µs from send until every strap of the frame is acked
        self.ack_seconds = array.array("l")  # the frame's second (seq) of each ack latency
        self.errors = 0
        self.error_samples = []
        self.closes = []
        self.loop_lag = array.array("l")
        self.cpu_window = [None, None]

    def mark(self, g, s, seq, now):
        index = s * self.frames + seq
        flags = self.received[g]
        if flags[index]:
            self.duplicates += 1
            return
        flags[index] = 1
        if seq >= self.warmup:
            self.latencies.append(int((now - self.sent_at[g][seq]) * 1e6))

    @staticmethod
    def frame(templates, seq):
        text = templates[seq % VARIANTS]
        return text.replace("\x01", str(seq)).replace("\x02", str(int(time.time() * 1000)))

    async def schedule(self, g, send):
        """Sends frame k of gateway g at t0 + k + g / G; `send(seq)` must send it."""
        t0 = self.job["t0"]
        offset = g / self.total_gateways
        templates = self.templates[g]
        for seq in range(self.frames):
            target = t0 + seq + offset
            delay = target - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            text = self.frame(templates, seq)
            now = time.monotonic()
            self.sent_at[g][seq] = now
            self.late_sends.append(int(max(0.0, now - target) * 1e6))
            await send(seq, text)
            self.frames_sent[g] = seq + 1

    def complete(self, with_acks):
        for g, n in self.straps.items():
            if with_acks and min(self.acked[g]) < self.frames - 1:
                return False
        return all(self.expected_missing(g) == 0 for g in self.straps)

    def expected_missing(self, g):
        sent = self.frames_sent[g]
        n = self.straps[g]
        flags = self.received[g]
        return sum(sent - sum(flags[s * self.frames:s * self.frames + sent]) for s in range(n))

    async def lag_monitor(self):
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.05)
            self.loop_lag.append(int((time.monotonic() - start - 0.05) * 1e6))

    async def cpu_marks(self):
        t0 = self.job["t0"]
        await asyncio.sleep(max(0.0, t0 + self.warmup - time.monotonic()))
        self.cpu_window[0] = own_cpu()
        await asyncio.sleep(max(0.0, t0 + self.frames - time.monotonic()))
        self.cpu_window[1] = own_cpu()

    def result(self, with_acks):
        missing_acks = 0
        if with_acks:
            for g, highest in self.acked.items():
                sent = self.frames_sent[g]
                missing_acks += sum(max(0, sent - 1 - h) for h in highest)
        clubs = []
        for club, gateways in self.job["clubs"]:
            expected = sum(self.frames_sent[g] * self.straps[g] for g in gateways)
            missing = sum(self.expected_missing(g) for g in gateways)
            clubs.append({"club": club, "expected": expected, "received": expected - missing})
        return {
            "sent": sum(self.frames_sent[g] * self.straps[g] for g in self.straps),
            "frames": sum(self.frames_sent.values()),
            "frames_planned": self.frames * len(self.straps),
            "ack_messages": self.ack_messages, "missing_acks": missing_acks,
            "clubs": clubs, "duplicates": self.duplicates, "unknown": self.unknown,
            "errors": self.errors, "error_samples": self.error_samples[:5], "closes": self.closes[:10],
            "latencies": self.latencies.tobytes(), "ack_latencies": self.ack_latencies.tobytes(),
            "ack_seconds": self.ack_seconds.tobytes(),
            "late_sends": self.late_sends.tobytes(), "loop_lag": self.loop_lag.tobytes(),
            "cpu": (self.cpu_window[1] - self.cpu_window[0]) if None not in self.cpu_window else float("nan"),
        }


async def wait_start(load, control):
    """Tells the parent this worker is connected, then waits for the common start instant."""
    control.send("ready")
    load.job["t0"] = await asyncio.get_running_loop().run_in_executor(None, control.recv)


async def finish(load, tasks, with_acks):
    """Waits until the last frame is due, then until everything arrived (or --drain passed)."""
    end = load.job["t0"] + load.frames
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    deadline = time.monotonic() + load.job["drain"]
    while time.monotonic() < deadline and not (all(t.done() for t in tasks["senders"]) and load.complete(with_acks)):
        await asyncio.sleep(0.1)
    for task in tasks["all"]:
        task.cancel()
    await asyncio.gather(*tasks["all"], return_exceptions=True)


# --- Heartwork ---


async def heartwork_worker(job, control):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    load = Load(job)
    port = job["port"]
    common = dict(compression=None, max_size=2 ** 22, ping_interval=20, ping_timeout=None, open_timeout=60)

    async def viewer(websocket):
        try:
            async for message in websocket:
                now = time.monotonic()
                decoded = json.loads(message)
                # `readings` (asked with ?batch=1, PROTOCOL.md §6) carries `reading` messages.
                for reading in decoded["items"] if decoded.get("type") == "readings" else [decoded]:
                    if reading.get("type") != "reading":
                        continue
                    where = load.address_index.get(reading["address"])
                    if where is None:
                        load.unknown += 1
                        continue
                    load.mark(where[0], where[1], reading["seq"], now)
        except ConnectionClosed as closed:
            load.closes.append(f"viewer: {closed.rcvd.code if closed.rcvd else 'no close frame'} {closed.rcvd.reason if closed.rcvd else ''}")

    async def gateway_acks(g, websocket):
        counts = load.ack_counts[g]
        acked = load.acked[g]
        straps = load.straps[g]
        sent_at = load.sent_at[g]
        try:
            async for message in websocket:
                now = time.monotonic()
                decoded = json.loads(message)
                kind = decoded.get("type")
                if kind in ("ack", "acks"):
                    load.ack_messages += 1
                    # `acks` (asked with ?batch=1, PROTOCOL.md §4): the acks of a commit, in order.
                    for ack in decoded["items"] if kind == "acks" else [decoded]:
                        g_, s = load.address_index[ack["sensor"]]
                        seq = ack["seq"]
                        if seq > acked[s]:
                            acked[s] = seq
                        count = counts.get(seq, 0) + 1
                        if count == straps:
                            del counts[seq]
                            if seq >= load.warmup:
                                load.ack_latencies.append(int((now - sent_at[seq]) * 1e6))
                                load.ack_seconds.append(seq - load.warmup)
                        else:
                            counts[seq] = count
                else:
                    load.errors += 1
                    if len(load.error_samples) < 5:
                        load.error_samples.append(message[:200])
        except ConnectionClosed as closed:
            load.closes.append(f"gateway {g}: {closed.rcvd.code if closed.rcvd else 'no close frame'} {closed.rcvd.reason if closed.rcvd else ''}")

    async def gateway_sender(g, websocket):
        async def send(seq, text):
            await websocket.send(text)
        try:
            await load.schedule(g, send)
        except ConnectionClosed:
            pass  # recorded by the ack reader

    viewers = []
    for club, _ in job["clubs"]:
        websocket = await connect(f"ws://127.0.0.1:{port}/api/live/feed{job['batch']}",
                                  additional_headers={"Authorization": f"Bearer {job['viewer_tokens'][club]}"}, **common)
        first = json.loads(await websocket.recv())
        assert first.get("type") == "watching", first
        viewers.append(websocket)
    gateways = {}
    for g, token in job["gateway_tokens"].items():
        gateways[g] = await connect(f"ws://127.0.0.1:{port}/api/live/gateway?token={token}{job['batch'].replace('?', '&')}", **common)

    await wait_start(load, control)
    readers = [asyncio.create_task(viewer(w)) for w in viewers]
    readers += [asyncio.create_task(gateway_acks(g, w)) for g, w in gateways.items()]
    senders = [asyncio.create_task(gateway_sender(g, w)) for g, w in gateways.items()]
    helpers = [asyncio.create_task(load.lag_monitor()), asyncio.create_task(load.cpu_marks())]
    await finish(load, {"senders": senders, "all": readers + senders + [helpers[0]]}, with_acks=True)
    await helpers[1]
    for websocket in list(gateways.values()) + viewers:
        await websocket.close()
    return load.result(with_acks=True)


# --- mosquitto: a minimal MQTT 3.1.1 client, QoS 0, no keep-alive pings ---


def mqtt_length(n):
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (128 if n else 0))
        if not n:
            return bytes(out)


def mqtt_string(text):
    raw = text.encode()
    return len(raw).to_bytes(2, "big") + raw


async def mqtt_read(reader):
    header = (await reader.readexactly(1))[0]
    length, shift = 0, 0
    while True:
        byte = (await reader.readexactly(1))[0]
        length |= (byte & 127) << shift
        shift += 7
        if not byte & 128:
            break
    return header, await reader.readexactly(length)


async def mqtt_connect(port, client_id):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2 ** 22)
    body = mqtt_string("MQTT") + bytes([4, 0x02, 0, 0]) + mqtt_string(client_id)  # clean session, keep-alive off
    writer.write(b"\x10" + mqtt_length(len(body)) + body)
    header, payload = await mqtt_read(reader)
    assert header == 0x20 and payload[1] == 0, f"CONNACK refused: {payload!r}"
    return reader, writer


async def mosquitto_worker(job, control):
    load = Load(job)
    port = job["port"]

    async def subscriber(reader):
        try:
            while True:
                header, packet = await mqtt_read(reader)
                now = time.monotonic()
                if header >> 4 != 3:
                    continue
                topic_length = int.from_bytes(packet[:2], "big")
                frame = json.loads(packet[2 + topic_length:])  # QoS 0: no packet id
                for item in frame["items"]:
                    where = load.address_index.get(item["sensor"])
                    if where is None:
                        load.unknown += 1
                        continue
                    load.mark(where[0], where[1], item["seq"], now)
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            load.closes.append(f"subscriber: {error!r}")

    subscribers = []
    for club, _ in job["clubs"]:
        reader, writer = await mqtt_connect(port, f"viewer-{club}")
        topic = f"club/{club}"
        body = (1).to_bytes(2, "big") + mqtt_string(topic) + b"\x00"
        writer.write(b"\x82" + mqtt_length(len(body)) + body)
        header, payload = await mqtt_read(reader)
        assert header == 0x90 and payload[2] == 0, f"SUBACK refused: {payload!r}"
        subscribers.append((reader, writer))
    publishers = {}
    club_of = {g: club for club, gateways in job["clubs"] for g in gateways}
    for g in job["gateway_tokens"]:
        publishers[g] = await mqtt_connect(port, f"gateway-{g}")

    async def publisher(g, writer):
        topic = mqtt_string(f"club/{club_of[g]}")

        async def send(seq, text):
            payload = text.encode()
            writer.write(b"\x30" + mqtt_length(len(topic) + len(payload)) + topic + payload)
            await writer.drain()
        await load.schedule(g, send)

    await wait_start(load, control)
    readers = [asyncio.create_task(subscriber(r)) for r, _ in subscribers]
    senders = [asyncio.create_task(publisher(g, w)) for g, (_, w) in publishers.items()]
    helpers = [asyncio.create_task(load.lag_monitor()), asyncio.create_task(load.cpu_marks())]
    await finish(load, {"senders": senders, "all": readers + senders + [helpers[0]]}, with_acks=False)
    await helpers[1]
    for _, writer in list(publishers.values()) + subscribers:
        writer.write(b"\xe0\x00")
        writer.close()
    return load.result(with_acks=False)


def worker_main(kind, job, control, results):
    try:
        coroutine = heartwork_worker if kind == "heartwork" else mosquitto_worker
        results.put(asyncio.run(coroutine(job, control)))
    except BaseException as error:  # report, so that the parent does not wait forever
        import traceback
        results.put({"failed": f"{error!r}\n{traceback.format_exc()}"})
        try:
            control.send("failed")
        except OSError:
            pass


# ---------------------------------------------------------------------------------------------
# Orchestration


def run_phase(kind, args, pid, port, straps, clubs, gateway_tokens, viewer_tokens):
    """Runs the load in --workers processes (whole clubs per worker), samples `pid`'s CPU."""
    workers = max(1, min(args.workers, len(clubs)))
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    processes, controls = [], []
    for w in range(workers):
        mine = [(c, gs) for c, gs in enumerate(clubs) if c % workers == w]
        gateways = [g for _, gs in mine for g in gs]
        job = {
            "port": port, "clubs": mine, "total_gateways": args.gateways,
            "straps": {g: straps[g] for g in gateways},
            "gateway_tokens": {g: gateway_tokens[g] for g in gateways},
            "viewer_tokens": {c: viewer_tokens[c] for c, _ in mine},
            "warmup": args.warmup, "seconds": args.seconds, "drain": args.drain,
            "batch": "" if args.no_batch else "?batch=1",
        }
        parent_end, child_end = context.Pipe()
        process = context.Process(target=worker_main, args=(kind, job, child_end, results), daemon=True)
        process.start()
        processes.append(process)
        controls.append(parent_end)
    for control in controls:
        if control.recv() != "ready":
            raise SystemExit(f"{kind}: a load generator failed while connecting: {results.get(timeout=10)}")
    t0 = time.monotonic() + 1.0
    for control in controls:
        control.send(t0)

    # The broker's / server's CPU: the measured window, and a per-second timeline.
    time.sleep(max(0.0, t0 + args.warmup - time.monotonic()))
    start_cpu = process_cpu(pid)
    timeline, previous = [], start_cpu
    rss_timeline = {}  # minute → MB (the server's resident memory, sampled once a minute)
    for second in range(1, args.seconds + 1):
        time.sleep(max(0.0, t0 + args.warmup + second - time.monotonic()))
        current = process_cpu(pid)
        timeline.append(round(current - previous, 3))
        previous = current
        if second % 60 == 0:
            rss_timeline[second // 60] = round(process_rss_mb(pid), 1)
    server_cpu = previous - start_cpu
    rss = process_rss_mb(pid)

    outcomes = [results.get(timeout=args.drain + 120) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    failed = [o["failed"] for o in outcomes if "failed" in o]
    if failed:
        raise SystemExit(f"{kind}: a load generator failed:\n" + "\n".join(failed))
    result = summarize(kind, args, outcomes, server_cpu, timeline, rss, workers)
    result["server_rss_mb_by_minute"] = rss_timeline
    return result


def summarize(kind, args, outcomes, server_cpu, timeline, rss, workers):
    def merged(key):
        values = array.array("l")
        for outcome in outcomes:
            values.frombytes(outcome[key])
        return sorted(values)

    latencies = merged("latencies")
    ack_latencies = merged("ack_latencies")
    late = merged("late_sends")
    lag = merged("loop_lag")
    clubs = [club for outcome in outcomes for club in outcome["clubs"]]
    sent = sum(o["sent"] for o in outcomes)
    viewer_missing = sum(c["expected"] - c["received"] for c in clubs)
    client_cpu = sum(o["cpu"] for o in outcomes)

    def ms(values, fraction):
        return round(percentile(values, fraction) / 1000, 2)

    tenth = max(1, len(timeline) // 10)
    # Ack p99 per tenth of the measured window (by the frame's send second): does it grow?
    ack_tenths = [array.array("l") for _ in range(10)]
    ack_pairs = []
    for outcome in outcomes:
        values, seconds = array.array("l"), array.array("l")
        values.frombytes(outcome["ack_latencies"])
        seconds.frombytes(outcome.get("ack_seconds", b""))
        ack_pairs.extend(zip(seconds, values))
    for second, value in ack_pairs:
        ack_tenths[min(9, max(0, second * 10 // max(1, args.seconds)))].append(value)
    ack_p99_by_tenth = [ms(sorted(values), 0.99) if values else None for values in ack_tenths]
    return {
        "kind": kind, "seconds": args.seconds, "warmup": args.warmup, "sensors": args.sensors,
        "gateways": args.gateways, "viewers": args.viewers, "workers": workers,
        "frames_sent": sum(o["frames"] for o in outcomes), "frames_planned": sum(o["frames_planned"] for o in outcomes),
        "readings_sent": sent,
        "ack_messages": sum(o["ack_messages"] for o in outcomes), "missing_acks": sum(o["missing_acks"] for o in outcomes),
        "viewer_expected": sum(c["expected"] for c in clubs), "viewer_missing": viewer_missing,
        "viewers_short": sum(1 for c in clubs if c["received"] < c["expected"]),
        "duplicates": sum(o["duplicates"] for o in outcomes), "unknown": sum(o["unknown"] for o in outcomes),
        "errors": sum(o["errors"] for o in outcomes),
        "error_samples": [s for o in outcomes for s in o["error_samples"]][:5],
        "closes": [c for o in outcomes for c in o["closes"]][:10],
        "latency_samples": len(latencies),
        "latency_ms": {"p50": ms(latencies, 0.5), "p95": ms(latencies, 0.95), "p99": ms(latencies, 0.99),
                       "max": ms(latencies, 1.0)},
        "ack_latency_ms": {"p50": ms(ack_latencies, 0.5), "p99": ms(ack_latencies, 0.99), "max": ms(ack_latencies, 1.0)}
        if ack_latencies else None,
        "ack_p99_ms_by_tenth": ack_p99_by_tenth if ack_latencies else None,
        "send_slip_ms": {"p99": ms(late, 0.99), "max": ms(late, 1.0)},
        "client_loop_lag_ms": {"p99": ms(lag, 0.99), "max": ms(lag, 1.0)},
        "server_cpu_seconds": round(server_cpu, 2),
        "server_cpu_per_second": round(server_cpu / args.seconds, 3),
        "server_cpu_per_second_per_1000_sensors": round(server_cpu / args.seconds / (args.sensors / 1000), 4),
        "server_cpu_first_tenth": round(sum(timeline[:tenth]) / tenth, 3),
        "server_cpu_last_tenth": round(sum(timeline[-tenth:]) / tenth, 3),
        "server_cpu_timeline": timeline,
        "server_rss_mb": round(rss, 1),
        "client_cpu_seconds": round(client_cpu, 2),
        "client_cpu_per_second": round(client_cpu / args.seconds, 3),
    }


async def postgres_execute(url, statement, fetch=False):
    import asyncpg  # pip install asyncpg (only for --postgres)
    connection = await asyncpg.connect(url)
    try:
        return await (connection.fetchrow(statement) if fetch else connection.execute(statement))
    finally:
        await connection.close()


def start_heartwork(binary, data, database):
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data, "--database", database,
                               "--log-level", "warning"],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "server.log"), "w"))
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            call(base, "GET", "/healthz")
            return server, port, base, database
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"the server exited with {server.returncode}; see {data}/server.log")
            time.sleep(0.2)
    raise SystemExit("the server did not answer /healthz")


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def heartwork_phase(args, data, straps, clubs):
    postgres_name = None
    if args.postgres:
        # A fresh database on the given server, dropped at the end.
        postgres_name = "heartwork_live_" + secrets.token_hex(4)
        asyncio.run(postgres_execute(args.postgres, f'CREATE DATABASE "{postgres_name}"'))
        parts = urllib.parse.urlsplit(args.postgres)
        database = urllib.parse.urlunsplit(parts._replace(path="/" + postgres_name))
    else:
        database = os.path.join(data, "live.sqlite")
    server, port, base, database = start_heartwork(args.binary, data, database)
    try:
        viewer_tokens, gateway_tokens = {}, {}
        for club, gateways in enumerate(clubs):
            name = f"club{club:03d}"
            password = "live-benchmark!"
            call(base, "POST", "/api/auth/register",
                 body={"username": name, "fullName": f"Club {club}", "email": f"{name}@example.org", "password": password})
            viewer_tokens[club] = call(base, "POST", "/api/auth/login", body={"username": name, "password": password})[1]["token"]
            for g in gateways:
                status, reply = call(base, "POST", "/api/gateways", viewer_tokens[club], {"name": f"Pitch {g}"})
                gateway_tokens[g] = reply["token"]
        result = run_phase("heartwork", args, server.pid, port, straps, clubs, gateway_tokens, viewer_tokens)
    finally:
        stop(server)
    if postgres_name:
        row = asyncio.run(postgres_execute(database, "SELECT (SELECT coalesce(sum(reading_count), 0) FROM sensor_blocks) AS r, "
                                           "(SELECT count(*) FROM sensors) AS s, pg_database_size(current_database()) AS b, "
                                           "(SELECT coalesce(sum(length(data)), 0) FROM sensor_blocks) AS d", fetch=True))
        result["stored_readings"], result["stored_sensors"], result["database_bytes"] = int(row["r"]), int(row["s"]), int(row["b"])
        result["block_readings"] = result["stored_readings"]
        result["block_bytes"] = int(row["d"])
        try:
            # Readings still in their own rows (migration 35), should the stop not have folded them all.
            pending = asyncio.run(postgres_execute(database, "SELECT count(*) AS n FROM sensor_pending", fetch=True))
            result["pending_readings"] = int(pending["n"])
            result["stored_readings"] += result["pending_readings"]
        except Exception:
            pass  # a server from before migration 35
        asyncio.run(postgres_execute(args.postgres, f'DROP DATABASE IF EXISTS "{postgres_name}" WITH (FORCE)'))
    else:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            result["stored_readings"] = db.execute("SELECT coalesce(sum(reading_count), 0) FROM sensor_blocks").fetchone()[0]
            result["stored_sensors"] = db.execute("SELECT count(*) FROM sensors").fetchone()[0]
            result["block_bytes"] = db.execute("SELECT coalesce(sum(length(data)), 0) FROM sensor_blocks").fetchone()[0]
        result["database_bytes"] = sum(os.path.getsize(database + suffix) for suffix in ("", "-wal") if os.path.exists(database + suffix))
    if result.get("block_readings", result["stored_readings"]):
        result["block_bytes_per_reading"] = round(result["block_bytes"] / result.get("block_readings", result["stored_readings"]), 2)
    with open(os.path.join(data, "server.log")) as log:
        result["server_log_lines"] = [line.rstrip() for line in log][-5:]
    return result


def mosquitto_phase(args, data, straps, clubs):
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    version = subprocess.run([binary, "-h"], capture_output=True, text=True).stdout.splitlines()[0]
    port = free_port()
    config = os.path.join(data, "mosquitto.conf")
    with open(config, "w") as out:
        out.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n"
                  "log_type error\nlog_type warning\nmax_connections -1\n")
    os.chmod(data, 0o755)
    os.chmod(config, 0o644)
    broker = subprocess.Popen([binary, "-c", config], stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(data, "mosquitto.log"), "w"))
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if broker.poll() is not None:
                    raise SystemExit(f"mosquitto exited with {broker.returncode}; see {data}/mosquitto.log")
                time.sleep(0.1)
        tokens = {g: None for g in range(args.gateways)}
        result = run_phase("mosquitto", args, broker.pid, port, straps, clubs, tokens, {c: None for c in range(len(clubs))})
    finally:
        stop(broker)
    result["version"] = version
    result["qos"] = 0
    return result


def report(args, results):
    print()
    print(f"Live ingest benchmark: {args.sensors:,} sensors at 1 Hz over {args.gateways} gateway connections, "
          f"{args.viewers} viewers (one per club), {args.seconds} s measured after {args.warmup} s warm-up;")
    print(f"load generators: {results[0]['workers']} Python process(es) on the same {os.cpu_count()}-core machine")
    print("messages: " + ("one ack and one reading each (--no-batch)" if args.no_batch
                          else "several acks or readings each (?batch=1: `acks` and `readings`, PROTOCOL.md §4, §6)"))
    print()
    columns = [r["kind"] if r["kind"] != "mosquitto" else f"mosquitto (QoS {r['qos']})" for r in results]
    rows = [
        ("readings sent", lambda r: f"{r['readings_sent']:,}"),
        ("frames sent / planned", lambda r: f"{r['frames_sent']:,} / {r['frames_planned']:,}"),
        ("readings not acknowledged", lambda r: f"{r['missing_acks']:,}" if r["kind"] == "heartwork" else "n/a (QoS 0)"),
        ("readings stored (database)", lambda r: f"{r['stored_readings']:,}" if "stored_readings" in r else "n/a"),
        ("viewer readings expected", lambda r: f"{r['viewer_expected']:,}"),
        ("viewer readings missing", lambda r: f"{r['viewer_missing']:,} ({r['viewers_short']} viewers short)"),
        ("duplicates / errors", lambda r: f"{r['duplicates']} / {r['errors']}"),
        ("latency p50 (ms)", lambda r: f"{r['latency_ms']['p50']:.2f}"),
        ("latency p95 (ms)", lambda r: f"{r['latency_ms']['p95']:.2f}"),
        ("latency p99 (ms)   target ≤ 50", lambda r: f"{r['latency_ms']['p99']:.2f}"),
        ("latency max (ms)", lambda r: f"{r['latency_ms']['max']:.2f}"),
        ("frame fully acked p50/p99 (ms)",
         lambda r: f"{r['ack_latency_ms']['p50']:.2f} / {r['ack_latency_ms']['p99']:.2f}" if r["ack_latency_ms"] else "n/a"),
        ("server CPU (s over window)", lambda r: f"{r['server_cpu_seconds']:.2f}"),
        ("server CPU (cores busy)", lambda r: f"{r['server_cpu_per_second']:.3f}"),
        ("server CPU per 1,000 sensors", lambda r: f"{r['server_cpu_per_second_per_1000_sensors']:.4f} s/s"),
        ("server CPU first/last 10 % (cores)", lambda r: f"{r['server_cpu_first_tenth']:.2f} / {r['server_cpu_last_tenth']:.2f}"),
        ("stored bytes per reading (blocks' data)", lambda r: f"{r['block_bytes_per_reading']}" if "block_bytes_per_reading" in r else "n/a"),
        ("server RSS at end (MB)", lambda r: f"{r['server_rss_mb']:.0f}"),
        ("server RSS at minute 1/10/30 (MB)",
         lambda r: " / ".join(str(r.get("server_rss_mb_by_minute", {}).get(m, "–")) for m in (1, 10, 30))),
        ("ack p99 first/middle/last tenth (ms)",
         lambda r: " / ".join(str(t) for t in (r["ack_p99_ms_by_tenth"][0], r["ack_p99_ms_by_tenth"][5], r["ack_p99_ms_by_tenth"][9]))
         if r.get("ack_p99_ms_by_tenth") else "—"),
        ("load generator CPU (cores busy)", lambda r: f"{r['client_cpu_per_second']:.3f}"),
        ("load gen. loop lag p99/max (ms)", lambda r: f"{r['client_loop_lag_ms']['p99']:.1f} / {r['client_loop_lag_ms']['max']:.1f}"),
        ("send slip p99/max (ms)", lambda r: f"{r['send_slip_ms']['p99']:.1f} / {r['send_slip_ms']['max']:.1f}"),
    ]
    width = max(len(label) for label, _ in rows) + 2
    print(f"{'':{width}}" + "".join(f"{c:>26}" for c in columns))
    for label, cell in rows:
        print(f"{label:{width}}" + "".join(f"{cell(r):>26}" for r in results))
    print()
    print("'server' is the Heartwork process or the mosquitto broker; CPU is user + system from /proc/<pid>/stat.")
    print("Latency: viewer/subscriber receive instant minus the gateway's send instant of the frame, per reading.")
    for r in results:
        if r["closes"]:
            print(f"{r['kind']}: connections closed early: {r['closes']}")
        if r["error_samples"]:
            print(f"{r['kind']}: server errors, e.g. {r['error_samples']}")
        if r.get("server_log_lines"):
            print(f"{r['kind']}: last server log lines: {r['server_log_lines']}")
        if "version" in r:
            print(f"mosquitto: {r['version']}")


def lost(result):
    return (result["missing_acks"] + result["viewer_missing"] + (result["frames_planned"] - result["frames_sent"]) > 0
            or ("stored_readings" in result and result["stored_readings"] < result["readings_sent"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the heartwork binary (a release build for real figures)")
    parser.add_argument("--seconds", type=int, default=300, help="measured duration (default 300)")
    parser.add_argument("--warmup", type=int, default=10, help="seconds sent before the measured window (default 10)")
    parser.add_argument("--drain", type=float, default=15, help="seconds to wait for the last acks and readings (default 15)")
    parser.add_argument("--sensors", type=int, default=10000)
    parser.add_argument("--gateways", type=int, default=100)
    parser.add_argument("--viewers", type=int, default=50, help="clubs (users), one feed viewer each (default 50)")
    parser.add_argument("--workers", type=int, default=2, help="load-generator processes (default 2)")
    parser.add_argument("--skip-mosquitto", action="store_true")
    parser.add_argument("--no-batch", action="store_true",
                        help="one ack and one reading a message, as before ?batch=1 (default: gateways and viewers ask for batches)")
    parser.add_argument("--postgres", metavar="URL",
                        help="run Heartwork on a fresh database of this PostgreSQL server (needs asyncpg) instead of SQLite")
    parser.add_argument("--json", help="write every figure (and the per-second CPU timelines) here")
    args = parser.parse_args()
    if not (1 <= args.viewers <= args.gateways <= args.sensors):
        parser.error("need 1 ≤ viewers ≤ gateways ≤ sensors")
    if -(-args.gateways // args.viewers) > 50:
        parser.error("at most 50 gateways per user: raise --viewers")
    if -(-args.sensors // args.gateways) > 500:
        parser.error("at most 500 readings per frame: raise --gateways")
    if args.seconds < 1 or args.warmup < 0:
        parser.error("--seconds ≥ 1, --warmup ≥ 0")

    straps, clubs = plan(args.sensors, args.gateways, args.viewers)
    data = tempfile.mkdtemp(prefix="heartwork-live-bench-")
    results = []
    print(f"heartwork phase ({args.warmup + args.seconds} s) …", flush=True)
    results.append(heartwork_phase(args, data, straps, clubs))
    if args.json:  # kept should the next phase fail
        with open(args.json, "w") as out:
            json.dump({"results": results, "cpus": os.cpu_count(), "batch": not args.no_batch}, out, indent=1)
    if not args.skip_mosquitto:
        print(f"mosquitto phase ({args.warmup + args.seconds} s) …", flush=True)
        results.append(mosquitto_phase(args, data, straps, clubs))
    report(args, results)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"results": results, "cpus": os.cpu_count(), "batch": not args.no_batch}, out, indent=1)
    shutil.rmtree(data, ignore_errors=True)
    if lost(results[0]):
        print("FAIL: Heartwork lost readings")
        sys.exit(1)
    if len(results) > 1 and lost(results[1]):
        print("FAIL: mosquitto lost readings")
        sys.exit(2)


if __name__ == "__main__":
    main()
