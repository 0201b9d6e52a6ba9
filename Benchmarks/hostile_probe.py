#!/usr/bin/env python3
"""Issue 29's adversarial probe against a running server (release build), with the bounds
that the fixes must hold, printed as figures (a benchmark: it asserts nothing, it reports
"holds" or "BROKEN" per bound):

  1. a 1 MB zip whose route entry declares 1,000 bytes and inflates to 1 GiB: the server's
     peak resident set stays under 300 MiB (was 5.2 GB);
  2. 1 GiB of zeros sent as application/zip: answered 422 (was: the worker at 100 % for
     13 min), and another user's import meanwhile finishes within 20 s;
  6. a zip of 20,001 entries and 500 workouts: another user's 4 MB import finishes within
     20 s while it runs (was 39 s);
  7. two GPX uploads of 100,000 nested elements: another user's ordinary GPX is stored within
     2 s (was 16.9 s);
  8. a 30000×30000 PNG to the food-label OCR: refused at once, peak RSS unchanged;
  and an 8.7 KB zip whose route entry is cut mid-stream: the import ends (it spun for ever).

    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product heartwork
    python3 Benchmarks/hostile_probe.py .build/release/heartwork

Every input is generated here.
"""
import argparse
import io
import json
import os
import pathlib
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from uuid import uuid4

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)


def request(base, method, path, token=None, body=None, content_type=None, timeout=600):
    data = body if isinstance(body, (bytes, bytearray)) or body is None or hasattr(body, "read") else json.dumps(body).encode()
    req = urllib.request.Request(base + path, method=method, data=data)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if content_type or (body is not None and not isinstance(body, (bytes, bytearray)) and not hasattr(body, "read")):
        req.add_header("Content-Type", content_type or "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        payload = error.read()
        try:
            return error.code, json.loads(payload or b"null")
        except ValueError:
            return error.code, payload.decode(errors="replace")


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def raw_deflate(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def zip_bytes(entries):
    """entries: (name, stored bytes, method, crc, declared size) — headers say what we want."""
    out, directory = bytearray(), bytearray()
    for name, stored, method, crc, size in entries:
        offset = len(out)
        encoded = name.encode()
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, len(stored), size, len(encoded), 0) + encoded + stored
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc, len(stored), size, len(encoded), 0, 0, 0, 0, 0,
                                 offset) + encoded
    start = len(out)
    out += directory
    count = min(len(entries), 0xFFFF)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(directory), start, 0)
    return bytes(out)


def health_xml(days, workouts=1, tag="w", route_prefix=None):
    """An Apple Health export.xml: heart rate every 5 minutes and `workouts` runs a day."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">',
             f' <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>']
    for day in range(days):
        date = f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}"
        for minute in range(0, 24 * 60, 5):
            stamp = f"{date} {minute // 60:02d}:{minute % 60:02d}:00 +0100"
            lines.append(f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="{tag}" unit="count/min" creationDate="{stamp}" '
                         f'startDate="{stamp}" endDate="{stamp}" value="{60 + minute % 40}"/>')
        for index in range(workouts):
            start_minute = 6 * 60 + index * 2
            end_minute = start_minute + 1
            start = f"{date} {start_minute // 60:02d}:{start_minute % 60:02d}:00 +0100"
            end = f"{date} {end_minute // 60:02d}:{end_minute % 60:02d}:00 +0100"
            route = f'<WorkoutRoute sourceName="{tag}"><FileReference path="/workout-routes/{route_prefix}_{day}_{index}.gpx"/></WorkoutRoute>' if route_prefix else ""
            lines.append(f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="1" durationUnit="min" sourceName="{tag}" '
                         f'creationDate="{end}" startDate="{start}" endDate="{end}">{route}</Workout>')
    lines.append("</HealthData>")
    return ("\n".join(lines) + "\n").encode()


class Server:
    def __init__(self, binary, directory):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(directory, "server.log")
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([binary, "serve", "--port", str(self.port), "--data-dir", directory],
                                        stdout=self.log, stderr=self.log, env={**os.environ, "HEARTWORK_BCRYPT_COST": "4"})
        for _ in range(200):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1)
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def user(self, name):
        request(self.base, "POST", "/api/auth/register", body={"username": name, "fullName": name, "email": f"{name}@example.org", "password": "probe password"})
        return request(self.base, "POST", "/api/auth/login", body={"username": name, "password": "probe password"})[1]["token"]

    def wait_import(self, token, import_id, limit=600):
        started = time.time()
        while time.time() - started < limit:
            status, state = request(self.base, "GET", f"/api/imports/{import_id}", token=token)
            if state.get("state") in ("done", "failed"):
                return state, time.time() - started
            time.sleep(0.1)
        return {"state": "timeout"}, time.time() - started

    def stop(self):
        """SIGTERM; true when the server stopped within 30 s (else its log's end is printed
        and it is killed)."""
        self.process.terminate()
        try:
            self.process.wait(30)
            return True
        except subprocess.TimeoutExpired:
            with open(self.log_path, "rb") as log:
                tail = log.read().decode(errors="replace").splitlines()[-15:]
            print("the server did not stop within 30 s of SIGTERM; its log ends:\n  " + "\n  ".join(tail))
            self.process.kill()
            self.process.wait(30)
            return False


def verdict(ok):
    return "holds" if ok else "BROKEN"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--only", choices=["29", "40"], help="run only issue 29's or issue 40's cases")
    parser.add_argument("--quick", action="store_true", help="smaller inputs (CI, debug build): the same shapes; the victims' p99 bound 1 s rather than 100 ms")
    parser.add_argument("--check", action="store_true", help="exit 1 when a bound is broken")
    args = parser.parse_args()
    global VICTIM_P99_MS
    if args.quick:
        VICTIM_P99_MS = 1000
    broken = []
    with tempfile.TemporaryDirectory() as directory:
        server = Server(args.binary, directory)
        try:
            if args.only != "40":
                run(server)
            if args.only != "29":
                broken = run_issue40(server, quick=args.quick)
        finally:
            if not server.stop():
                broken.append("the server stopped within 30 s of SIGTERM")
    if broken:
        print("BROKEN: " + "; ".join(broken))
        if args.check:
            return 1
    return 0


def run(server):
    base, pid = server.base, server.process.pid
    hostile, normal = server.user("hostile"), server.user("normal")
    print(f"server idle: peak RSS {peak_rss_mib(pid):.0f} MiB")

    # 1. The route bomb.
    xml = health_xml(1, route_prefix="route")
    bomb = raw_deflate(b" " * (1 << 30))
    archive = zip_bytes([("apple_health_export/export.xml", xml, 0, zlib.crc32(xml), len(xml)),
                         ("apple_health_export/workout-routes/route_0_0.gpx", bomb, 8, 0, 1000)])
    status, created = request(base, "POST", "/api/imports/apple-health", hostile, archive, "application/zip")
    state, seconds = server.wait_import(hostile, created["id"]) if status == 202 else ({"state": status}, 0)
    peak = peak_rss_mib(pid)
    print(f"1. {len(archive) / 1e6:.2f} MB zip, route inflating to 1 GiB: {state['state']} in {seconds:.1f} s, "
          f"{state.get('workoutsAdded')} workout; peak RSS {peak:.0f} MiB (bound 300) — {verdict(peak < 300 and state['state'] == 'done')}")

    # The cut route (ZIPFoundation spun for ever on it).
    gpx = b'<gpx version="1.1"><trk><trkseg>' + b"".join(
        b'<trkpt lat="48.%06d" lon="16.%06d"><time>2026-01-01T06:%02d:%02dZ</time></trkpt>' % (i, i, i // 60 % 60, i % 60) for i in range(2000)) + b"</trkseg></trk></gpx>"
    xml = health_xml(1, tag="cut", route_prefix="cut")
    deflated = raw_deflate(gpx)
    archive = zip_bytes([("apple_health_export/export.xml", xml, 0, zlib.crc32(xml), len(xml)),
                         ("apple_health_export/workout-routes/cut_0_0.gpx", deflated[: len(deflated) // 2], 8, zlib.crc32(gpx), len(gpx))])
    status, created = request(base, "POST", "/api/imports/apple-health", hostile, archive, "application/zip")
    state, seconds = server.wait_import(hostile, created["id"], limit=60) if status == 202 else ({"state": status}, 0)
    print(f"   {len(archive) / 1e3:.1f} KB zip with a cut route: {state['state']} in {seconds:.1f} s — {verdict(state['state'] == 'done')}")

    # 2. 1 GiB of zeros as a zip, while another user imports.
    normal_xml = health_xml(2)
    def zeros():
        chunk = bytes(1 << 20)
        for _ in range(1024):
            yield chunk
    result = {}
    def hostile_upload():
        started = time.time()
        req = urllib.request.Request(base + "/api/imports/apple-health", method="POST", data=zeros())
        req.add_header("Authorization", f"Bearer {hostile}")
        req.add_header("Content-Type", "application/zip")
        req.add_header("Content-Length", str(1 << 30))
        try:
            with urllib.request.urlopen(req, timeout=600) as response:
                result["status"] = response.status
        except urllib.error.HTTPError as error:
            result["status"] = error.code
        except OSError as error:
            result["status"] = f"error {error}"
        result["seconds"] = time.time() - started
    thread = threading.Thread(target=hostile_upload)
    thread.start()
    time.sleep(0.5)
    status, created = request(base, "POST", "/api/imports/apple-health", normal, normal_xml, "application/xml")
    state, seconds = server.wait_import(normal, created["id"]) if status == 202 else ({"state": status}, 0)
    thread.join()
    print(f"2. 1 GiB of zeros as application/zip: {result.get('status')} after {result.get('seconds', 0):.1f} s; another user's "
          f"{len(normal_xml) / 1e6:.1f} MB import meanwhile {state['state']} in {seconds:.1f} s (bound 20) — "
          f"{verdict(result.get('status') == 422 and state['state'] == 'done' and seconds < 20)}")

    # 6. 20,001 entries and 500 workouts, while another user imports 4 MB.
    many_xml = health_xml(1, workouts=500, tag="many", route_prefix="many")
    entries = [("apple_health_export/export.xml", many_xml, 0, zlib.crc32(many_xml), len(many_xml))]
    tiny = b"<gpx/>"
    entries += [(f"apple_health_export/workout-routes/filler_{i}.gpx", tiny, 0, zlib.crc32(tiny), len(tiny)) for i in range(20_000)]
    archive = zip_bytes(entries)
    status, many = request(base, "POST", "/api/imports/apple-health", hostile, archive, "application/zip")
    four = health_xml(14, tag="four")
    status, created = request(base, "POST", "/api/imports/apple-health", normal, four, "application/xml")
    state, seconds = server.wait_import(normal, created["id"]) if status == 202 else ({"state": status}, 0)
    many_state, many_seconds = server.wait_import(hostile, many["id"]) if "id" in (many or {}) else ({"state": status}, 0)
    print(f"6. a zip of 20,001 entries and 500 workouts: {many_state['state']} in {many_seconds:.1f} s; another user's "
          f"{len(four) / 1e6:.1f} MB import meanwhile {state['state']} in {seconds:.1f} s (bound 20) — {verdict(state['state'] == 'done' and seconds < 20)}")

    # 7. Deep GPX twice, while another user uploads an ordinary one.
    deep = b'<?xml version="1.0"?><gpx version="1.1" creator="probe"><trk><trkseg>' + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</trkseg></trk></gpx>"
    ordinary = (b'<?xml version="1.0"?><gpx version="1.1" creator="probe" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><trkseg>'
                + b"".join(b'<trkpt lat="48.%05d" lon="16.3"><time>2026-03-01T07:%02d:%02dZ</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>%d</gpxtpx:hr>'
                           b"</gpxtpx:TrackPointExtension></extensions></trkpt>" % (i, i // 60, i % 60, 120 + i % 20) for i in range(1800))
                + b"</trkseg></trk></gpx>")
    deep_results = []
    def deep_upload():
        deep_results.append(request(base, "POST", "/api/workouts", hostile, deep, "application/gpx+xml")[0])
    threads = [threading.Thread(target=deep_upload) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    started = time.time()
    status, _ = request(base, "POST", "/api/workouts", normal, ordinary, "application/gpx+xml")
    ordinary_seconds = time.time() - started
    for t in threads:
        t.join()
    print(f"7. two GPX of 100,000 nested elements: {deep_results}; another user's ordinary GPX {status} in {ordinary_seconds:.2f} s (bound 2) — "
          f"{verdict(status == 201 and ordinary_seconds < 2)}")

    # 8. A 30000×30000 PNG to OCR.
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = zlib.compress(b"".join(b"\x00" + b"\xff" * 3000 for _ in range(10)), 9)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30000, 30000, 8, 0, 0, 0, 0)) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
    before = peak_rss_mib(pid)
    started = time.time()
    status, answer = request(base, "POST", "/api/food-label", hostile, png, "image/png")
    print(f"8. a 30000×30000 PNG to OCR: {status} in {time.time() - started:.2f} s ({answer.get('detail') if isinstance(answer, dict) else answer}); "
          f"peak RSS {before:.0f} → {peak_rss_mib(pid):.0f} MiB — {verdict(status == 422 and peak_rss_mib(pid) < 300)}")


# ---------------------------------------------------------------------------------------------
# Issue 40: no input stops the server. Each case runs while a victim keeps asking: /healthz
# (anyone) and GET /api/me (another user), every 20 ms; their p99 latency and the server's
# largest resident set during the case are printed against the stated bounds.

# The victims' bound: p99 under 100 ms against the release build (the benchmark). With
# --quick (CI: the debug build, the probe's Python on the same two cores) it is 1,000 ms: it
# still catches a freeze (the server stood 133 s before issue 40) without timing a debug build,
# whose p99 there is 90-120 ms.
VICTIM_P99_MS = 100


class Victims:
    """Asks /healthz and another user's /api/me every 20 ms while a case runs, from another
    address (127.0.0.2: the attacker's connections come from 127.0.0.1, as they would from
    another machine); samples the server's RSS."""

    def __init__(self, base, pid, token):
        self.base, self.pid, self.token = base, pid, token
        self.port = int(base.rsplit(":", 1)[1])
        self.latencies, self.rss, self.failures = [], [], 0
        self.running = False

    def __enter__(self):
        self.running = True
        self.threads = [threading.Thread(target=self.loop, args=(path,), daemon=True) for path in ("/healthz", "/api/me")]
        for thread in self.threads:
            thread.start()
        return self

    def loop(self, path):
        import http.client
        while self.running:
            started = time.time()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=("127.0.0.2", 0))
                headers = {} if path == "/healthz" else {"Authorization": f"Bearer {self.token}"}
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                connection.close()
                if response.status != 200:
                    self.failures += 1
            except Exception:
                self.failures += 1
            self.latencies.append((time.time() - started) * 1000)
            self.rss.append(current_rss_mib(self.pid))
            time.sleep(0.02)

    def __exit__(self, *exc):
        self.running = False
        for thread in self.threads:
            thread.join(15)

    @property
    def p99(self):
        if not self.latencies:
            return float("inf")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]

    @property
    def peak(self):
        return max(self.rss or [0])

    def holds(self):
        return self.p99 < VICTIM_P99_MS and self.failures == 0

    def figures(self):
        return f"victims' p99 {self.p99:.0f} ms (bound {VICTIM_P99_MS}, {len(self.latencies)} asks, {self.failures} failed), peak RSS {self.peak:.0f} MiB"


def current_rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def json_object(keys, prefix="k"):
    return "{" + ",".join(f'"{prefix}{i}":{i % 10}' for i in range(keys)) + "}"


def websocket_text(port, path, token, frames, read_for=2.0):
    """A WebSocket client in a few lines (RFC 6455, masked text frames): sends `frames`, returns
    what it read within `read_for` seconds."""
    import base64
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        part = sock.recv(4096)
        if not part:
            return b""
        head += part
    for text in frames:
        payload = text.encode()
        mask = os.urandom(4)
        length = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | length]) if length < 126 else
                                  bytes([0x80 | 126]) + struct.pack(">H", length) if length < 65536 else
                                  bytes([0x80 | 127]) + struct.pack(">Q", length))
        sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    sock.settimeout(read_for)
    received = head.split(b"\r\n\r\n", 1)[1]
    try:
        while True:
            part = sock.recv(65536)
            if not part:
                break
            received += part
    except OSError:
        pass
    sock.close()
    return received


def trickle(port, head, seconds, every=1.0, results=None):
    """Sends a request head, then one body byte every `every` s; records how the server ended it."""
    started = time.time()
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(head.encode())
        answer = b""
        while time.time() - started < seconds:
            sock.sendall(b"{")
            sock.settimeout(every)
            try:
                part = sock.recv(4096)
                if not part:
                    break
                answer += part
                if b"\r\n\r\n" in answer:
                    break
            except socket.timeout:
                pass
        sock.close()
        outcome = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "closed"
    except OSError as error:
        outcome = f"refused ({error.__class__.__name__})"
    if results is not None:
        results.append((outcome, time.time() - started))


def sync_body(entries=0, workout_keys=0, day="2026-06-01"):
    metrics = []
    if entries:
        data = ",".join(f'{{"date":"{day} {i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d} +0000","Min":60,"Avg":70,"Max":80}}' for i in range(entries))
        metrics.append(f'{{"name":"heart_rate","units":"count/min","data":[{data}]}}')
    workouts = []
    if workout_keys:
        extra = json_object(workout_keys, prefix="x")[1:-1]
        workouts.append(f'{{"id":"w","name":"Running","start":"{day} 06:00:00 +0000","end":"{day} 06:30:00 +0000",{extra}}}')
    return f'{{"data":{{"metrics":[{",".join(metrics)}],"workouts":[{",".join(workouts)}]}}}}'.encode()


def strong_csv(rows):
    lines = ["Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps"]
    for i in range(rows):
        day = i // 50
        lines.append(f"20{10 + day // 336:02d}-{1 + day // 28 % 12:02d}-{1 + day % 28:02d} 07:30:00,Legs,45m,Squat (Barbell),{i % 50 + 1},{60 + i % 40},5")
    return ("\n".join(lines) + "\n").encode()


def sync_token(base, token, name):
    return request(base, "POST", "/api/sync-tokens", token, {"name": name})[1]["token"]


def run_issue40(server, quick=False):
    base, pid, port = server.base, server.process.pid, server.port
    broken = []
    users = {name: server.user(f"i40{name}") for name in ("attacker", "victim", "a2", "a3", "fourth")}
    attacker, victim = users["attacker"], users["victim"]
    print(f"issue 40 (quick={quick}); server RSS {current_rss_mib(pid):.0f} MiB")

    def report(label, ok, victims=None, extra=""):
        line = f"{label}: {extra}{'; ' if extra and victims else ''}{victims.figures() if victims else ''} — {verdict(ok)}"
        print(line, flush=True)
        if not ok:
            broken.append(label)

    # 1. Two gateway frames of one JSON object with 95,000 distinct keys (1 MB each).
    status, gateway = request(base, "POST", "/api/gateways", attacker, {"name": "probe"})
    frame = '{"type":"reading","sensor":"A0:9E:1A:00:00:01","seq":1,"at":' + str(int(time.time() * 1000)) + ',"hrm":"0648",' + json_object(65_000)[1:]
    with Victims(base, pid, victim) as victims:
        started = time.time()
        threads = [threading.Thread(target=websocket_text, args=(port, "/api/live/gateway", gateway["token"], [frame, frame])) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.time() - started
    report("40.1 two gateways × two 1 MB frames of 65,000 keys", victims.holds(), victims, f"answered in {seconds:.1f} s")

    # 2. Phone sync: two workouts of 80,000 keys (0.87 MB) while another user syncs one sample.
    attacker_sync, victim_sync = sync_token(base, attacker, "probe"), sync_token(base, victim, "victim phone")
    body = sync_body(workout_keys=80_000)
    one = sync_body(entries=1)
    with Victims(base, pid, victim) as victims:
        results = []
        threads = [threading.Thread(target=lambda: results.append(request(base, "POST", "/api/sync/health-auto-export", attacker_sync, body, "application/json")[0]))
                   for _ in range(2)]
        for thread in threads:
            thread.start()
        time.sleep(0.1)
        started = time.time()
        status, _ = request(base, "POST", "/api/sync/health-auto-export", victim_sync, one, "application/json")
        victim_seconds = time.time() - started
        for thread in threads:
            thread.join()
    report("40.2 two syncs of a workout with 80,000 keys", victims.holds() and status == 200 and victim_seconds < 2, victims,
           f"{results}; another user's 1-sample sync {status} in {victim_seconds:.2f} s (bound 2)")

    # 3. Recording chunks sent while the finish runs: none answered 201 is lost.
    lost = total = refused = 0
    start_ms = int(time.time() * 1000) - 3_600_000
    for trial in range(3):
        recording = f"{uuid4()}"
        request(base, "PUT", f"/api/recordings/{recording}", victim, {"sport": "running", "indoor": True,
                                                                     "startedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start_ms / 1000 + trial * 2000))})
        base_ms = start_ms + trial * 2_000_000
        def chunk(n):
            return {"samples": [{"at": base_ms + (n * 10 + i) * 1000, "bpm": 100 + n % 100} for i in range(10)]}
        for n in range(2):
            request(base, "PUT", f"/api/recordings/{recording}/chunks/{n}", victim, chunk(n))
        answers = {}
        def send(n):
            answers[n] = request(base, "PUT", f"/api/recordings/{recording}/chunks/{n}", victim, chunk(n))[0]
        threads = [threading.Thread(target=send, args=(n,)) for n in range(2, 30)]
        finisher = threading.Thread(target=lambda: answers.setdefault("finish", request(base, "POST", f"/api/recordings/{recording}/finish", victim, {})))
        for thread in threads[:5]:
            thread.start()
        finisher.start()
        for thread in threads[5:]:
            thread.start()
        for thread in threads + [finisher]:
            thread.join()
        workout = answers["finish"][1]["summary"]["id"]
        beats = request(base, "GET", f"/api/workouts/{workout}", victim)[1]["heartRate"]
        for n in range(2, 30):
            if answers[n] == 201:
                total += 1
                if not (n * 10 < len(beats) and beats[n * 10] == 100 + n % 100):
                    lost += 1
            else:
                refused += 1
    report("40.3 chunks sent during a finish", lost == 0, None, f"{total} answered 201, {lost} of them lost; {refused} refused with 409")

    # 4. Strength imports are jobs: 50,000 rows, and a header with a line of 20 million commas.
    rows = 20_000 if quick else 50_000
    csv = strong_csv(rows)
    with Victims(base, pid, victim) as victims:
        started = time.time()
        status, answer = request(base, "POST", "/api/strength/import", attacker, csv, "text/csv")
        answered = time.time() - started
        if status == 202:
            while True:
                status_, answer = request(base, "GET", f"/api/strength/imports/{answer['id']}", attacker)
                if answer.get("state") in ("done", "failed"):
                    break
                time.sleep(0.2)
            imported = (answer.get("result") or {}).get("imported")
        else:
            imported = answer.get("imported") if isinstance(answer, dict) else None
        finished = time.time() - started
    report(f"40.4 a Strong export of {rows:,} rows", victims.holds() and imported is not None, victims,
           f"answered {status} in {answered:.1f} s, {imported} workouts imported in {finished:.1f} s")
    commas = b"Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n" + b"," * (20_000_000 if not quick else 5_000_000) + b"\n"
    before = current_rss_mib(pid)
    with Victims(base, pid, victim) as victims:
        status, answer = request(base, "POST", "/api/strength/import", users["a2"], commas, "text/csv")
        if status == 202:
            while answer.get("state") not in ("done", "failed"):
                time.sleep(0.2)
                answer = request(base, "GET", f"/api/strength/imports/{answer['id']}", users["a2"])[1]
    detail = answer.get("error") or answer.get("detail") or answer.get("state")
    report("40.4 a header and a line of commas", victims.holds() and victims.peak - before < 150, victims,
           f"{status}: {str(detail)[:90]}; RSS {before:.0f} → {victims.peak:.0f} MiB (bound +150)")

    # 5. Fair across kinds: three users recompute days from 2000; a fourth's one-day sync shows at once.
    for name in ("attacker", "a2", "a3"):
        token = sync_token(base, users[name], "old clock")
        request(base, "POST", "/api/sync/health-auto-export", token, sync_body(entries=1, day="2000-01-02"), "application/json")
        request(base, "POST", "/api/sync/health-auto-export", token, sync_body(entries=30, day=time.strftime("%Y-%m-%d")), "application/json")
    fourth_sync = sync_token(base, users["fourth"], "phone")
    today = time.strftime("%Y-%m-%d")
    started = time.time()
    request(base, "POST", "/api/sync/health-auto-export", fourth_sync, sync_body(entries=60, day=today), "application/json")
    seen = None
    while time.time() - started < 120:
        status, day = request(base, "GET", f"/api/days/{today}", users["fourth"])
        if status == 200 and (day.get("heartRate") or {}).get("average"):
            seen = time.time() - started
            break
        time.sleep(0.2)
    report("40.5 a fourth user's day while three recompute from 2000", seen is not None and seen < 10, None,
           f"its day was worked out {('%.1f s' % seen) if seen else 'never'} after its sync (bound 10)")

    # 6. Slow clients: 1,050 sockets trickling a body; two workout bodies sent slowly.
    with Victims(base, pid, victim) as victims:
        results = []
        head = "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        threads = [threading.Thread(target=trickle, args=(port, head, 40 if not quick else 20, 1.0, results), daemon=True) for _ in range(1050)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    outcomes = {}
    for outcome, _ in results:
        outcomes[outcome.split(" (")[0]] = outcomes.get(outcome.split(" (")[0], 0) + 1
    report("40.6 1,050 sockets trickling a body", victims.holds(), victims, f"{outcomes}")
    with Victims(base, pid, victim) as victims:
        results = []
        head = (f"POST /api/workouts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {attacker}\r\nContent-Type: application/json\r\n"
                f"Content-Length: 1000000\r\n\r\n")
        threads = [threading.Thread(target=trickle, args=(port, head, 30, 2.5, results), daemon=True) for _ in range(2)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        started = time.time()
        upload, _ = request(base, "POST", "/api/workouts", victim, {"sport": "running", "startTime": "2026-05-01T07:00:00Z", "indoor": True,
                                                                   "heartRate": [120 + i % 30 for i in range(1800)]})
        upload_seconds = time.time() - started
        started = time.time()
        synced, _ = request(base, "POST", "/api/sync/health-auto-export", victim_sync, sync_body(entries=5, day="2026-05-02"), "application/json")
        sync_seconds = time.time() - started
        for thread in threads:
            thread.join(60)
    report("40.6 two workout bodies sent slowly", victims.holds() and upload == 201 and synced == 200 and max(upload_seconds, sync_seconds) < 2, victims,
           f"{[r[0] for r in results]}; another user's upload {upload} in {upload_seconds:.2f} s, sync {synced} in {sync_seconds:.2f} s (bound 2)")

    # 7. Without an account: login bodies of 6,400 keys at 1 MB/s; eight chunk bodies of 23,000 keys at once.
    login = json_object(6_400).encode()
    with Victims(base, pid, victim) as victims:
        ended = time.time() + (5 if quick else 10)
        while time.time() < ended:
            for _ in range(16):
                threading.Thread(target=request, args=(base, "POST", "/api/auth/login", None, login, "application/json"), daemon=True).start()
            time.sleep(1)
    report("40.7 login bodies of 6,400 keys, 1 MB/s", victims.holds(), victims)
    recording = f"{uuid4()}"
    request(base, "PUT", f"/api/recordings/{recording}", attacker, {"sport": "running", "indoor": True,
                                                                   "startedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 600))})
    chunk_body = ('{"samples":[],' + json_object(23_000)[1:]).encode()
    with Victims(base, pid, victim) as victims:
        threads = [threading.Thread(target=request, args=(base, "PUT", f"/api/recordings/{recording}/chunks/{n}", attacker, chunk_body, "application/json"))
                   for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    report("40.7 eight chunk bodies of 23,000 keys at once", victims.holds(), victims)

    # 8. Caps and floods.
    statuses = []
    threads = [threading.Thread(target=lambda i=i: statuses.append(request(base, "POST", "/api/gateways", users["a3"], {"name": f"g{i}"})[0])) for i in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    gateways = len(request(base, "GET", "/api/gateways", users["a3"])[1]["gateways"])
    report("40.8 60 gateways created at once", gateways == 50, None, f"{gateways} exist (cap 50)")
    sixty = sync_body(entries=1, day="2026-05-03")
    big_entries = 150_000 if quick else 650_000
    big = sync_body(entries=big_entries, day="2026-05-04")
    before = current_rss_mib(pid)
    with Victims(base, pid, victim) as victims:
        status, answer = request(base, "POST", "/api/sync/health-auto-export", victim_sync, big, "application/json")
    report(f"40.8 a {len(big) / 2**20:.0f} MiB sync", victims.holds() and victims.peak - before < 400 and status in (200, 422), victims,
           f"{status}; RSS {before:.0f} → {victims.peak:.0f} MiB (bound +400)")
    def png(width, height):
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        raw = zlib.compress(b"".join(b"\x00" + b"\xff" * 3 for _ in range(1)), 9)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
    status, answer = request(base, "PUT", "/api/me/photo", attacker, png(20_000, 20_000), "image/png")
    report("40.8 a 20,000 × 20,000 PNG as a photo", status >= 400, None, f"{status}: {(answer or {}).get('detail', '')[:80] if isinstance(answer, dict) else answer}")
    req = urllib.request.Request(base + "/login", method="POST", data=b"username=i40victim&password=probe+password")
    req.add_header("Content-Type", "application/x-www-form-urlencoded")
    req.add_header("Origin", "null")
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    try:
        response = urllib.request.build_opener(NoRedirect).open(req, timeout=10)
        status, cookie = response.status, response.headers.get("Set-Cookie")
    except urllib.error.HTTPError as error:
        status, cookie = error.code, error.headers.get("Set-Cookie")
    report("40.8 sign-in posted with Origin: null", status == 403 and not cookie, None, f"{status}, cookie {'set' if cookie else 'none'}")
    return broken


if __name__ == "__main__":
    sys.exit(main())
