#!/usr/bin/env python3
"""Python's zipfile (an independent reader) opens the account archive the export test wrote
(artifacts/export/account.zip, from AccountExportTests): every entry's CRC-32 checks, the
JSON entries parse, the workouts come as JSON and FIT in pairs, and fitdecode reads each FIT
workout with its CRC checked. Run by .ci/run after `swift test`."""
import io
import json
import pathlib
import sys
import zipfile

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
    print(f"zipfile read {len(names)} entries of {path.name} ({path.stat().st_size:,} bytes), every CRC-32 good; "
          f"fitdecode read {len(fits)} FIT workouts")
