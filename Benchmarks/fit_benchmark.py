#!/usr/bin/env python3
"""Decoding a long FIT activity: Heartwork's decoder against fitdecode, whole process against
whole process.

    pip install fit-tool fitdecode
    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product heartwork
    python3 Benchmarks/fit_benchmark.py .build/release/heartwork [--runs 5]

Writes (with fit-tool, into a temporary directory) a 4-hour activity recorded at 1 Hz: 14,400
record messages with timestamp, heart_rate, position_lat/long, enhanced_altitude, distance,
enhanced_speed, cadence, power and temperature; a lap every 30 minutes, a session and an
activity. Then runs each side N times, alternately (fitdecode, heartwork, fitdecode, …, so that a
machine whose speed drifts during the benchmark weighs on both alike; median reported; one
untimed warm-up run each first):

  fitdecode  `python3 -c <script> FILE`: a script that reads every frame with fitdecode,
             checking the CRCs (CrcCheck.RAISE), and collects the records' heart rates;
  heartwork  `BINARY inspect FILE --format json > /dev/null`: decodes the whole file and prints
             its summary.

Each run is started from a fresh Python wrapper process that times the child (wall clock from
fork to exit) and reads getrusage(RUSAGE_CHILDREN) afterwards, so the peak resident set size
(ru_maxrss) is that one child's. Prints a Markdown table: median, fastest and slowest wall time,
median CPU time (user + system), peak RSS, and the ratio fitdecode / heartwork. Exits non-zero
if either side fails or the fitdecode script does not find 14,400 heart rates.
"""
import argparse
import json
import math
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

FIT_EPOCH_OFFSET = 631065600  # seconds from 1970-01-01 to the FIT epoch 1989-12-31

FITDECODE_SCRIPT = """
import sys
import fitdecode
heart_rates = []
with fitdecode.FitReader(sys.argv[1], check_crc=fitdecode.CrcCheck.RAISE) as fit:
    for frame in fit:
        if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record":
            value = frame.get_value("heart_rate", fallback=None)
            if value is not None:
                heart_rates.append(value)
print(len(heart_rates))
"""

WRAPPER = """
import json, resource, subprocess, sys, time
command = json.loads(sys.argv[1])
started = time.perf_counter()
process = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "maxrss_kb": usage.ru_maxrss,
                  "returncode": process.returncode, "stderr": process.stderr.decode(errors="replace")[-2000:]}))
"""


def write_activity_fit(path, start, seconds, sport="running", seed=1, lap_seconds=1800, serial=0x1A2B3C4D):
    """A FIT activity written by fit-tool: file_id, a timer start event, one record a second
    (heart rate, position, enhanced altitude and speed, distance, cadence, power, temperature),
    a lap every `lap_seconds`, a stop event, a session and an activity. Deterministic."""
    from fit_tool.fit_file_builder import FitFileBuilder
    from fit_tool.profile.messages.activity_message import ActivityMessage
    from fit_tool.profile.messages.event_message import EventMessage
    from fit_tool.profile.messages.file_id_message import FileIdMessage
    from fit_tool.profile.messages.lap_message import LapMessage
    from fit_tool.profile.messages.record_message import RecordMessage
    from fit_tool.profile.messages.session_message import SessionMessage
    from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer, Sport

    rng = random.Random(seed)
    cycling = sport == "cycling"
    start_ms = start * 1000
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    file_id = FileIdMessage()
    file_id.type = FileType.ACTIVITY
    file_id.manufacturer = Manufacturer.GARMIN.value
    file_id.product = 3121 if cycling else 3113
    file_id.serial_number = serial
    file_id.time_created = start_ms
    builder.add(file_id)
    event = EventMessage()
    event.event = Event.TIMER
    event.event_type = EventType.START
    event.timestamp = start_ms
    builder.add(event)

    lat, lon, heading = 48.2082 + rng.uniform(-0.05, 0.05), 16.3738 + rng.uniform(-0.05, 0.05), rng.uniform(0, 6.28)
    base_speed = 8.0 if cycling else 3.0
    hr, distance = 95.0, 0.0
    lap_rates, lap_start, lap_distance, laps = [], 0, 0.0, []
    all_rates = []
    for s in range(seconds):
        warm = 1 - math.exp(-s / 300)
        target = 100 + 60 * warm + 8 * math.sin(s / 400) + (12 if (s // 600) % 4 == 3 else 0)
        hr += (target - hr) * 0.05 + rng.gauss(0, 0.8)
        speed = base_speed * (0.85 + 0.15 * warm) * (1 + 0.05 * math.sin(s / 90))
        heading += rng.gauss(0, 0.02)
        lat += speed * math.cos(heading) / 111_195
        lon += speed * math.sin(heading) / (111_195 * math.cos(math.radians(lat)))
        distance += speed
        rate = int(round(hr))
        record = RecordMessage()
        record.timestamp = start_ms + s * 1000
        record.heart_rate = rate
        record.position_lat = lat
        record.position_long = lon
        record.enhanced_altitude = 180 + 25 * math.sin(s / 700) + 3 * math.sin(s / 60)
        record.distance = distance
        record.enhanced_speed = speed
        record.cadence = int(round((88 if cycling else 84) + rng.gauss(0, 2)))
        record.power = int(round((190 if cycling else 250) * (0.8 + 0.2 * warm) + rng.gauss(0, 15)))
        record.temperature = int(round(18 + 4 * s / max(seconds, 1)))
        builder.add(record)
        lap_rates.append(rate)
        all_rates.append(rate)
        if (s + 1) % lap_seconds == 0 or s + 1 == seconds:
            lap = LapMessage()
            lap.message_index = len(laps)
            lap.timestamp = start_ms + (s + 1) * 1000
            lap.start_time = start_ms + lap_start * 1000
            lap.total_elapsed_time = s + 1 - lap_start
            lap.total_timer_time = s + 1 - lap_start
            lap.total_distance = distance - lap_distance
            lap.avg_heart_rate = int(round(sum(lap_rates) / len(lap_rates)))
            lap.max_heart_rate = max(lap_rates)
            lap.event = Event.LAP
            lap.event_type = EventType.STOP
            laps.append(lap)
            lap_rates, lap_start, lap_distance = [], s + 1, distance
    event = EventMessage()
    event.event = Event.TIMER
    event.event_type = EventType.STOP_ALL
    event.timestamp = start_ms + seconds * 1000
    builder.add(event)
    for lap in laps:
        builder.add(lap)
    session = SessionMessage()
    session.timestamp = start_ms + seconds * 1000
    session.start_time = start_ms
    session.total_elapsed_time = seconds
    session.total_timer_time = seconds
    session.total_distance = distance
    session.sport = Sport.CYCLING if cycling else Sport.RUNNING
    session.total_calories = int(seconds / 60 * (11 if cycling else 12))
    session.avg_heart_rate = int(round(sum(all_rates) / len(all_rates)))
    session.max_heart_rate = max(all_rates)
    session.first_lap_index = 0
    session.num_laps = len(laps)
    builder.add(session)
    activity = ActivityMessage()
    activity.timestamp = start_ms + seconds * 1000
    activity.num_sessions = 1
    activity.total_timer_time = seconds
    builder.add(activity)
    builder.build().to_file(str(path))


def measure(command):
    """One run of `command` from a fresh wrapper process: wall seconds, CPU seconds, peak RSS."""
    wrapper = subprocess.run([sys.executable, "-c", WRAPPER, json.dumps(command)], capture_output=True, text=True, check=True)
    result = json.loads(wrapper.stdout)
    if result["returncode"] != 0:
        sys.exit(f"{' '.join(command[:2])}… exited with {result['returncode']}:\n{result['stderr']}")
    return result


def bench_pair(first, second, runs):
    """Runs the two (label, command) sides alternately, one run of each per round (after one
    untimed warm-up each), so that a machine that slows down or speeds up during the
    benchmark (a shared 2-core VM does) weighs on both sides alike. Returns each side's
    summary and the median of the per-round ratios first / second."""
    measure(first[1])  # warm-up: file cache, dynamic loader
    measure(second[1])
    results = ([], [])
    for _ in range(runs):
        results[0].append(measure(first[1]))
        results[1].append(measure(second[1]))
    summaries = []
    for (label, _), side in zip((first, second), results):
        walls = [r["seconds"] for r in side]
        summaries.append({"label": label, "median": statistics.median(walls), "min": min(walls), "max": max(walls),
                          "cpu": statistics.median(r["cpu"] for r in side), "rss_mib": max(r["maxrss_kb"] for r in side) / 1024})
    ratios = [a["seconds"] / b["seconds"] for a, b in zip(*results)]
    return summaries[0], summaries[1], statistics.median(ratios), min(ratios), max(ratios)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the heartwork executable (a release build)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hours", type=float, default=4.0)
    args = parser.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())
    seconds = int(args.hours * 3600)

    with tempfile.TemporaryDirectory(prefix="heartwork-fit-bench-") as directory:
        path = pathlib.Path(directory) / "four-hours.fit"
        started = time.perf_counter()
        write_activity_fit(path, start=1_780_300_800, seconds=seconds, sport="cycling", seed=7)
        generated = time.perf_counter() - started
        size = path.stat().st_size

        check = subprocess.run([sys.executable, "-c", FITDECODE_SCRIPT, str(path)], capture_output=True, text=True)
        if check.returncode != 0 or check.stdout.strip() != str(seconds):
            sys.exit(f"the fitdecode script read {check.stdout.strip() or 'nothing'} heart rates, expected {seconds}:\n{check.stderr}")
        summary = subprocess.run([binary, "inspect", str(path), "--format", "json"], capture_output=True, text=True)
        if summary.returncode != 0:
            sys.exit(f"heartwork inspect exited with {summary.returncode}:\n{summary.stderr}")
        try:
            keys = ", ".join(list(json.loads(summary.stdout))[:8])
        except ValueError:
            keys = "(output is not JSON)"

        fitdecode_run, heartwork_run, ratio, lowest, highest = bench_pair(
            ("fitdecode (Python, CRC checked)", [sys.executable, "-c", FITDECODE_SCRIPT, str(path)]),
            ("heartwork inspect --format json", [binary, "inspect", str(path), "--format", "json"]), args.runs)

    print(f"FIT decoding: a {args.hours:g}-hour 1 Hz activity ({seconds:,} records, {size / 1024:,.0f} KiB, written by fit-tool "
          f"in {generated:.1f} s), {args.runs} runs each after one warm-up, whole process (start-up included)")
    print(f"heartwork inspect printed a JSON summary with: {keys}")
    print()
    print("| decoder | median wall | fastest | slowest | median CPU | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in (fitdecode_run, heartwork_run):
        print(f"| {r['label']} | {r['median'] * 1000:,.0f} ms | {r['min'] * 1000:,.0f} ms | {r['max'] * 1000:,.0f} ms "
              f"| {r['cpu'] * 1000:,.0f} ms | {r['rss_mib']:,.1f} MiB |")
    print()
    print(f"fitdecode / heartwork (median wall time): {fitdecode_run['median'] / heartwork_run['median']:.1f}×; "
          f"per round (the two run alternately): median {ratio:.1f}×, lowest {lowest:.1f}×, highest {highest:.1f}×; "
          f"peak RSS {fitdecode_run['rss_mib'] / heartwork_run['rss_mib']:.1f}×")
    print(f"({os.cpu_count()} CPUs; peak RSS = getrusage(RUSAGE_CHILDREN).ru_maxrss of a fresh wrapper process, the largest of the runs)")


if __name__ == "__main__":
    main()
