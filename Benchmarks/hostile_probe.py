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
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib

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
        self.log = open(os.path.join(directory, "server.log"), "wb")
        self.process = subprocess.Popen([binary, "serve", "--port", str(self.port), "--data-dir", directory],
                                        stdout=subprocess.DEVNULL, stderr=self.log, env={**os.environ, "HEARTWORK_BCRYPT_COST": "4"})
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
        self.process.terminate()
        self.process.wait(30)


def verdict(ok):
    return "holds" if ok else "BROKEN"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        server = Server(args.binary, directory)
        try:
            run(server)
        finally:
            server.stop()


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


if __name__ == "__main__":
    sys.exit(main())
