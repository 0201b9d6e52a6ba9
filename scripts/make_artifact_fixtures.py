#!/usr/bin/env python3
"""Real-device artifacts for issue 28's "real files are kept whole" tests, written by
independent tools and read back by independent decoders into the expected counts:

    pip install fit-tool fitdecode gpxpy
    python3 scripts/make_artifact_fixtures.py

writes Tests/HeartworkServerTests/Resources/artifacts/:

- `edge-ride.fit` — an Edge 1030's ride as fit-tool encodes it (Garmin, product 2713), 1,800 s:
  heart rate 0 for 20 s (the strap off the skin), one GPS fix 40 km away (a jump), a record
  whose clock steps back 5 s, and among its 3,000 beat-to-beat intervals one of 6,712 ms (the
  probe's Garmin ride was refused for exactly that);
- `edge-ride-cut.fit` — the same file cut 19,066 bytes before its end (a copy that stopped);
- `zwift.gpx` — a Zwift ride as Zwift's GPX export writes it ("Zwift Session", type
  VirtualRide, gpxtpx heart rate) with heart rates of 0 and 255 and a point whose time goes back;
- `artifacts.expected.json` — what fitdecode and gpxpy read in them.

The Swift tests read the files and the JSON and never run Python.
"""
import datetime
import json
import math
import pathlib

import fitdecode
import gpxpy
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.activity_message import ActivityMessage
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.hrv_message import HrvMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer, Sport

OUT = pathlib.Path(__file__).resolve().parents[1] / "Tests" / "HeartworkServerTests" / "Resources" / "artifacts"
SECONDS = 1800


def edge_ride():
    start_ms = int(datetime.datetime(2026, 9, 12, 7, 5, tzinfo=datetime.timezone.utc).timestamp()) * 1000
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    m = FileIdMessage()
    m.type = FileType.ACTIVITY
    m.manufacturer = Manufacturer.GARMIN.value
    m.product = 2713  # Edge 1030
    m.serial_number = 0x3A1C55E0
    m.time_created = start_ms
    builder.add(m)
    e = EventMessage()
    e.event = Event.TIMER
    e.event_type = EventType.START
    e.timestamp = start_ms
    builder.add(e)
    distance = 0.0
    for s in range(SECONDS):
        r = RecordMessage()
        # The clock steps back 5 s once (second 900 is written as 895).
        r.timestamp = start_ms + (s - 5 if s == 900 else s) * 1000
        lat = 47.07 + 0.01 * math.sin(s / 300)
        lon = 15.44 + 0.01 * math.cos(s / 300)
        if s == 1200:
            lat += 0.36  # 40 km north for one fix
        r.position_lat = lat
        r.position_long = lon
        r.altitude = 360 + 20 * math.sin(s / 200)
        speed = 7 + math.sin(s / 40)
        distance += speed
        r.distance = distance
        r.speed = speed
        r.heart_rate = 0 if 600 <= s < 620 else int(130 + 20 * math.sin(s / 90))
        builder.add(r)
    rr = [round(60000 / (130 + 20 * math.sin(i / 150)), 0) for i in range(3000)]
    rr[1500] = 6712.0  # a missed beat: a gap, not an interval
    for i in range(0, len(rr), 5):
        h = HrvMessage()
        h.time = [v / 1000 for v in rr[i:i + 5]]
        builder.add(h)
    e = EventMessage()
    e.event = Event.TIMER
    e.event_type = EventType.STOP_ALL
    e.timestamp = start_ms + SECONDS * 1000
    builder.add(e)
    session = SessionMessage()
    session.timestamp = start_ms + SECONDS * 1000
    session.start_time = start_ms
    session.total_elapsed_time = SECONDS
    session.total_timer_time = SECONDS
    session.total_distance = distance
    session.sport = Sport.CYCLING
    session.total_calories = 0  # the device did not measure it
    builder.add(session)
    a = ActivityMessage()
    a.timestamp = start_ms + SECONDS * 1000
    a.num_sessions = 1
    a.total_timer_time = SECONDS
    builder.add(a)
    path = OUT / "edge-ride.fit"
    builder.build().to_file(str(path))
    data = path.read_bytes()
    (OUT / "edge-ride-cut.fit").write_bytes(data[: len(data) - 19_066])

    expected = {"records": 0, "zeroHeartRate": 0, "clockBack": 0, "rr": 0, "rrOver5000": 0}
    previous = None
    with fitdecode.FitReader(str(path)) as fit:
        for frame in fit:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            values = {f.name: f.value for f in frame.fields}
            if frame.name == "record":
                expected["records"] += 1
                if values.get("heart_rate") == 0:
                    expected["zeroHeartRate"] += 1
                if previous is not None and values["timestamp"] < previous:
                    expected["clockBack"] += 1
                previous = values["timestamp"]
            elif frame.name == "hrv":
                for v in values["time"]:
                    if v is None:
                        continue
                    expected["rr"] += 1
                    expected["rrOver5000"] += 1 if v * 1000 > 5000 else 0
    expected["bytes"] = len(data)
    expected["cutBytes"] = len(data) - 19_066
    return expected


def zwift_gpx():
    start = datetime.datetime(2026, 10, 3, 18, 0, tzinfo=datetime.timezone.utc)
    points = []
    for s in range(600):
        t = start + datetime.timedelta(seconds=(s - 3 if s == 400 else s))
        hr = 0 if s in (100, 101) else 255 if s == 300 else 140 + (s % 20)
        lat = -11.64 + 0.0001 * s
        lon = 166.95 + 0.00005 * s
        points.append(f'<trkpt lat="{lat:.6f}" lon="{lon:.6f}"><ele>{10 + s % 7}</ele><time>{t.strftime("%Y-%m-%dT%H:%M:%SZ")}</time>'
                      f'<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>{hr}</gpxtpx:hr><gpxtpx:cad>88</gpxtpx:cad>'
                      f'</gpxtpx:TrackPointExtension></extensions></trkpt>')
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<gpx creator="Zwift" version="1.1" xmlns="http://www.topografix.com/GPX/1/1" '
            'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">\n'
            f'<metadata><time>{start.strftime("%Y-%m-%dT%H:%M:%SZ")}</time></metadata>\n'
            '<trk><name>Zwift Session</name><type>VirtualRide</type><trkseg>\n' + "\n".join(points) + '\n</trkseg></trk></gpx>\n')
    path = OUT / "zwift.gpx"
    path.write_text(text)
    gpx = gpxpy.parse(text)
    track = gpx.tracks[0]
    hrs = []
    for p in track.segments[0].points:
        for ext in p.extensions:
            for child in ext:
                if child.tag.endswith("hr"):
                    hrs.append(int(child.text))
    return {"name": track.name, "type": track.type, "points": len(track.segments[0].points), "zeroHeartRate": hrs.count(0),
            "heartRate255": hrs.count(255)}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    expected = {"edgeRide": edge_ride(), "zwift": zwift_gpx()}
    (OUT / "artifacts.expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(json.dumps(expected))


if __name__ == "__main__":
    main()
