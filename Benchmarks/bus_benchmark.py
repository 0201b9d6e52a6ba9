#!/usr/bin/env python3
"""Cross-instance live benchmark (issue 26, "Past one machine"): two `heartwork serve` processes
on one PostgreSQL database, and PostgreSQL's own LISTEN/NOTIFY without Heartwork.

Heartwork phase. A fresh database; `--users` users, each with `--gateways` gateway connections
to instance A (each gateway carrying `--straps` straps: one `readings` frame holds one reading
per strap) and one feed viewer on instance B. The gateways send at a stepped rate (`--steps`,
readings a second in total, each step `--seconds` long): a gateway's frames are spread evenly
over time and the gateways are offset from each other. Per step:

  * cross-instance latency per reading: B's viewer's receive instant minus the instant the
    gateway sent the frame that carried it (CLOCK_MONOTONIC, shared by all processes), p50 / p99
    / max, and readings that never reached B;
  * frame fully acknowledged (committed) on A, p50 / p99, to tell the store from the bus;
  * the bus itself: a tap (a third LISTEN on `heartwork_live`, asyncpg, its own process) counts
    the NOTIFY payloads a second, their bytes and the readings they carry; the database's
    committed transactions a second (`pg_stat_database`: each `pg_notify` is its own
    transaction) and the notification queue's fill (`pg_notification_queue_usage()`) at the
    step's end;
  * CPU (user + system, cores busy) of instance A, instance B, every `postgres` process, the
    load generators and the tap; the load generators' event-loop lag and send slip, so one can
    tell whether Python was the limit.

Raw phase. PostgreSQL alone: one notifier process, one listener process (asyncpg), payloads of
the size LiveBusCodec makes for `--straps` readings (and for 1): paced steps (latency p50/p99
per rate, notifier `SELECT pg_notify(…)` one per transaction as LiveBus sends them), then flat
out (one per transaction, 1 and 4 notifier connections, and 100 per transaction).

Usage: bus_benchmark.py BINARY [--steps 500,1000,2000,4000,8000,16000] [--seconds 20]
       [--users 10] [--gateways 2] [--straps 10] [--workers 2] [--local-viewers] [--no-tap] [--skip-raw]
       [--skip-heartwork] [--raw-seconds 5] [--json out.json]
PostgreSQL: HEARTWORK_TEST_POSTGRES_URL or --postgres (default
postgres://heartwork:heartwork@127.0.0.1:5432/heartwork); a fresh database is created for the
run (the role needs CREATEDB) and dropped afterwards.
"""
import argparse
import array
import asyncio
import json
import math
import multiprocessing
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_common import CLOCK_TICKS, address, call, free_port, hrm_hex, own_cpu, percentile, process_cpu  # noqa: E402

CHANNEL = "heartwork_live"


# ---------------------------------------------------------------------------------------------
# Helpers



def postgres_cpu(database):
    """User + system CPU seconds of the cluster's shared processes (WAL writer, checkpointer, …)
    and of the backends connected to `database`: backends of other databases (another test
    suite on the same cluster) are left out."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as comm:
                if comm.read().strip() != "postgres":
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                line = cmdline.read().decode(errors="replace")
        except OSError:
            continue
        is_backend = "127.0.0.1(" in line or "[local]" in line or "::1(" in line
        if is_backend and f" {database} " not in line:
            continue
        total += process_cpu(entry)
    return total


def machine_cpu():
    """CPU seconds every process of the machine used (user + nice + system + irq + softirq)."""
    with open("/proc/stat") as stat:
        fields = stat.readline().split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return (user + nice + system + irq + softirq) / CLOCK_TICKS



def ms(ordered, fraction):
    value = percentile(ordered, fraction)
    return None if math.isnan(value) else round(value / 1000, 2)



def with_database(url, name):
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))



def codec_payload(readings, instance=None, user=None):
    """A readings notification as LiveBusCodec writes it (same members, same JSON), for
    `readings` readings of UUID-named sensors with one RR interval each."""
    instance = instance or str(uuid.uuid4())
    user = user or str(uuid.uuid4())
    items = ",".join(
        f'["{uuid.uuid4()}","{address(1, s)}",null,{100000 + s},{1795400000000 + s},{60 + s % 100},"detected",{80 - s % 30},[{900 + s}]]'
        for s in range(readings))
    return f'{{"v":1,"i":"{instance}","k":"r","u":"{user}","r":[{items}]}}'


# ---------------------------------------------------------------------------------------------
# Heartwork phase: the load generator (one per worker process, whole users each)


def schedule(job):
    """Per step: (start offset, frames per gateway a second)."""
    total_gateways = job["total_gateways"]
    straps = job["straps"]
    return [(i * job["seconds"], rate / (total_gateways * straps)) for i, rate in enumerate(job["steps"])]


class Load:
    def __init__(self, job):
        self.job = job
        self.straps = job["straps"]
        self.steps = schedule(job)
        self.total_seconds = job["seconds"] * len(job["steps"])
        # Frames each gateway sends, in order: (target offset from t0, step).
        self.plan = {}
        for g in job["gateways"]:
            frames = []
            for step, (start, per_second) in enumerate(self.steps):
                interval = 1.0 / per_second
                offset = (g / job["total_gateways"]) * interval
                k = 0
                while True:
                    at = start + offset + k * interval
                    if at >= start + job["seconds"]:
                        break
                    frames.append((at, step))
                    k += 1
            self.plan[g] = frames
        self.sent_at = {g: array.array("d", [0.0]) * len(f) for g, f in self.plan.items()}
        self.received = {g: bytearray(self.straps * len(f)) for g, f in self.plan.items()}
        self.frames_sent = {g: 0 for g in self.plan}
        self.address_index = {address(g, s): (g, s) for g in self.plan for s in range(self.straps)}
        n = len(job["steps"])
        self.latency = [array.array("l") for _ in range(n)]  # µs, B's viewers
        self.local_latency = [array.array("l") for _ in range(n)]  # µs, A's viewers (--local-viewers)
        self.local_received = {g: bytearray(self.straps * len(f)) for g, f in self.plan.items()} if job["local_viewers"] else None
        self.ack_latency = [array.array("l") for _ in range(n)]
        self.slip = [array.array("l") for _ in range(n)]
        self.lag = [array.array("l") for _ in range(n)]
        self.cpu_marks = [None] * (n + 1)
        self.ack_counts = {g: {} for g in self.plan}
        self.acked = {g: [-1] * self.straps for g in self.plan}
        self.duplicates = 0
        self.errors = []
        self.closes = []

    def step_of(self, seconds):
        return min(len(self.steps) - 1, max(0, int(seconds // self.job["seconds"])))

    def mark(self, g, s, seq, now, local):
        flags = self.local_received[g] if local else self.received[g]
        index = s * len(self.plan[g]) + seq
        if seq >= len(self.plan[g]):
            return
        if flags[index]:
            self.duplicates += 1
            return
        flags[index] = 1
        at, step = self.plan[g][seq]
        if at - self.steps[step][0] < self.job["settle"]:
            return
        (self.local_latency if local else self.latency)[step].append(int((now - self.sent_at[g][seq]) * 1e6))

    async def lag_monitor(self):
        t0 = self.job["t0"]
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.05)
            lag = time.monotonic() - start - 0.05
            self.lag[self.step_of(start - t0)].append(int(lag * 1e6))

    async def cpu_mark_task(self):
        t0 = self.job["t0"]
        for i in range(len(self.steps) + 1):
            await asyncio.sleep(max(0.0, t0 + i * self.job["seconds"] - time.monotonic()))
            self.cpu_marks[i] = own_cpu()

    def missing(self, step, local=False):
        """Readings of frames sent in `step` that never arrived."""
        total = 0
        for g, frames in self.plan.items():
            flags = (self.local_received if local else self.received)[g]
            n = len(frames)
            for seq in range(self.frames_sent[g]):
                if frames[seq][1] != step:
                    continue
                total += sum(1 for s in range(self.straps) if not flags[s * n + seq])
        return total

    def sent(self, step):
        return sum(sum(1 for seq in range(self.frames_sent[g]) if frames[seq][1] == step) for g, frames in self.plan.items()) * self.straps

    def result(self):
        n = len(self.steps)
        return {
            "steps": [{
                "sent": self.sent(i), "missing": self.missing(i),
                "local_missing": self.missing(i, local=True) if self.local_received else None,
                "latency": self.latency[i].tobytes(), "local_latency": self.local_latency[i].tobytes(),
                "ack_latency": self.ack_latency[i].tobytes(), "slip": self.slip[i].tobytes(), "lag": self.lag[i].tobytes(),
                "cpu": (self.cpu_marks[i + 1] - self.cpu_marks[i]) if self.cpu_marks[i + 1] is not None else float("nan"),
            } for i in range(n)],
            "frames_planned": sum(len(f) for f in self.plan.values()),
            "frames_sent": sum(self.frames_sent.values()),
            "duplicates": self.duplicates, "errors": self.errors[:5], "closes": self.closes[:10],
        }


async def heartwork_load(job, control):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    load = Load(job)
    common = dict(compression=None, max_size=2 ** 22, ping_interval=20, ping_timeout=None, open_timeout=60)

    async def viewer(websocket, local):
        try:
            async for message in websocket:
                now = time.monotonic()
                reading = json.loads(message)
                if reading.get("type") != "reading":
                    continue
                where = load.address_index.get(reading["address"])
                if where is not None:
                    load.mark(where[0], where[1], reading["seq"], now, local)
        except ConnectionClosed as closed:
            load.closes.append(f"viewer: {closed.rcvd.code if closed.rcvd else 'no close frame'} {closed.rcvd.reason if closed.rcvd else ''}")

    async def acks(g, websocket):
        counts, acked, sent_at, frames = load.ack_counts[g], load.acked[g], load.sent_at[g], load.plan[g]
        try:
            async for message in websocket:
                now = time.monotonic()
                ack = json.loads(message)
                if ack.get("type") != "ack":
                    if len(load.errors) < 5:
                        load.errors.append(message[:200])
                    continue
                _, s = load.address_index[ack["sensor"]]
                seq = ack["seq"]
                # Acks may be batched: an ack up to seq covers every earlier frame of the strap.
                for covered in range(acked[s] + 1, seq + 1):
                    count = counts.get(covered, 0) + 1
                    if count == load.straps:
                        counts.pop(covered, None)
                        at, step = frames[covered]
                        if at - load.steps[step][0] >= job["settle"]:
                            load.ack_latency[step].append(int((now - sent_at[covered]) * 1e6))
                    else:
                        counts[covered] = count
                if seq > acked[s]:
                    acked[s] = seq
        except ConnectionClosed as closed:
            load.closes.append(f"gateway {g}: {closed.rcvd.code if closed.rcvd else 'no close frame'} {closed.rcvd.reason if closed.rcvd else ''}")

    async def sender(g, websocket):
        t0 = job["t0"]
        straps = load.straps
        templates = []
        for variant in range(4):
            items = ",".join(f'{{"sensor":"{address(g, s)}","seq":\x01,"at":\x02,"hrm":"{hrm_hex(g, s, variant)}"}}' for s in range(straps))
            templates.append('{"type":"readings","items":[' + items + "]}")
        sent_at = load.sent_at[g]
        try:
            for seq, (at, step) in enumerate(load.plan[g]):
                target = t0 + at
                delay = target - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                text = templates[seq % 4].replace("\x01", str(seq)).replace("\x02", str(int(time.time() * 1000)))
                now = time.monotonic()
                sent_at[seq] = now
                load.slip[step].append(int(max(0.0, now - target) * 1e6))
                await websocket.send(text)
                load.frames_sent[g] = seq + 1
        except ConnectionClosed:
            pass

    viewers = []
    for user in job["users"]:
        for port, local in [(job["port_b"], False)] + ([(job["port_a"], True)] if job["local_viewers"] else []):
            websocket = await connect(f"ws://127.0.0.1:{port}/api/live/feed",
                                      additional_headers={"Authorization": f"Bearer {job['viewer_tokens'][user][int(local)]}"}, **common)
            first = json.loads(await websocket.recv())
            assert first.get("type") == "watching", first
            viewers.append((websocket, local))
    gateways = {}
    for g in job["gateways"]:
        # --split-gateways: every other gateway on B, so both instances store (two writers).
        port = job["port_b"] if job.get("split_gateways") and g % 2 == 1 else job["port_a"]
        gateways[g] = await connect(f"ws://127.0.0.1:{port}/api/live/gateway?token={job['gateway_tokens'][g]}", **common)

    control.send("ready")
    job["t0"] = await asyncio.get_running_loop().run_in_executor(None, control.recv)
    readers = [asyncio.create_task(viewer(w, local)) for w, local in viewers]
    readers += [asyncio.create_task(acks(g, w)) for g, w in gateways.items()]
    senders = [asyncio.create_task(sender(g, w)) for g, w in gateways.items()]
    lag = asyncio.create_task(load.lag_monitor())
    marks = asyncio.create_task(load.cpu_mark_task())
    await asyncio.sleep(max(0.0, job["t0"] + load.total_seconds - time.monotonic()))
    deadline = time.monotonic() + job["drain"]
    while time.monotonic() < deadline:
        if all(t.done() for t in senders) and load.missing(len(load.steps) - 1) == 0 and not any(load.ack_counts.values()):
            break
        await asyncio.sleep(0.2)
    await marks
    for task in readers + senders + [lag]:
        task.cancel()
    for outcome in await asyncio.gather(*readers, *senders, lag, return_exceptions=True):
        if isinstance(outcome, Exception) and not isinstance(outcome, asyncio.CancelledError):
            load.errors.append(f"load generator task failed: {type(outcome).__name__}: {outcome}")
    for websocket in list(gateways.values()) + [w for w, _ in viewers]:
        await websocket.close()
    return load.result()


def load_main(job, control, results):
    try:
        results.put(asyncio.run(heartwork_load(job, control)))
    except BaseException as error:  # noqa: BLE001 - reported to the parent
        import traceback
        results.put({"failed": f"{type(error).__name__}: {error}\n{traceback.format_exc()[-1500:]}"})
        try:
            control.send("failed")
        except OSError:
            pass


# --- the tap: a third listener on the bus, counting payloads per second ---


def tap_main(url, t0_pipe, results, total_seconds, drain):
    async def run():
        import asyncpg
        connection = await asyncpg.connect(url)
        counts = {}

        def on_notify(_connection, _pid, _channel, payload):
            second = int(time.monotonic() - state["t0"]) if state["t0"] else -1
            entry = counts.get(second)
            if entry is None:
                entry = counts[second] = [0, 0, 0, 0]
            entry[0] += 1
            entry[1] += len(payload)
            # readings in a readings payload: items are 9-member arrays, one `[` for the item
            # and one for its RR list.
            if '"k":"r"' in payload:
                entry[2] += (payload.count("[") - 1) // 2
            else:
                entry[3] += 1

        state = {"t0": None}
        await connection.add_listener(CHANNEL, on_notify)
        t0_pipe.send("ready")
        state["t0"] = await asyncio.get_running_loop().run_in_executor(None, t0_pipe.recv)
        start_cpu = own_cpu()
        await asyncio.sleep(max(0.0, state["t0"] + total_seconds + drain - time.monotonic()))
        cpu = own_cpu() - start_cpu
        await connection.close()
        return {"per_second": {str(k): v for k, v in counts.items()}, "cpu": cpu}

    try:
        results.put(asyncio.run(run()))
    except BaseException as error:  # noqa: BLE001
        results.put({"failed": f"tap: {type(error).__name__}: {error}"})


# --- the Heartwork phase, driven from the parent ---


def start_instance(binary, url, data, name):
    port = free_port()
    log = open(os.path.join(data, f"{name}.log"), "w")
    environment = dict(os.environ, HEARTWORK_BCRYPT_COST="4")
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--database", url, "--data-dir", os.path.join(data, name),
                                "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=log, env=environment)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            call(base, "GET", "/healthz")
            return process, port, base
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"instance {name} exited with {process.returncode}; see {data}/{name}.log")
            time.sleep(0.2)
    raise SystemExit(f"instance {name} did not answer /healthz")


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def database_stats(url, name):
    import asyncpg
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow("SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1", name)
        usage = await connection.fetchval("SELECT pg_notification_queue_usage()")
        return {"commits": row["xact_commit"], "rollbacks": row["xact_rollback"], "queue_usage": usage}
    finally:
        await connection.close()


def heartwork_phase(args, admin_url, data):
    name = "heartwork_bus_" + secrets.token_hex(4)
    asyncio.run(admin(admin_url, f'CREATE DATABASE "{name}"'))
    url = with_database(admin_url, name)
    processes = []
    try:
        a, port_a, base_a = start_instance(args.binary, url, data, "a")
        processes.append(a)
        b, port_b, base_b = start_instance(args.binary, url, data, "b")
        processes.append(b)
        gateway_tokens, viewer_tokens, users = {}, {}, list(range(args.users))
        g = 0
        user_gateways = {}
        for user in users:
            username = f"bus{user:03d}"
            password = "bus-benchmark!"
            call(base_a, "POST", "/api/auth/register",
                 body={"username": username, "fullName": f"Club {user}", "email": f"{username}@example.org", "password": password})
            token_a = call(base_a, "POST", "/api/auth/login", body={"username": username, "password": password})[1]["token"]
            token_b = call(base_b, "POST", "/api/auth/login", body={"username": username, "password": password})[1]["token"]
            viewer_tokens[user] = (token_b, token_a)
            user_gateways[user] = []
            for _ in range(args.gateways):
                gateway_tokens[g] = call(base_a, "POST", "/api/gateways", token_a, {"name": f"Pitch {g}"})[1]["token"]
                user_gateways[user].append(g)
                g += 1
        total_gateways = g
        total_seconds = args.seconds * len(args.steps)

        context = multiprocessing.get_context("fork")
        results = context.Queue()
        tap = None
        if not args.no_tap:
            tap_parent, tap_child = context.Pipe()
            tap_results = context.Queue()
            tap = context.Process(target=tap_main, args=(url, tap_child, tap_results, total_seconds, args.drain), daemon=True)
            tap.start()
            if tap_parent.recv() != "ready":
                raise SystemExit("the tap did not start")
        workers = max(1, min(args.workers, len(users)))
        loaders, controls = [], []
        for w in range(workers):
            mine = [u for u in users if u % workers == w]
            gateways = [gw for u in mine for gw in user_gateways[u]]
            job = {"port_a": port_a, "port_b": port_b, "users": mine, "gateways": gateways, "total_gateways": total_gateways,
                   "split_gateways": args.split_gateways,
                   "straps": args.straps, "steps": args.steps, "seconds": args.seconds, "settle": args.settle, "drain": args.drain,
                   "gateway_tokens": {gw: gateway_tokens[gw] for gw in gateways},
                   "viewer_tokens": {u: viewer_tokens[u] for u in mine}, "local_viewers": args.local_viewers}
            parent, child = context.Pipe()
            process = context.Process(target=load_main, args=(job, child, results), daemon=True)
            process.start()
            loaders.append(process)
            controls.append(parent)
        for control in controls:
            if control.recv() != "ready":
                raise SystemExit(f"a load generator failed while connecting: {results.get(timeout=10)}")
        t0 = time.monotonic() + 1.0
        for control in controls:
            control.send(t0)
        if tap:
            tap_parent.send(t0)

        # Per step: CPU of A, B and PostgreSQL, the database's commits and the queue's fill.
        marks = []
        for i in range(len(args.steps) + 1):
            time.sleep(max(0.0, t0 + i * args.seconds - time.monotonic()))
            marks.append({"at": time.monotonic(), "a": process_cpu(a.pid), "b": process_cpu(b.pid), "postgres": postgres_cpu(name), "machine": machine_cpu(),
                          **asyncio.run(database_stats(admin_url, name))})
        outcomes = [results.get(timeout=args.drain + 180) for _ in loaders]
        for process in loaders:
            process.join(timeout=30)
        failed = [o["failed"] for o in outcomes if "failed" in o]
        if failed:
            raise SystemExit("a load generator failed:\n" + "\n".join(failed))
        tapped = None
        if tap:
            tapped = tap_results.get(timeout=args.drain + 60)
            tap.join(timeout=10)
            if "failed" in tapped:
                raise SystemExit(tapped["failed"])
        result = summarize(args, outcomes, marks, tapped, total_gateways)
        logs = {}
        for which in ("a", "b"):
            with open(os.path.join(data, f"{which}.log")) as log:
                lines = [line.rstrip() for line in log]
            logs[which] = {"lines": len(lines), "last": lines[-3:]}
        result["server_logs"] = logs
        return result
    finally:
        for process in processes:
            stop(process)
        try:
            asyncio.run(admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        except Exception as error:  # noqa: BLE001
            print(f"could not drop {name}: {error}", file=sys.stderr)


async def admin(url, statement):
    import asyncpg
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def summarize(args, outcomes, marks, tapped, total_gateways):
    steps = []
    for i, rate in enumerate(args.steps):
        def merged(key):
            values = array.array("l")
            for outcome in outcomes:
                values.frombytes(outcome["steps"][i][key])
            return sorted(values)

        latency, local, acks, slip, lag = merged("latency"), merged("local_latency"), merged("ack_latency"), merged("slip"), merged("lag")
        elapsed = marks[i + 1]["at"] - marks[i]["at"]
        step = {
            "rate": rate, "frames_per_second": round(rate / args.straps, 1),
            "frames_per_gateway_per_second": round(rate / args.straps / total_gateways, 2),
            "sent": sum(o["steps"][i]["sent"] for o in outcomes),
            "missing_on_b": sum(o["steps"][i]["missing"] for o in outcomes),
            "cross_ms": {"p50": ms(latency, 0.5), "p99": ms(latency, 0.99), "max": ms(latency, 1.0), "samples": len(latency)},
            "ack_ms": {"p50": ms(acks, 0.5), "p99": ms(acks, 0.99), "max": ms(acks, 1.0)},
            "cpu_cores": {
                "a": round((marks[i + 1]["a"] - marks[i]["a"]) / elapsed, 3),
                "b": round((marks[i + 1]["b"] - marks[i]["b"]) / elapsed, 3),
                # (a backend that exits takes its CPU with it: never below 0)
                "postgres": round(max(0.0, marks[i + 1]["postgres"] - marks[i]["postgres"]) / elapsed, 3),
                "load": round(sum(o["steps"][i]["cpu"] for o in outcomes) / args.seconds, 3),
                "machine": round((marks[i + 1]["machine"] - marks[i]["machine"]) / elapsed, 3),
            },
            "db_commits_per_second": round((marks[i + 1]["commits"] - marks[i]["commits"]) / elapsed, 1),
            "notify_queue_usage_end": marks[i + 1]["queue_usage"],
            "load_slip_ms": {"p99": ms(slip, 0.99), "max": ms(slip, 1.0)},
            "load_loop_lag_ms": {"p99": ms(lag, 0.99), "max": ms(lag, 1.0)},
        }
        if args.local_viewers:
            step["local_ms"] = {"p50": ms(local, 0.5), "p99": ms(local, 0.99), "max": ms(local, 1.0)}
            step["missing_on_a"] = sum(o["steps"][i]["local_missing"] or 0 for o in outcomes)
        if tapped:
            seconds = [tapped["per_second"].get(str(s)) for s in range(i * args.seconds, (i + 1) * args.seconds)]
            seconds = [s for s in seconds if s]
            payloads = sum(s[0] for s in seconds)
            step["bus"] = {
                "payloads_per_second": round(payloads / args.seconds, 1),
                "bytes_per_second": round(sum(s[1] for s in seconds) / args.seconds),
                "readings_per_second": round(sum(s[2] for s in seconds) / args.seconds, 1),
                "other_per_second": round(sum(s[3] for s in seconds) / args.seconds, 1),
                "mean_payload_bytes": round(sum(s[1] for s in seconds) / payloads) if payloads else None,
                "readings_per_payload": round(sum(s[2] for s in seconds) / payloads, 2) if payloads else None,
            }
        steps.append(step)
    knee = next((s["rate"] for s in steps if s["cross_ms"]["p99"] is None or s["cross_ms"]["p99"] > 100 or s["missing_on_b"]), None)
    return {
        "users": args.users, "gateways": total_gateways, "straps_per_gateway": args.straps, "seconds_per_step": args.seconds,
        "settle": args.settle, "steps": steps, "tap": bool(tapped), "tap_cpu_cores": round(tapped["cpu"] / (args.seconds * len(args.steps)), 3) if tapped else None,
        "frames_planned": sum(o["frames_planned"] for o in outcomes), "frames_sent": sum(o["frames_sent"] for o in outcomes),
        "duplicates": sum(o["duplicates"] for o in outcomes),
        "errors": [e for o in outcomes for e in o["errors"]][:5], "closes": [c for o in outcomes for c in o["closes"]][:10],
        "first_rate_past_100ms": knee,
    }


# ---------------------------------------------------------------------------------------------
# Raw phase: PostgreSQL LISTEN/NOTIFY alone


def raw_listener(url, pipe, results):
    async def run():
        import asyncpg
        connection = await asyncpg.connect(url)
        latencies = array.array("l")
        state = {"count": 0, "last": 0.0}

        def on_notify(_connection, _pid, _channel, payload):
            now = time.monotonic()
            state["count"] += 1
            state["last"] = now
            sent = float(payload[:payload.index("|")])
            latencies.append(int((now - sent) * 1e6))

        await connection.add_listener(CHANNEL, on_notify)
        pipe.send("ready")
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, pipe.recv)
            if command == "stop":
                break
            expected = command
            start_cpu = own_cpu()
            deadline = time.monotonic() + 120
            while state["count"] < expected and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            pipe.send({"received": state["count"], "last": state["last"], "latencies": latencies.tobytes(),
                       "cpu": own_cpu() - start_cpu})
            latencies = array.array("l")
            state["count"] = 0
        await connection.close()

    try:
        asyncio.run(run())
        results.put("done")
    except BaseException as error:  # noqa: BLE001
        results.put(f"listener failed: {error}")


async def raw_notify(url, payload, rate, seconds, connections, per_transaction):
    """Sends NOTIFYs: paced at `rate` a second (one connection), or flat out (`rate` None) over
    `connections` connections, `per_transaction` per transaction. Returns (sent, elapsed, slip)."""
    import asyncpg
    pg_start = postgres_cpu(urllib.parse.urlsplit(url).path.lstrip("/"))
    pool = [await asyncpg.connect(url) for _ in range(connections)]
    body = payload
    sent = 0
    slips = array.array("l")
    start = time.monotonic()
    end = start + seconds
    cpu = own_cpu()

    async def flat(connection):
        nonlocal sent
        while time.monotonic() < end:
            if per_transaction == 1:
                await connection.execute(f"SELECT pg_notify('{CHANNEL}', $1)", f"{time.monotonic():.6f}|" + body)
                sent += 1
            else:
                async with connection.transaction():
                    stamp = f"{time.monotonic():.6f}|"
                    await connection.executemany(f"SELECT pg_notify('{CHANNEL}', $1)", [(stamp + str(k) + body,) for k in range(per_transaction)])
                sent += per_transaction

    if rate is None:
        await asyncio.gather(*(flat(c) for c in pool))
    else:
        # Paced sends from several connections at once, as LiveBus's tasks send on its pool.
        await asyncio.gather(*(paced_share(c, rate / connections, start, end, body, slips, i / connections) for i, c in enumerate(pool)))
        sent = len(slips)
    elapsed = time.monotonic() - start
    cpu = own_cpu() - cpu
    pg_cpu = postgres_cpu(urllib.parse.urlsplit(url).path.lstrip("/")) - pg_start  # before the notifiers' backends exit
    for connection in pool:
        await connection.close()
    return sent, elapsed, sorted(slips), cpu, pg_cpu


async def paced_share(connection, rate, start, end, body, slips, phase):
    interval = 1.0 / rate
    k = 0
    while True:
        target = start + (k + phase) * interval
        if target >= end:
            break
        delay = target - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        now = time.monotonic()
        slips.append(int(max(0.0, now - target) * 1e6))
        await connection.execute(f"SELECT pg_notify('{CHANNEL}', $1)", f"{now:.6f}|" + body)
        k += 1


def raw_phase(args, admin_url):
    name = "heartwork_bus_raw_" + secrets.token_hex(4)
    asyncio.run(admin(admin_url, f'CREATE DATABASE "{name}"'))
    url = with_database(admin_url, name)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    parent, child = context.Pipe()
    listener = context.Process(target=raw_listener, args=(url, child, results), daemon=True)
    listener.start()
    if parent.recv() != "ready":
        raise SystemExit("the raw listener did not start")
    payloads = {1: codec_payload(1), args.straps: codec_payload(args.straps)}
    settings = {}

    async def read_settings():
        import asyncpg
        connection = await asyncpg.connect(url)
        try:
            for setting in ("server_version", "synchronous_commit", "fsync", "wal_sync_method", "max_connections"):
                settings[setting] = await connection.fetchval(f"SHOW {setting}")
        finally:
            await connection.close()

    asyncio.run(read_settings())
    runs = []

    def one(label, size, rate, connections, per_transaction, seconds):
        payload = payloads[size]
        t0, listener0, machine0 = time.monotonic(), process_cpu(listener.pid), machine_cpu()
        sent, elapsed, slips, cpu, pg_cpu = asyncio.run(raw_notify(url, payload, rate, seconds, connections, per_transaction))
        parent.send(sent)
        heard = parent.recv()
        wall = time.monotonic() - t0
        latencies = array.array("l")
        latencies.frombytes(heard["latencies"])
        latencies = sorted(latencies)
        run = {
            "mode": label, "readings_per_payload": size, "payload_bytes": len(payload) + 18, "target_rate": rate,
            "connections": connections, "per_transaction": per_transaction,
            "sent": sent, "received": heard["received"], "sent_per_second": round(sent / elapsed, 1),
            "received_per_second": round(heard["received"] / max(1e-9, heard["last"] - t0), 1) if heard["received"] else 0,
            "latency_ms": {"p50": ms(latencies, 0.5), "p99": ms(latencies, 0.99), "max": ms(latencies, 1.0)},
            "notifier_slip_ms": {"p99": ms(slips, 0.99)} if slips else None,
            "notifier_cpu_cores": round(cpu / elapsed, 3),
            "listener_cpu_cores": round((process_cpu(listener.pid) - listener0) / wall, 3),
            "postgres_cpu_cores": round(pg_cpu / elapsed, 3),
            "machine_cpu_cores": round((machine_cpu() - machine0) / wall, 3),
        }
        runs.append(run)
        p = run["latency_ms"]
        print(f"  raw {label:>6} {size:>3} readings/payload ({run['payload_bytes']} B), "
              f"{'rate ' + str(rate) if rate else 'flat out'} on {connections} conn × {per_transaction}/tx: "
              f"sent {run['sent_per_second']:,.0f}/s, heard {run['received']:,}/{sent:,}, p50 {p['p50']} p99 {p['p99']} ms, "
              f"postgres {run['postgres_cpu_cores']} cores", flush=True)

    try:
        for size in sorted(payloads):
            for rate in args.raw_steps:
                one("paced", size, rate, args.raw_connections, 1, args.raw_seconds)
            one("flat", size, None, 1, 1, args.raw_seconds)
            one("flat", size, None, 4, 1, args.raw_seconds)
            one("flat", size, None, 1, 100, args.raw_seconds)
    finally:
        parent.send("stop")
        listener.join(timeout=30)
        try:
            asyncio.run(admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        except Exception as error:  # noqa: BLE001
            print(f"could not drop {name}: {error}", file=sys.stderr)
    knees = {}
    for size in payloads:
        paced = [r for r in runs if r["mode"] == "paced" and r["readings_per_payload"] == size]
        knees[str(size)] = next((r["target_rate"] for r in paced
                                 if r["latency_ms"]["p99"] is None or r["latency_ms"]["p99"] > 100 or r["sent_per_second"] < 0.95 * r["target_rate"]), None)
    return {"settings": settings, "runs": runs, "first_paced_rate_past_100ms_or_not_kept_up": knees}


# ---------------------------------------------------------------------------------------------
# Report


def report(args, heartwork, raw):
    cpus = os.cpu_count()
    if heartwork:
        h = heartwork
        print()
        print(f"Two instances on one PostgreSQL database: {h['users']} users × {args.gateways} gateways "
              f"{'split between A and B' if args.split_gateways else 'on A'} "
              f"({h['straps_per_gateway']} straps each, one reading per strap per frame), one viewer per user on B; "
              f"{h['seconds_per_step']} s per step (first {h['settle']} s of each step not counted in latency); {cpus} cores, "
              f"{args.workers} load-generator process(es){', tap on' if h['tap'] else ''}")
        header = ("readings/s", "frames/s", "sent", "not at B", "B p50", "B p99", "B max", "ack p50", "ack p99",
                  "NOTIFY/s", "rdg/NOTIFY", "bus KB/s", "commits/s", "queue", "A cpu", "B cpu", "pg cpu", "load cpu", "all cpu", "lag p99", "slip p99")
        print("  ".join(f"{c:>9}" for c in header))
        for s in h["steps"]:
            bus = s.get("bus") or {}
            cells = (s["rate"], s["frames_per_second"], s["sent"], s["missing_on_b"], s["cross_ms"]["p50"], s["cross_ms"]["p99"],
                     s["cross_ms"]["max"], s["ack_ms"]["p50"], s["ack_ms"]["p99"], bus.get("payloads_per_second", "-"),
                     bus.get("readings_per_payload", "-"), round(bus["bytes_per_second"] / 1024, 1) if bus else "-",
                     s["db_commits_per_second"], f"{s['notify_queue_usage_end']:.4f}", s["cpu_cores"]["a"], s["cpu_cores"]["b"],
                     s["cpu_cores"]["postgres"], s["cpu_cores"]["load"], s["cpu_cores"]["machine"], s["load_loop_lag_ms"]["p99"], s["load_slip_ms"]["p99"])
            print("  ".join(f"{str(c):>9}" for c in cells))
            if "local_ms" in s:
                print(f"{'':>9}  viewers on A (in process): p50 {s['local_ms']['p50']} p99 {s['local_ms']['p99']} ms, max {s['local_ms']['max']} ms, not at A {s['missing_on_a']}")
        print("not at B: readings of the step the viewer on B had not received when the run ended (--drain after the last step)")
        print("latencies in ms (B: gateway send on A → viewer on B receives; ack: send → every strap of the frame acknowledged);"
              " cpu in cores busy (pg: this database's backends and the shared processes; all: every process of the machine, others' included); lag/slip: load generator's event-loop lag and send slip (ms)")
        if h["tap"]:
            print(f"tap (a third LISTEN, counting payloads): {h['tap_cpu_cores']} cores")
        print(f"first rate whose cross-instance p99 passed 100 ms (or lost readings): {h['first_rate_past_100ms']}")
        print(f"frames sent / planned: {h['frames_sent']:,} / {h['frames_planned']:,}; duplicates at viewers: {h['duplicates']}")
        if h["closes"]:
            print(f"connections closed: {h['closes']}")
        if h["errors"]:
            print(f"errors: {h['errors']}")
        for which, log in h["server_logs"].items():
            if log["lines"]:
                print(f"instance {which} logged {log['lines']} warning lines, last: {log['last']}")
    if raw:
        print()
        print(f"PostgreSQL LISTEN/NOTIFY alone ({raw['settings']}): one listener process, notifier process, asyncpg")
        print("  ".join(f"{c:>10}" for c in ("mode", "rdg/payload", "bytes", "target/s", "conns", "per tx", "sent/s", "heard", "p50 ms", "p99 ms", "max ms", "pg cpu", "notif cpu", "listen cpu", "all cpu")))
        for r in raw["runs"]:
            cells = (r["mode"], r["readings_per_payload"], r["payload_bytes"], r["target_rate"] or "-", r["connections"], r["per_transaction"],
                     r["sent_per_second"], f"{r['received']}/{r['sent']}", r["latency_ms"]["p50"], r["latency_ms"]["p99"], r["latency_ms"]["max"],
                     r["postgres_cpu_cores"], r["notifier_cpu_cores"], r["listener_cpu_cores"], r["machine_cpu_cores"])
            print("  ".join(f"{str(c):>10}" for c in cells))
        print(f"first paced rate whose p99 passed 100 ms or that the notifier could not keep: {raw['first_paced_rate_past_100ms_or_not_kept_up']}")


def main():
    # SIGTERM ends the run as Ctrl-C does: the instances stop and the databases are dropped.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the heartwork binary (a release build for real figures)")
    parser.add_argument("--steps", default="500,1000,2000,4000,8000,16000",
                        help="readings a second in total, one step each (default 500,1000,2000,4000,8000,16000)")
    parser.add_argument("--seconds", type=int, default=20, help="seconds per step (default 20)")
    parser.add_argument("--settle", type=float, default=2, help="seconds at the start of each step left out of the latencies (default 2)")
    parser.add_argument("--drain", type=float, default=10, help="seconds to wait for the last readings and acks (default 10)")
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--gateways", type=int, default=2, help="gateway connections per user (default 2)")
    parser.add_argument("--straps", type=int, default=10, help="straps per gateway = readings per frame (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="load-generator processes (default 2)")
    parser.add_argument("--local-viewers", action="store_true", help="also one viewer per user on instance A (in-process path)")
    parser.add_argument("--split-gateways", action="store_true",
                        help="connect every other gateway to instance B, so that both instances store (default: all on A)")
    parser.add_argument("--no-tap", action="store_true", help="do not count bus payloads with a third listener")
    parser.add_argument("--skip-heartwork", action="store_true")
    parser.add_argument("--skip-raw", action="store_true")
    parser.add_argument("--raw-steps", default="1000,2000,4000,8000,16000", help="paced NOTIFYs a second (default 1000,2000,4000,8000,16000)")
    parser.add_argument("--raw-seconds", type=float, default=5, help="seconds per raw run (default 5)")
    parser.add_argument("--raw-connections", type=int, default=4, help="notifier connections for the paced raw runs (default 4)")
    parser.add_argument("--postgres", default=os.environ.get("HEARTWORK_TEST_POSTGRES_URL", "postgres://heartwork:heartwork@127.0.0.1:5432/heartwork"))
    parser.add_argument("--json", help="write every figure here")
    args = parser.parse_args()
    args.steps = [int(s) for s in args.steps.split(",")]
    args.raw_steps = [int(s) for s in args.raw_steps.split(",")]
    if args.straps < 1 or args.straps > 500:
        parser.error("--straps 1–500 (readings per frame)")
    if args.gateways > 50:
        parser.error("at most 50 gateways per user")
    if max(args.steps) / (args.users * args.gateways) > 5000 or max(args.steps) / (args.users * args.gateways * args.straps) > 1000:
        parser.error("a gateway may send at most 5,000 readings and 1,000 frames a second: add users or gateways")

    data = tempfile.mkdtemp(prefix="heartwork-bus-bench-")
    heartwork = raw = None
    if not args.skip_heartwork:
        print(f"heartwork phase: {len(args.steps)} steps × {args.seconds} s …", flush=True)
        heartwork = heartwork_phase(args, args.postgres, data)
    if not args.skip_raw:
        print("raw LISTEN/NOTIFY phase …", flush=True)
        raw = raw_phase(args, args.postgres)
    report(args, heartwork, raw)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"heartwork": heartwork, "raw": raw, "cpus": os.cpu_count(), "args": {k: v for k, v in vars(args).items()}}, out, indent=1)


if __name__ == "__main__":
    main()
