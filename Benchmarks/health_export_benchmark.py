#!/usr/bin/env python3
"""Reading a large Apple Health export: `heartwork inspect export.xml` on a generated file.

    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product heartwork
    python3 Benchmarks/health_export_benchmark.py .build/release/heartwork [--megabytes 1024]

Writes (into a temporary directory) an export.xml shaped as the Health app writes it — the
DOCTYPE with its internal subset, `Me`, per-minute heart rate from a watch with device
descriptions and metadata, steps from a watch and a phone every 10 minutes, a nightly HRV
reading with its beat list, sleep stages, a daily resting heart rate, workouts with routes
— day after day until the file reaches the size asked for. Then runs `heartwork inspect FILE
--format json` once (the whole file read as a stream and summarised) and prints the wall
time, the throughput and the peak resident set size (getrusage of the child), and checks
the sample counts against what was written. This measures the reader alone (issue 11's
import adds the store); the issue's target for the whole import is 1 GB in ≤ 2 minutes with
the server under 300 MB.
"""
import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
]>
<HealthData locale="en_US">
 <ExportDate value="2026-04-02 09:00:00 +0200"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-17" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
"""
WATCH = "&lt;&lt;HKDevice: 0x283d6ab20&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.4&gt;"


def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M:%S +0200")


def day_lines(day):
    lines = []
    counts = {"heartRate": 0, "steps": 0, "heartRateVariabilitySDNN": 0, "sleep": 0, "restingHeartRate": 0}
    for minute in range(1440):
        t = day + datetime.timedelta(minutes=minute)
        bpm = 55 + (minute * 7919) % 60
        lines.append(f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Apple Watch" sourceVersion="9.4" device="{WATCH}" unit="count/min" creationDate="{stamp(t)}" startDate="{stamp(t)}" endDate="{stamp(t)}" value="{bpm}">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n')
        counts["heartRate"] += 1
        if minute % 10 == 0 and 7 * 60 <= minute < 22 * 60:
            end = t + datetime.timedelta(minutes=10)
            for source, device in (("Anna’s Apple Watch", f' device="{WATCH}"'), ("Anna’s iPhone", "")):
                lines.append(f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="{source}" sourceVersion="16.4"{device} unit="count" creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" value="{(minute * 31) % 900}"/>\n')
                counts["steps"] += 1
    t = day + datetime.timedelta(hours=3)
    beats = "".join(f'   <InstantaneousBeatsPerMinute bpm="{58 + i % 7}" time="3:00:{i:02d}.{i * 7 % 100:02d} AM"/>\n' for i in range(1, 60))
    lines.append(f' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Anna’s Apple Watch" device="{WATCH}" unit="ms" creationDate="{stamp(t)}" startDate="{stamp(t)}" endDate="{stamp(t + datetime.timedelta(minutes=1))}" value="48.5">\n  <HeartRateVariabilityMetadataList>\n{beats}  </HeartRateVariabilityMetadataList>\n </Record>\n')
    counts["heartRateVariabilitySDNN"] += 1
    for start, end, stage in ((0, 420, "InBed"), (30, 120, "AsleepCore"), (120, 200, "AsleepDeep"), (200, 260, "AsleepREM"), (260, 400, "AsleepCore")):
        lines.append(f' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s Apple Watch" creationDate="{stamp(day + datetime.timedelta(minutes=420))}" startDate="{stamp(day + datetime.timedelta(minutes=start))}" endDate="{stamp(day + datetime.timedelta(minutes=end))}" value="HKCategoryValueSleepAnalysis{stage}"/>\n')
        counts["sleep"] += 1
    lines.append(f' <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Anna’s Apple Watch" unit="count/min" creationDate="{stamp(day + datetime.timedelta(hours=23))}" startDate="{stamp(day)}" endDate="{stamp(day + datetime.timedelta(hours=23))}" value="52"/>\n')
    counts["restingHeartRate"] += 1
    w = day + datetime.timedelta(hours=18)
    lines.append(f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" totalDistance="5.2" totalDistanceUnit="km" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Anna’s Apple Watch" device="{WATCH}" creationDate="{stamp(w)}" startDate="{stamp(w)}" endDate="{stamp(w + datetime.timedelta(minutes=31, seconds=30))}">\n  <WorkoutRoute sourceName="Anna’s Apple Watch"><FileReference path="/workout-routes/route_{day:%Y-%m-%d}.gpx"/></WorkoutRoute>\n </Workout>\n')
    return "".join(lines), counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--megabytes", type=int, default=1024)
    args = parser.parse_args()
    totals = {}
    days = 0
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "export.xml")
        started = time.time()
        with open(path, "w", encoding="utf-8") as out:
            out.write(HEADER)
            day = datetime.datetime(2021, 1, 1)
            while out.tell() < args.megabytes * 1_000_000:
                text, counts = day_lines(day)
                out.write(text)
                for key, value in counts.items():
                    totals[key] = totals.get(key, 0) + value
                day += datetime.timedelta(days=1)
                days += 1
            out.write("</HealthData>\n")
        size = os.path.getsize(path)
        print(f"wrote {size / 1e6:.0f} MB ({days} days) in {time.time() - started:.0f} s", file=sys.stderr)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = subprocess.run([args.binary, "inspect", path, "--format", "json"], capture_output=True, text=True)
        seconds = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if result.returncode != 0:
            print(result.stderr, file=sys.stderr)
            sys.exit(1)
        summary = json.loads(result.stdout)
        read = {kind["kind"]: kind["samples"] for kind in summary["kinds"]}
        if read != totals or summary["workouts"] != days or summary["warnings"]:
            print(f"mismatch: wrote {totals}, {days} workouts; read {read}, {summary['workouts']}, {summary['warnings']}", file=sys.stderr)
            sys.exit(1)
        print(f"| export | samples | heartwork inspect | throughput | peak RSS |")
        print(f"|---|---:|---:|---:|---:|")
        print(f"| {size / 1e6:,.0f} MB, {days} days | {sum(totals.values()):,} | {seconds:.1f} s | {size / 1e6 / seconds:.0f} MB/s | {usage.ru_maxrss / 1024:.0f} MiB |")


if __name__ == "__main__":
    main()
