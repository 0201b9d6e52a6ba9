#!/usr/bin/env python3
"""Reads the FIT file Heartwork's encoder wrote (artifacts/fit/heartwork-encoded.fit, made by
`swift test --filter writesAFileForTheFitdecodeCrossCheck`) with two independent decoders —
fitdecode (PyPI) and Garmin's own FIT SDK for Python (`garmin-fit-sdk` on PyPI, the SDK's
official package) — checking CRCs and integrity, and compares every record with the values
the test encoded. Garmin's decoder also reads the fit-tool fixture the Swift golden tests use
(Tests/HeartworkFormatsTests/Resources/fit/ride.fit), whose counts FITTests asserts.

    pip install fitdecode garmin-fit-sdk
    python3 Tests/Reference/fit_crosscheck.py
"""
import json
import math
import pathlib
import sys

import fitdecode
from garmin_fit_sdk import Decoder, Stream

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
    problems += garmin_sdk_check()
    if problems:
        print("\n".join(problems))
        sys.exit("FIT cross-check failed")
    print(f"fitdecode read Heartwork's FIT file: {len(records)} records, {len(rr)} RR intervals, CRCs valid — fit cross-check passed")


def garmin_read(path):
    if not Decoder(Stream.from_file(str(path))).check_integrity():
        return None, [f"Garmin's SDK: {path.name} fails its integrity check (header or file CRC, size)"]
    messages, errors = Decoder(Stream.from_file(str(path))).read()
    return messages, [f"Garmin's SDK on {path.name}: {error}" for error in errors]


def garmin_sdk_check():
    """Garmin's own decoder on the encoder's file and on the fit-tool fixture."""
    messages, problems = garmin_read(FIT)
    if messages is None:
        return problems
    records = messages.get("record_mesgs", [])
    if [r.get("heart_rate") for r in records] != [w["hr"] for w in EXPECTED["records"]]:
        problems.append("Garmin's SDK: the records' heart rates differ from what was encoded")
    if [int(r["timestamp"].timestamp()) for r in records] != [w["t"] for w in EXPECTED["records"]]:
        problems.append("Garmin's SDK: the records' timestamps differ")
    rr = [round(v * 1000) for m in messages.get("hrv_mesgs", []) for v in m["time"] if v is not None]
    if rr != [round(v) for v in EXPECTED["rr"]]:
        problems.append("Garmin's SDK: the RR intervals differ")
    session = (messages.get("session_mesgs") or [{}])[0]
    if session.get("total_calories") != EXPECTED["calories"] or not close(session.get("total_distance"), EXPECTED["sessionDistance"], 0.01):
        problems.append(f"Garmin's SDK: session {session}")
    ride = ROOT / "Tests" / "HeartworkFormatsTests" / "Resources" / "fit" / "ride.fit"
    fixture, more = garmin_read(ride)
    problems += more
    if fixture is not None:
        hr = [r for r in fixture.get("record_mesgs", []) if r.get("heart_rate") is not None]
        rr_count = sum(1 for m in fixture.get("hrv_mesgs", []) for v in m["time"] if v is not None)
        if (len(fixture.get("record_mesgs", [])), len(hr), rr_count) != (600, 594, 1200):
            problems.append(f"Garmin's SDK reads ride.fit as {len(fixture.get('record_mesgs', []))} records, {len(hr)} with heart rate, "
                            f"{rr_count} RR; FITTests expects 600, 594, 1200")
    if not problems:
        print(f"Garmin's FIT SDK read Heartwork's FIT file ({len(records)} records, {len(rr)} RR intervals, integrity checked, no errors) "
              "and the fit-tool fixture (600 records, 594 heart rates, 1,200 RR) — as Heartwork reads it")
    return problems


if __name__ == "__main__":
    main()
