#!/usr/bin/env python3
"""Python's zipfile (an independent reader) opens the account archive the export test wrote
(artifacts/export/account.zip, from AccountExportTests): every entry's CRC-32 checks, the
JSON entries parse, the workouts come as JSON and FIT in pairs, and fitdecode reads each FIT
workout with its CRC checked. Run by .ci/run after `swift test`."""
import csv
import io
import json
import pathlib
import sys
import zipfile
from datetime import datetime

import fitdecode

path = pathlib.Path(__file__).resolve().parents[2] / "artifacts/export/account.zip"
if not path.exists():
    sys.exit(f"{path} is missing: run swift test first")
with zipfile.ZipFile(path) as archive:
    bad = archive.testzip()
    if bad is not None:
        sys.exit(f"zipfile: the CRC-32 of {bad} does not match")
    names = archive.namelist()
    for required in ("README.txt", "profile.json", "friends.json", "measurements.json", "data/users.json"):
        if required not in names:
            sys.exit(f"{required} is not in the archive: {names}")
    for name in names:
        if name.endswith(".json"):
            json.loads(archive.read(name))
    profile = json.loads(archive.read("profile.json"))
    if "password_hash" in profile:
        sys.exit("profile.json holds the password hash")
    workouts = sorted(n for n in names if n.startswith("workouts/"))
    fits = [n for n in workouts if n.endswith(".fit")]
    jsons = [n for n in workouts if n.endswith(".json")]
    if not fits or len(fits) != len(jsons):
        sys.exit(f"workouts should come as JSON and FIT in pairs: {workouts}")
    for name in fits:
        records = 0
        with fitdecode.FitReader(io.BytesIO(archive.read(name)), check_crc=fitdecode.CrcCheck.RAISE) as reader:
            for frame in reader:
                if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record":
                    records += 1
        heart_rate = [v for v in json.loads(archive.read(name[:-4] + ".json"))["heartRate"] if v is not None]
        if records < len(heart_rate):
            sys.exit(f"{name}: {records} records, fewer than the {len(heart_rate)} heart rates of its JSON twin")
    # Daily health, readable (issue 41): Python's csv reads days.csv as days.json has it, and
    # every sample file's times parse as ISO 8601 with their offset, start never after end.
    days_json = json.loads(archive.read("health/days.json"))
    with io.TextIOWrapper(io.BytesIO(archive.read("health/days.csv")), encoding="utf-8", newline="") as text:
        days_csv = list(csv.DictReader(text))
    if not days_json or [d["date"] for d in days_json] != [row["date"] for row in days_csv]:
        sys.exit(f"health/days.csv and days.json name different days: {[row['date'] for row in days_csv]}")
    for row, day in zip(days_csv, days_json):
        for column, key in (("steps", "steps"), ("heart_rate_samples", "heartRateSamples")):
            if (row[column] or None) != (None if day.get(key) is None else str(day[key])):
                sys.exit(f"health/days.csv {row['date']}: {column} {row[column]!r}, days.json {day.get(key)!r}")
        if row["heart_rate_sources"] != "; ".join(day["sources"].get("heart-rate", [])):
            sys.exit(f"health/days.csv {row['date']}: heart-rate sources {row['heart_rate_sources']!r}")
    sample_files = [n for n in names if n.startswith("health/samples/") and n.endswith(".csv")]
    samples = 0
    for name in sample_files:
        with io.TextIOWrapper(io.BytesIO(archive.read(name)), encoding="utf-8", newline="") as text:
            for row in csv.DictReader(text):
                start, end = datetime.fromisoformat(row["start"]), datetime.fromisoformat(row["end"])
                if end < start or int(row["utc_offset_seconds"]) != int(start.utcoffset().total_seconds()):
                    sys.exit(f"{name}: {row}")
                samples += 1
    if not sample_files or samples == 0:
        sys.exit(f"no health samples in the archive: {sample_files}")
    print(f"csv read {len(days_csv)} days and {samples:,} samples in {len(sample_files)} files, as days.json has them")
    print(f"zipfile read {len(names)} entries of {path.name} ({path.stat().st_size:,} bytes), every CRC-32 good; "
          f"fitdecode read {len(fits)} FIT workouts")
