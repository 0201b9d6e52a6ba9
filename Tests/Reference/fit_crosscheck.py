#!/usr/bin/env python3
"""Reads the FIT file Heartwork's encoder wrote (artifacts/fit/heartwork-encoded.fit, made by
`swift test --filter writesAFileForTheFitdecodeCrossCheck`) with fitdecode, an independent
decoder (PyPI), checking its CRCs, and compares every record with the values the test encoded.

    pip install fitdecode
    python3 Tests/Reference/fit_crosscheck.py
"""
import json
import math
import pathlib
import sys

import fitdecode

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIT = ROOT / "artifacts" / "fit" / "heartwork-encoded.fit"
EXPECTED = json.loads((ROOT / "artifacts" / "fit" / "heartwork-encoded.expected.json").read_text())


def close(a, b, tolerance):
    return a is not None and b is not None and abs(a - b) <= tolerance


def main():
    problems, records, rr, sessions, serial = [], [], [], [], None
    with fitdecode.FitReader(str(FIT), check_crc=fitdecode.CrcCheck.RAISE) as fit:
        for frame in fit:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            values = {f.name: f.value for f in frame.fields}
            if frame.name == "file_id":
                serial = values.get("serial_number")
            elif frame.name == "record":
                records.append(values)
            elif frame.name == "hrv":
                rr.extend(round(v * 1000) for v in values["time"] if v is not None)
            elif frame.name == "session":
                sessions.append(values)
    if serial != EXPECTED["serial"]:
        problems.append(f"serial {serial} != {EXPECTED['serial']}")
    if len(records) != len(EXPECTED["records"]):
        problems.append(f"{len(records)} records, expected {len(EXPECTED['records'])}")
    semis = 180 / 2 ** 31
    for i, (got, want) in enumerate(zip(records, EXPECTED["records"])):
        checks = [
            int(got["timestamp"].timestamp()) == want["t"],
            got.get("heart_rate") == want["hr"],
            close(got["position_lat"] * semis, want["lat"], 1e-6),
            close(got["position_long"] * semis, want["lon"], 1e-6),
            close(got.get("enhanced_altitude"), want["alt"], 0.1 + 1e-9),
            close(got.get("distance"), want["dist"], 0.005 + 1e-9),
            close(got.get("enhanced_speed"), want["speed"], 0.0005 + 1e-9),
            got.get("cadence") == want["cad"], got.get("power") == want["power"], got.get("temperature") == want["temp"],
        ]
        if not all(checks):
            problems.append(f"record {i}: {got} vs {want}")
            if len(problems) > 5:
                break
    if rr != [round(v) for v in EXPECTED["rr"]]:
        problems.append(f"RR {rr[:5]}… != {EXPECTED['rr'][:5]}…")
    if len(sessions) != 1 or not close(sessions[0].get("total_distance"), EXPECTED["sessionDistance"], 0.01) or sessions[0].get("total_calories") != EXPECTED["calories"]:
        problems.append(f"session {sessions}")
    if problems:
        print("\n".join(problems))
        sys.exit("FIT cross-check failed")
    print(f"fitdecode read Heartwork's FIT file: {len(records)} records, {len(rr)} RR intervals, CRCs valid — fit cross-check passed")


if __name__ == "__main__":
    main()
