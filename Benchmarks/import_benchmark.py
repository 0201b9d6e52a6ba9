#!/usr/bin/env python3
"""Bulk import: how fast `heartwork import` sends a folder of activity files to a server, and
whether a second import of the same folder recognises every file as a duplicate.

    pip install fit-tool
    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product heartwork
    python3 Benchmarks/import_benchmark.py .build/release/heartwork [--files 1000] [--keep]

1. Writes 1,000 small activities into a temporary directory: 400 FIT (fit-tool), 300 GPX
   (Garmin Connect style, heart rate and cadence in TrackPointExtension v1) and 300 TCX (Garmin
   style, HeartRateBpm, Cadence, a lap), each 20–40 minutes at 1 Hz with heart rate, running or
   cycling, every one starting at a different time (8 hours apart, never overlapping).
2. Starts `BINARY serve` on a free port with a fresh data directory (SQLite), and creates a
   user and an API token the way the browser test does: POST /api/auth/register, then
   POST /api/auth/login, whose `token` is the bearer token (HEARTWORK_BCRYPT_COST=4 to keep
   sign-up fast).
3. Runs `BINARY import DIR --server http://127.0.0.1:PORT --token TOKEN` and times it (wall
   clock of the whole command) → files per second.
4. Runs the same import again: every file must be reported as a duplicate.

The import command prints a summary of imported files, duplicates skipped and failures with
their reasons; the numbers are read from it (a number next to "imported", "duplicate" and
"failed", either order). The workouts the server holds are counted through GET /api/workouts
(pages of 100). Prints a Markdown table, the server's peak resident memory (VmHWM) and the
command's last lines; exits non-zero if an import fails, files fail, or the second run does not
report all files as duplicates.
"""
import argparse
import datetime
import json
import math
import multiprocessing
import os
import pathlib
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from fit_benchmark import write_activity_fit  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
from common import free_port  # noqa: E402  (the Python checks' shared helpers)

FIRST_START = 1_736_143_200  # 2025-01-06T06:00:00Z: the 1,000 starts, 8 hours apart, all lie in the past


# ---------------------------------------------------------------------------------------------
# Activity files
# ---------------------------------------------------------------------------------------------

def samples(seed, start, seconds, cycling):
    rng = random.Random(seed)
    lat, lon, heading = 47.0 + rng.uniform(0, 1.5), 13.0 + rng.uniform(0, 3), rng.uniform(0, 6.28)
    hr, distance, speed0 = 92.0, 0.0, (8.0 if cycling else 3.0)
    for s in range(seconds):
        warm = 1 - math.exp(-s / 240)
        hr += (100 + 62 * warm + 6 * math.sin(s / 200) - hr) * 0.06 + rng.gauss(0, 0.8)
        speed = speed0 * (0.85 + 0.15 * warm) * (1 + 0.05 * math.sin(s / 70))
        heading += rng.gauss(0, 0.02)
        lat += speed * math.cos(heading) / 111_195
        lon += speed * math.sin(heading) / (111_195 * math.cos(math.radians(lat)))
        yield {"t": start + s, "lat": lat, "lon": lon, "ele": 400 + 20 * math.sin(s / 500) + rng.gauss(0, 0.2),
               "dist": distance, "hr": int(round(hr)), "cad": int(round((88 if cycling else 84) + rng.gauss(0, 2)))}
        distance += speed


def stamp(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def write_gpx(path, seed, start, seconds, cycling):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<gpx creator="Garmin Connect" version="1.1" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 '
           'http://www.topografix.com/GPX/11.xsd" xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" '
           'xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
           f'  <metadata><time>{stamp(start)}</time></metadata>',
           f'  <trk><name>Activity {seed}</name><type>{"cycling" if cycling else "running"}</type><trkseg>']
    for p in samples(seed, start, seconds, cycling):
        out.append(f'    <trkpt lat="{p["lat"]:.7f}" lon="{p["lon"]:.7f}"><ele>{p["ele"]:.1f}</ele><time>{stamp(p["t"])}</time>'
                   f'<extensions><ns3:TrackPointExtension><ns3:hr>{p["hr"]}</ns3:hr><ns3:cad>{p["cad"]}</ns3:cad>'
                   f'</ns3:TrackPointExtension></extensions></trkpt>')
    out.append('  </trkseg></trk>\n</gpx>\n')
    path.write_text("\n".join(out), encoding="utf-8")


def write_tcx(path, seed, start, seconds, cycling):
    points = list(samples(seed, start, seconds, cycling))
    rates = [p["hr"] for p in points]
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" '
           'xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
           f'  <Activities><Activity Sport="{"Biking" if cycling else "Running"}"><Id>{stamp(start)}</Id>',
           f'    <Lap StartTime="{stamp(start)}"><TotalTimeSeconds>{seconds}.0</TotalTimeSeconds>'
           f'<DistanceMeters>{points[-1]["dist"]:.1f}</DistanceMeters><Calories>{seconds // 6}</Calories>'
           f'<AverageHeartRateBpm><Value>{round(sum(rates) / len(rates))}</Value></AverageHeartRateBpm>'
           f'<MaximumHeartRateBpm><Value>{max(rates)}</Value></MaximumHeartRateBpm>'
           '<Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod><Track>']
    for p in points:
        out.append(f'      <Trackpoint><Time>{stamp(p["t"])}</Time><Position><LatitudeDegrees>{p["lat"]:.7f}</LatitudeDegrees>'
                   f'<LongitudeDegrees>{p["lon"]:.7f}</LongitudeDegrees></Position><AltitudeMeters>{p["ele"]:.1f}</AltitudeMeters>'
                   f'<DistanceMeters>{p["dist"]:.1f}</DistanceMeters><HeartRateBpm><Value>{p["hr"]}</Value></HeartRateBpm>'
                   f'<Cadence>{p["cad"]}</Cadence></Trackpoint>')
    out.append('    </Track></Lap>\n    <Creator xsi:type="Device_t"><Name>Forerunner 255</Name><UnitId>3398765432</UnitId>'
               '<ProductID>3992</ProductID></Creator>\n  </Activity></Activities>\n</TrainingCenterDatabase>\n')
    path.write_text("\n".join(out), encoding="utf-8")


def write_one(job):
    index, kind, directory = job
    rng = random.Random(10_000 + index)
    seconds = rng.randint(20 * 60, 40 * 60)
    start = FIRST_START + index * 8 * 3600 + rng.randint(0, 600)
    cycling = rng.random() < 0.4
    path = pathlib.Path(directory) / f"activity-{index:04d}.{kind}"
    if kind == "fit":
        write_activity_fit(path, start, seconds, "cycling" if cycling else "running", seed=index, serial=0x10000000 + index)
    elif kind == "gpx":
        write_gpx(path, index, start, seconds, cycling)
    else:
        write_tcx(path, index, start, seconds, cycling)
    return path.stat().st_size


def write_files(directory, count):
    kinds = ["fit"] * round(count * 0.4) + ["gpx"] * round(count * 0.3)
    kinds += ["tcx"] * (count - len(kinds))
    random.Random(42).shuffle(kinds)
    jobs = [(i, kind, str(directory)) for i, kind in enumerate(kinds)]
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        sizes = pool.map(write_one, jobs, chunksize=4)
    return {kind: kinds.count(kind) for kind in ("fit", "gpx", "tcx")}, sum(sizes)


# ---------------------------------------------------------------------------------------------
# Server
# ---------------------------------------------------------------------------------------------

def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read()
        return json.loads(text) if text else None


def wait_for_health(base, server, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited early with status {server.returncode}")
        try:
            if call(base, "GET", "/healthz")["status"] == "ok":
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the server did not become healthy")


def count_workouts(base, token):
    total, offset = 0, 0
    while True:
        page = call(base, "GET", f"/api/workouts?limit=100&offset={offset}", token=token)["workouts"]
        total += len(page)
        if len(page) < 100:
            return total
        offset += 100


def peak_memory_mib(pid):
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


# ---------------------------------------------------------------------------------------------
# The import command
# ---------------------------------------------------------------------------------------------

def summary_number(text, word):
    """The number next to `word` in the import summary: `1000 imported`, `imported: 1000`,
    `duplicates skipped: 3`, `3 duplicates`; None when the summary does not say."""
    for pattern in (rf"(\d[\d,]*)\s+(?:files?\s+)?{word}", rf"{word}\w*(?:\s+\w+)?\s*[:=]?\s*(\d[\d,]*)"):
        match = re.findall(pattern, text, flags=re.IGNORECASE)
        if match:
            return int(match[-1].replace(",", ""))
    return None


def run_import(binary, directory, base, token, timeout):
    started = time.perf_counter()
    process = subprocess.run([binary, "import", str(directory), "--server", base, "--token", token],
                             capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - started
    text = process.stdout + "\n" + process.stderr
    return {"seconds": seconds, "returncode": process.returncode, "output": text,
            "imported": summary_number(text, "imported"), "duplicates": summary_number(text, "duplicate"),
            "failed": summary_number(text, "failed")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the heartwork executable (a release build)")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--timeout", type=int, default=3600, help="seconds one import may take")
    parser.add_argument("--keep", action="store_true", help="keep the files and the data directory")
    args = parser.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())

    work = pathlib.Path(tempfile.mkdtemp(prefix="heartwork-import-bench-"))
    files, data = work / "files", work / "data"
    files.mkdir()
    data.mkdir()
    started = time.perf_counter()
    kinds, size = write_files(files, args.files)
    generated = time.perf_counter() - started
    print(f"wrote {args.files:,} files ({kinds['fit']} FIT, {kinds['gpx']} GPX, {kinds['tcx']} TCX; "
          f"{size / 2 ** 20:,.1f} MiB) in {generated:.0f} s", flush=True)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(work / "server.log", "wb")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", str(data), "--log-level", "warning"],
                              stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    failures = []
    try:
        wait_for_health(base, server)
        call(base, "POST", "/api/auth/register", {"username": "importer", "fullName": "Bulk Importer",
                                                   "email": "importer@example.org", "password": "import benchmark"})
        token = call(base, "POST", "/api/auth/login", {"username": "importer", "password": "import benchmark"})["token"]
        call(base, "PATCH", "/api/me", {"dateOfBirth": "1988-04-12", "sex": "female"}, token=token)
        call(base, "POST", "/api/me/resting-heart-rates", {"bpm": 54}, token=token)

        first = run_import(binary, files, base, token, args.timeout)
        after_first = count_workouts(base, token)
        second = run_import(binary, files, base, token, args.timeout)
        after_second = count_workouts(base, token)
        memory = peak_memory_mib(server.pid)
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        log.close()

    print()
    print(f"`heartwork import` of {args.files:,} files into `heartwork serve` (SQLite, same machine, {os.cpu_count()} CPUs)")
    print()
    print("| run | wall time | files/s | imported | duplicates skipped | failed | workouts on the server |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, run, workouts in (("first import", first, after_first), ("same folder again", second, after_second)):
        show = lambda value: "?" if value is None else f"{value:,}"
        print(f"| {label} | {run['seconds']:,.1f} s | {args.files / run['seconds']:,.1f} | {show(run['imported'])} "
              f"| {show(run['duplicates'])} | {show(run['failed'])} | {workouts:,} |")
    print()
    if memory is not None:
        print(f"server peak resident memory (VmHWM): {memory:,.0f} MiB")
    for label, run in (("first import", first), ("second import", second)):
        tail = [line for line in run["output"].strip().splitlines() if line.strip()][-6:]
        print(f"\n{label}: exit status {run['returncode']}; last lines of its output:")
        print("\n".join("    " + line for line in tail) or "    (nothing)")
        if run["returncode"] != 0:
            failures.append(f"the {label} exited with {run['returncode']}")
        if run["failed"]:
            failures.append(f"the {label} reports {run['failed']} failed files")
    if first["imported"] is not None and first["imported"] != args.files:
        failures.append(f"the first import reports {first['imported']} imported, expected {args.files}")
    if after_first != args.files:
        failures.append(f"the server holds {after_first} workouts after the first import, expected {args.files}")
    if second["duplicates"] != args.files:
        failures.append(f"the second import reports {second['duplicates']} duplicates, expected all {args.files}")
    if after_second != after_first:
        failures.append(f"the second import changed the number of workouts from {after_first} to {after_second}")

    if args.keep:
        print(f"\nkept {work} (files/, data/, server.log)")
    else:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("\n" + "\n".join(failures))
        sys.exit(1)
    print(f"\nall {args.files:,} files were recognised as duplicates on the second import")


if __name__ == "__main__":
    main()
