#!/usr/bin/env python3
"""Builds a small Gadgetbridge database for the import tests, and what reading it must give.

    python3 Tests/Reference/make_gadgetbridge_db.py [output directory]

writes `gadgetbridge.db`, `gadgetbridge-hostile.db` and `gadgetbridge.expected.json` (default directory:
Tests/HeartworkServerTests/Resources/gadgetbridge). Deterministic: the same bytes each run.

The tables are created with the DDL greenDAO generates from Gadgetbridge's
GBDaoGenerator.java (GBDaoGenerator/src/nodomain/freeyourgadget/gadgetbridge/daogen/,
schema 86): quoted upper-snake-case names, activity samples keyed (TIMESTAMP, DEVICE_ID)
`ON CONFLICT REPLACE) WITHOUT ROWID`, TIMESTAMP in Unix seconds (time samples: milliseconds).

Devices: a Mi Band 2 and an Amazfit Bip (Huami raw kinds in MI_BAND_ACTIVITY_SAMPLE,
HuamiConst.java / MiBand2SampleProvider.java), a Pebble Time (PEBBLE_HEALTH_ACTIVITY_SAMPLE and
its sleep overlay, PebbleHealthSampleProvider.java) and an Amazfit GTR 4
(HUAMI_EXTENDED_ACTIVITY_SAMPLE, HuamiExtendedSampleProvider.java); rows of a device that
DEVICE does not name; resting heart rates (HUAMI_HEART_RATE_RESTING_SAMPLE, milliseconds); invalid heart rates (255, 0, -1, text); a timestamp from 1970; tables the
importer does not read (XIAOMI_SLEEP_STAGE_SAMPLE, HUAMI_STRESS_SAMPLE).

The expected counts are worked out here from the rows, by this script's own reading of those
rules (not by Heartwork's code).
"""

import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

DDL = [
    'CREATE TABLE IF NOT EXISTS "USER_ATTRIBUTES" ("_id" INTEGER PRIMARY KEY ,"HEIGHT_CM" INTEGER NOT NULL ,"WEIGHT_KG" INTEGER NOT NULL ,"SLEEP_GOAL_HPD" INTEGER,"STEPS_GOAL_SPD" INTEGER,"VALID_FROM_UTC" INTEGER,"VALID_TO_UTC" INTEGER,"USER_ID" INTEGER NOT NULL );',
    'CREATE TABLE IF NOT EXISTS "USER" ("_id" INTEGER PRIMARY KEY ,"NAME" TEXT NOT NULL ,"BIRTHDAY" INTEGER NOT NULL ,"GENDER" INTEGER NOT NULL );',
    'CREATE TABLE IF NOT EXISTS "DEVICE_ATTRIBUTES" ("_id" INTEGER PRIMARY KEY ,"FIRMWARE_VERSION1" TEXT NOT NULL ,"FIRMWARE_VERSION2" TEXT,"VALID_FROM_UTC" INTEGER,"VALID_TO_UTC" INTEGER,"DEVICE_ID" INTEGER NOT NULL ,"VOLATILE_IDENTIFIER" TEXT);',
    'CREATE TABLE IF NOT EXISTS "DEVICE" ("_id" INTEGER PRIMARY KEY ,"NAME" TEXT NOT NULL ,"MANUFACTURER" TEXT NOT NULL ,"IDENTIFIER" TEXT NOT NULL UNIQUE ,"TYPE" INTEGER NOT NULL ,"TYPE_NAME" TEXT NOT NULL ,"MODEL" TEXT,"ALIAS" TEXT,"PARENT_FOLDER" TEXT);',
    'CREATE TABLE IF NOT EXISTS "MI_BAND_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,"RAW_KIND" INTEGER NOT NULL ,"HEART_RATE" INTEGER NOT NULL ,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
    'CREATE TABLE IF NOT EXISTS "HUAMI_EXTENDED_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,"RAW_KIND" INTEGER NOT NULL ,"HEART_RATE" INTEGER NOT NULL ,"UNKNOWN1" INTEGER,"SLEEP" INTEGER,"DEEP_SLEEP" INTEGER,"REM_SLEEP" INTEGER,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
    'CREATE TABLE IF NOT EXISTS "HUAMI_STRESS_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"TYPE_NUM" INTEGER NOT NULL ,"STRESS" INTEGER NOT NULL ,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
    'CREATE TABLE IF NOT EXISTS "HUAMI_HEART_RATE_RESTING_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"UTC_OFFSET" INTEGER NOT NULL ,"HEART_RATE" INTEGER NOT NULL ,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
    'CREATE TABLE IF NOT EXISTS "XIAOMI_SLEEP_STAGE_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"STAGE" INTEGER,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
    'CREATE TABLE IF NOT EXISTS "PEBBLE_HEALTH_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"RAW_PEBBLE_HEALTH_DATA" BLOB,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,"HEART_RATE" INTEGER NOT NULL ,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
    'CREATE TABLE IF NOT EXISTS "PEBBLE_HEALTH_ACTIVITY_OVERLAY" ("TIMESTAMP_FROM" INTEGER  NOT NULL ,"TIMESTAMP_TO" INTEGER  NOT NULL ,"RAW_KIND" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,"USER_ID" INTEGER NOT NULL ,"RAW_PEBBLE_HEALTH_DATA" BLOB,PRIMARY KEY ("TIMESTAMP_FROM" ,"TIMESTAMP_TO" ,"RAW_KIND" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;',
]


def ts(text):
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())


MIBAND2, BIP, PEBBLE, GTR4, UNKNOWN_DEVICE = 1, 2, 3, 4, 9
# _id, NAME, MANUFACTURER, IDENTIFIER, TYPE (the legacy DeviceType key), TYPE_NAME
DEVICES = [
    (MIBAND2, "Mi Band 2", "Xiaomi", "C8:0F:10:00:00:01", 11, "MIBAND2"),
    (BIP, "Amazfit Bip", "Huami", "F0:00:00:00:00:02", 12, "AMAZFITBIP"),
    (PEBBLE, "Pebble Time", "Pebble Technology", "B0:B4:48:00:00:03", 1, "PEBBLE"),
    (GTR4, "Amazfit GTR 4", "Huami", "E0:00:00:00:00:04", 0, "AMAZFITGTR4"),
]


def mi_band_rows():
    rows = []  # (TIMESTAMP, DEVICE_ID, USER_ID, RAW_INTENSITY, STEPS, RAW_KIND, HEART_RATE)
    # Mi Band 2: a night (23:00-07:00): light 9 with "no change" 0 and high bits (0x19), deep 11.
    start = ts("2026-03-01T23:00:00")
    for minute in range(480):
        phase = (minute // 40) % 3  # light, deep, light ...
        if phase == 1:
            kind = 11 if minute % 40 == 0 else 0
        else:
            kind = 9 if minute % 40 == 0 else (0x19 if minute % 7 == 0 else 0)
        hr = 255 if minute % 13 == 0 else (0 if minute % 17 == 0 else 50 + minute % 9)
        rows.append((start + 60 * minute, MIBAND2, 1, 10, 0, kind, hr))
    # A morning walk (08:00-10:00): kind 1, steps, some invalid heart rates.
    start = ts("2026-03-02T08:00:00")
    for minute in range(120):
        hr = 255 if minute % 11 == 0 else 90 + minute % 30
        rows.append((start + 60 * minute, MIBAND2, 1, 80, (minute * 7) % 110, 1, hr))
    # Amazfit Bip: noon (12:00-13:00) with -1 and 0 heart rates, then a nap: 9, 10 (ignore), 11.
    start = ts("2026-03-02T12:00:00")
    for minute in range(60):
        hr = -1 if minute % 10 == 0 else (0 if minute % 15 == 0 else 100 + minute % 20)
        rows.append((start + 60 * minute, BIP, 1, 60, 20 + minute % 40, 1, hr))
    start = ts("2026-03-02T14:00:00")
    for minute in range(30):
        kind = 9 if minute == 0 else (10 if minute < 12 else (11 if minute == 12 else 0))
        rows.append((start + 60 * minute, BIP, 1, 5, 0, kind, 60))
    # A device DEVICE does not name, a heart rate written as text, a timestamp from 1970.
    start = ts("2026-03-02T16:00:00")
    for minute in range(5):
        rows.append((start + 60 * minute, UNKNOWN_DEVICE, 1, 10, 30, 1, 80))
    rows.append((ts("2026-03-02T17:00:00"), BIP, 1, 10, 12, 1, "abc"))
    rows.append((5, MIBAND2, 1, 10, 12, 1, 70))
    return rows


def huami_extended_rows():
    rows = []  # TIMESTAMP, DEVICE_ID, USER_ID, RAW_INTENSITY, STEPS, RAW_KIND, HEART_RATE, UNKNOWN1, SLEEP, DEEP_SLEEP, REM_SLEEP
    start = ts("2026-03-03T22:00:00")
    for minute in range(60):
        if minute < 20:
            deep, rem = 10, 10  # light
        elif minute < 40:
            deep, rem = 128 + 50, 5  # deep (& 127 = 50 > 42)
        else:
            deep, rem = 60, 60  # REM wins (> 55)
        rows.append((start + 60 * minute, GTR4, 1, 0, 0, 120, 55 if minute % 5 else 255, 0, 30, deep, rem))
    # Awake, walking (kind 1): steps, heart rate; charging (118): nothing.
    start = ts("2026-03-03T23:00:00")
    for minute in range(10):
        rows.append((start + 60 * minute, GTR4, 1, 40, 50, 1 if minute < 8 else 118, 85, 0, 0, 0, 0))
    return rows


def pebble_rows():
    rows = []  # TIMESTAMP, DEVICE_ID, USER_ID, RAW_PEBBLE_HEALTH_DATA, RAW_INTENSITY, STEPS, HEART_RATE
    start = ts("2026-03-03T00:00:00")
    for minute in range(0, 480, 2):
        rows.append((start + 60 * minute, PEBBLE, 1, bytes([minute % 256, 1]), 100, minute % 3, 0 if minute % 6 == 0 else 58))
    overlay = [  # TIMESTAMP_FROM, TIMESTAMP_TO, RAW_KIND, DEVICE_ID, USER_ID, RAW
        (ts("2026-03-03T00:30:00"), ts("2026-03-03T07:30:00"), 1, PEBBLE, 1, None),
        (ts("2026-03-03T02:00:00"), ts("2026-03-03T03:00:00"), 2, PEBBLE, 1, None),
        (ts("2026-03-03T04:00:00"), ts("2026-03-03T04:45:00"), 2, PEBBLE, 1, None),
        (ts("2026-03-03T09:00:00"), ts("2026-03-03T09:30:00"), 5, PEBBLE, 1, None),  # a walk: not sleep
    ]
    return rows, overlay


def resting_rows():
    # TIMESTAMP (milliseconds: a time sample), DEVICE_ID, USER_ID, UTC_OFFSET, HEART_RATE
    return [(ts(f"2026-03-0{day}T06:00:00") * 1000, BIP, 1, 0, hr) for day, hr in ((1, 52), (2, 0), (3, 51))]


def expected(mi_band, huami, pebble, overlay, resting):
    """This script's own reading of the rows (see the module's comment for the rules)."""
    counts = {"heartRate": 0, "restingHeartRate": 0, "steps": 0, "sleep": 0}
    steps_total = 0
    sleep_minutes = {"core": 0, "deep": 0, "rem": 0}
    read, not_understood = {}, {}
    names = {d[0]: d[1] for d in DEVICES}

    def bump(table, key, n=1):
        table[key] = table.get(key, 0) + n

    # Sleep sessions (issue 41): a device's runs, in the order they end, at most an hour
    # apart (Gadgetbridge's SleepAnalysis.MAX_WAKE_PHASE_LENGTH); a session with less than
    # an hour asleep is not a night, counted as not understood.
    pending = {}

    def sleep_run(device, stage, start, end):
        pending.setdefault(device, []).append((stage, start, end))

    def end_table():
        for device in sorted(pending):
            sessions = []
            for run in pending[device]:
                if sessions and run[1] - sessions[-1]["end"] <= 3600:
                    sessions[-1]["runs"].append(run)
                    sessions[-1]["end"] = max(sessions[-1]["end"], run[2])
                else:
                    sessions.append({"runs": [run], "end": run[2]})
            for session in sessions:
                if sum(end - start for _, start, end in session["runs"]) >= 3600:
                    for stage, start, end in session["runs"]:
                        counts["sleep"] += 1
                        sleep_minutes[stage] += (end - start) // 60
                        bump(read, f"{names[device]}: sleep")
                else:
                    bump(not_understood, f"{names[device]}: sleep: sessions under an hour (stray minutes or naps, not a night)")
        pending.clear()

    def heart_and_steps(table, device, hr, steps):
        nonlocal steps_total
        if isinstance(hr, int):
            if 10 <= hr <= 250:
                counts["heartRate"] += 1
                bump(read, f"{names[device]}: heart rate")
        else:
            bump(not_understood, f"{table}: heart rates not understood")
        if 0 < steps <= 1000:
            counts["steps"] += 1
            steps_total += steps
            bump(read, f"{names[device]}: steps")

    def minute_runs(table, rows, stage_of):
        runs = {}
        for row in sorted(rows, key=lambda r: (r[0], r[1])):
            t, device = row[0], row[1]
            if device not in names:
                bump(not_understood, f"{table}: rows of devices not in DEVICE")
                continue
            if not (946684800 <= t <= 4102444800):
                bump(not_understood, f"{table}: timestamps out of range")
                continue
            heart_and_steps(table, device, row[6], row[4])
            stage = stage_of(row)
            run = runs.get(device)
            if run and stage == run[0] and t == run[2]:
                run[2] = t + 60
                continue
            if run:
                sleep_run(device, *run)
                runs.pop(device)
            if stage:
                runs[device] = [stage, t, t + 60]
        for device, run in sorted(runs.items()):
            sleep_run(device, *run)
        end_table()

    last = {}

    def mi_band_stage(row):
        device, kind = row[1], row[5]
        if kind != -1:
            kind &= 0xF
        if kind in (0, 10):
            if last.get(device, -1) != -1:
                kind = last[device]
        else:
            last[device] = kind
        return {9: "core", 11: "deep"}.get(kind)

    def extended_stage(row):
        if row[5] != 120:
            return None
        if row[10] & 127 > 55:
            return "rem"
        if row[9] & 127 > 42:
            return "deep"
        return "core"

    # Tables in name order, as the importer reads them.
    minute_runs("HUAMI_EXTENDED_ACTIVITY_SAMPLE", huami, extended_stage)
    for row in resting:
        if 10 <= row[4] <= 250:
            counts["restingHeartRate"] += 1
            bump(read, f"{names[row[1]]}: resting heart rate")
    minute_runs("MI_BAND_ACTIVITY_SAMPLE", mi_band, mi_band_stage)
    # The overlay: deep intervals cut out of the light one around them.
    light = []
    deep = []
    for row in overlay:
        if row[2] in (1, 3):
            light.append([row[0], row[1]])
        elif row[2] in (2, 4):
            deep.append((row[0], row[1]))
    for start, end in light:
        cursor = start
        for d_start, d_end in sorted(deep):
            if start <= d_start < end:
                if d_start > cursor:
                    sleep_run(PEBBLE, "core", cursor, d_start)
                cursor = max(cursor, d_end)
        for d_start, d_end in sorted(deep):
            sleep_run(PEBBLE, "deep", d_start, d_end)
        if cursor < end:
            sleep_run(PEBBLE, "core", cursor, end)
    end_table()
    for row in pebble:
        heart_and_steps("PEBBLE_HEALTH_ACTIVITY_SAMPLE", row[1], row[6], row[5])
    return counts, steps_total, sleep_minutes, read, not_understood


# At most this many kinds of thing not understood are named (GadgetbridgeReader
# .maximumNotUnderstood); further kinds are counted under "other".
MAXIMUM_NOT_UNDERSTOOD = 50


def capped(notes):
    """`notes` (kind, count), in the order the importer notes them, as its answer names them:
    the first 50 kinds by name, the rest under "other"."""
    named = {}
    for key, n in notes:
        if n <= 0:
            continue
        if key not in named and len([k for k in named if k != "other"]) >= MAXIMUM_NOT_UNDERSTOOD:
            key = "other"
        named[key] = named.get(key, 0) + n
    return named


def hostile(out):
    """A file a hostile or broken writer could make: untyped columns, text and real and huge
    timestamps, NULL keys, blobs and long text for numbers, duplicate keys, a known table
    without its columns, a table name with a quote; a sample table with a generated column
    (its expression would run for every row read), sample tables that are virtual tables (an
    rtree and an fts5 one, skipped if this Python's SQLite lacks the module: the expected
    answer then lacks them too, and differs from the committed one), rows of 3000 devices
    DEVICE does not name, and 60 more tables with data not read (more kinds of thing not
    understood than the answer names). Returns what the import must say of it."""
    path = os.path.join(out, "gadgetbridge-hostile.db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 512")  # many small tables: a small file
    db.execute(DDL[3])  # DEVICE
    db.execute('INSERT INTO "DEVICE" ("_id", "NAME", "MANUFACTURER", "IDENTIFIER", "TYPE", "TYPE_NAME") VALUES (1, "Hostile Band", "?", "00:00", 11, "MIBAND2")')
    db.execute('CREATE TABLE "MI_BAND_ACTIVITY_SAMPLE" ("TIMESTAMP", "DEVICE_ID", "USER_ID", "RAW_INTENSITY", "STEPS", "RAW_KIND", "HEART_RATE")')
    t = ts("2026-03-02T09:00:00")
    rows = [
        (str(t), 1, 1, 0, 5, 1, 70),  # a text key: not read
        (float(t + 60), 1, 1, 0, 5, 1, 70),  # a whole real: read (heart rate, steps)
        (t + 120.5, 1, 1, 0, 5, 1, 70),  # half a second: not understood
        (-(2**63), 1, 1, 0, 5, 1, 70),  # out of range
        (2**63 - 1, 1, 1, 0, 5, 1, 70),  # out of range
        (t + 180, 1, 1, 0, b"\x00\xff", 1, b"\x01\x02"),  # blobs for numbers
        (t + 240, 1, 1, 0, "x" * 20000, 9, 60),  # long text steps; a heart rate; a sleep minute
        (t + 300, None, 1, 0, 5, 1, 70),  # a NULL key: not read
        (t + 360, 1, 1, 0, 0, 1, 80),  # the same key twice
        (t + 360, 1, 1, 0, 0, 1, 81),
    ]
    db.executemany('INSERT INTO "MI_BAND_ACTIVITY_SAMPLE" VALUES (?, ?, ?, ?, ?, ?, ?)', rows)
    db.execute('CREATE TABLE "HUAMI_EXTENDED_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER, "DEVICE_ID" INTEGER)')
    db.executemany('INSERT INTO "HUAMI_EXTENDED_ACTIVITY_SAMPLE" VALUES (?, ?)', [(t, 1), (t + 60, 1)])
    db.execute('CREATE TABLE "WEIRD""NAME_SAMPLE" ("A")')
    db.execute('INSERT INTO "WEIRD""NAME_SAMPLE" VALUES (1)')
    # A generated column: a valid heart rate here, but the expression could be any size
    # (`length(randomblob(999999999))`); the table is not read.
    db.execute(
        'CREATE TABLE "GARMIN_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER NOT NULL, "DEVICE_ID" INTEGER NOT NULL, "STEPS" INTEGER,'
        " \"HEART_RATE\" AS (length(printf('%.*c', 70, 'x'))), PRIMARY KEY (\"TIMESTAMP\", \"DEVICE_ID\")) WITHOUT ROWID"
    )
    db.execute('INSERT INTO "GARMIN_ACTIVITY_SAMPLE" ("TIMESTAMP", "DEVICE_ID", "STEPS") VALUES (?, 1, 5)', (t + 420,))
    # Virtual tables named like sample tables, with rows that would read as samples.
    virtual = []
    try:
        db.execute('CREATE VIRTUAL TABLE "HUAMI_HEART_RATE_MANUAL_SAMPLE" USING rtree_i32("TIMESTAMP", "DEVICE_ID", "HEART_RATE")')
        db.execute('INSERT INTO "HUAMI_HEART_RATE_MANUAL_SAMPLE" VALUES (?, 1, 75)', ((t + 480) * 1000,))
        virtual.append("HUAMI_HEART_RATE_MANUAL_SAMPLE")
    except sqlite3.OperationalError as error:
        print(f"no rtree in this Python's SQLite ({error}): HUAMI_HEART_RATE_MANUAL_SAMPLE left out", file=sys.stderr)
    try:
        db.execute('CREATE VIRTUAL TABLE "XIAOMI_ACTIVITY_SAMPLE" USING fts5("TIMESTAMP", "DEVICE_ID", "STEPS", "HEART_RATE")')
        db.execute('INSERT INTO "XIAOMI_ACTIVITY_SAMPLE" VALUES (?, 1, 7, 72)', (t + 540,))
        virtual.append("XIAOMI_ACTIVITY_SAMPLE")
    except sqlite3.OperationalError as error:
        print(f"no fts5 in this Python's SQLite ({error}): XIAOMI_ACTIVITY_SAMPLE left out", file=sys.stderr)
    # Rows of 3000 devices DEVICE does not name: one kind of thing not understood.
    db.execute(DDL[9])  # PEBBLE_HEALTH_ACTIVITY_SAMPLE
    db.executemany('INSERT INTO "PEBBLE_HEALTH_ACTIVITY_SAMPLE" VALUES (?, ?, 1, NULL, 0, 10, 60)', [(t, 1000 + i) for i in range(3000)])
    # Tables with data the importer does not read, more than the answer names.
    extra = [f"ZZ_EXTRA_{i:03}_SAMPLE" for i in range(60)]
    for name in extra:
        db.execute(f'CREATE TABLE "{name}" ("A")')
        db.execute(f'INSERT INTO "{name}" VALUES (1)')
    db.commit()
    db.execute("VACUUM")
    db.close()
    # In the importer's order: the sample tables' schemas (by name), their rows (by name and
    # key), then the tables not read (by name).
    schema = [
        ("GARMIN_ACTIVITY_SAMPLE (generated columns: not read)", 1),
        ("HUAMI_EXTENDED_ACTIVITY_SAMPLE (without STEPS, HEART_RATE, RAW_KIND, SLEEP, DEEP_SLEEP, REM_SLEEP)", 2),
        ("HUAMI_HEART_RATE_MANUAL_SAMPLE (a virtual table: not read)", 1 if "HUAMI_HEART_RATE_MANUAL_SAMPLE" in virtual else 0),
        ("MI_BAND_ACTIVITY_SAMPLE: rows without a number as key", 2),
        ("XIAOMI_ACTIVITY_SAMPLE (a virtual table: not read)", 1 if "XIAOMI_ACTIVITY_SAMPLE" in virtual else 0),
    ]
    read = [
        ("MI_BAND_ACTIVITY_SAMPLE: timestamps out of range", 1),  # -(2**63)
        ("MI_BAND_ACTIVITY_SAMPLE: rows not understood", 1),  # t + 120.5
        ("MI_BAND_ACTIVITY_SAMPLE: steps not understood", 1),  # the blob
        ("MI_BAND_ACTIVITY_SAMPLE: heart rates not understood", 1),  # the blob
        ("MI_BAND_ACTIVITY_SAMPLE: steps not understood", 1),  # the long text
        ("MI_BAND_ACTIVITY_SAMPLE: timestamps out of range", 1),  # 2**63 - 1
        ("Hostile Band: sleep: sessions under an hour (stray minutes or naps, not a night)", 1),  # the one sleep minute
        ("PEBBLE_HEALTH_ACTIVITY_SAMPLE: rows of devices not in DEVICE", 3000),
    ]
    unread = [('WEIRD"NAME_SAMPLE', 1)] + [(name, 1) for name in extra]
    return {
        "samples": {"heartRate": 4, "steps": 1, "sleep": 0},
        "notUnderstood": dict(sorted(capped(schema + read + unread).items())),
    }


def unindexed(out):
    """Issue 40: a known sample table without its primary key (the index every table
    Gadgetbridge writes has), larger than one page of the import (5,000 rows): each page would
    sort the whole table, so the import names it and does not read it. Returns what the import
    must say of it."""
    path = os.path.join(out, "gadgetbridge-unindexed.db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute(DDL[3])  # DEVICE
    db.execute('INSERT INTO "DEVICE" ("_id", "NAME", "MANUFACTURER", "IDENTIFIER", "TYPE", "TYPE_NAME") VALUES (1, "Mi Band 2", "Xiaomi", "C8:0F:10:00:00:01", 11, "MIBAND2")')
    db.execute('CREATE TABLE "MI_BAND_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER NOT NULL, "DEVICE_ID" INTEGER NOT NULL, "USER_ID" INTEGER NOT NULL, '
               '"RAW_INTENSITY" INTEGER NOT NULL, "STEPS" INTEGER NOT NULL, "RAW_KIND" INTEGER NOT NULL, "HEART_RATE" INTEGER NOT NULL)')
    t = ts("2026-03-02T00:00:00")
    # Minutes in reverse order, as a writer without the key could leave them.
    db.executemany('INSERT INTO "MI_BAND_ACTIVITY_SAMPLE" VALUES (?, 1, 1, 20, 3, 1, ?)', [(t + 60 * i, 60 + i % 30) for i in reversed(range(6000))])
    db.commit()
    db.execute("VACUUM")
    db.close()
    return {
        "samples": {},
        "notUnderstood": {
            "MI_BAND_ACTIVITY_SAMPLE (no index on TIMESTAMP, DEVICE_ID, which the tables Gadgetbridge writes have: not read; export the database from Gadgetbridge again)": 6000,
        },
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "HeartworkServerTests", "Resources", "gadgetbridge")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "gadgetbridge.db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    for statement in DDL:
        db.execute(statement)
    db.execute('INSERT INTO "USER" VALUES (1, "Anna", 0, 0)')
    db.executemany('INSERT INTO "DEVICE" ("_id", "NAME", "MANUFACTURER", "IDENTIFIER", "TYPE", "TYPE_NAME") VALUES (?, ?, ?, ?, ?, ?)', DEVICES)
    mi_band = mi_band_rows()
    huami = huami_extended_rows()
    pebble, overlay = pebble_rows()
    db.executemany('INSERT INTO "MI_BAND_ACTIVITY_SAMPLE" VALUES (?, ?, ?, ?, ?, ?, ?)', mi_band)
    db.executemany('INSERT INTO "HUAMI_EXTENDED_ACTIVITY_SAMPLE" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', huami)
    db.executemany('INSERT INTO "PEBBLE_HEALTH_ACTIVITY_SAMPLE" VALUES (?, ?, ?, ?, ?, ?, ?)', pebble)
    db.executemany('INSERT INTO "PEBBLE_HEALTH_ACTIVITY_OVERLAY" VALUES (?, ?, ?, ?, ?, ?)', overlay)
    resting = resting_rows()
    db.executemany('INSERT INTO "HUAMI_HEART_RATE_RESTING_SAMPLE" VALUES (?, ?, ?, ?, ?)', resting)
    # Tables the importer does not read: named in its answer with their rows.
    night = ts("2026-03-02T01:00:00") * 1000
    db.executemany('INSERT INTO "XIAOMI_SLEEP_STAGE_SAMPLE" VALUES (?, ?, ?, ?)', [(night + 60000 * i, BIP, 1, 2) for i in range(12)])
    db.executemany('INSERT INTO "HUAMI_STRESS_SAMPLE" VALUES (?, ?, ?, ?, ?)', [(night + 300000 * i, BIP, 1, 1, 30 + i) for i in range(7)])
    db.commit()
    db.execute("VACUUM")
    db.close()

    counts, steps_total, sleep_minutes, read, not_understood = expected(mi_band, huami, pebble, overlay, resting)
    not_understood["XIAOMI_SLEEP_STAGE_SAMPLE"] = 12
    not_understood["HUAMI_STRESS_SAMPLE"] = 7
    assert len(not_understood) <= MAXIMUM_NOT_UNDERSTOOD  # all named
    answer = {
        "samples": counts,
        "samplesTotal": sum(counts.values()),
        "stepsTotal": steps_total,
        "sleepMinutes": sleep_minutes,
        "devices": sorted({name for _, name, *_ in DEVICES if any(k.startswith(name + ":") for k in read)}),
        "read": dict(sorted(read.items())),
        "notUnderstood": dict(sorted(not_understood.items())),
        "firstDay": "2026-03-01",
        "lastDay": "2026-03-03",
        "hostile": hostile(out),
        "unindexed": unindexed(out),
    }
    with open(os.path.join(out, "gadgetbridge.expected.json"), "w") as f:
        json.dump(answer, f, indent=2, sort_keys=True)
        f.write("\n")
    print(json.dumps(answer, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
