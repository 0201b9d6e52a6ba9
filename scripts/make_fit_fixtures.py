#!/usr/bin/env python3
"""FIT fixtures for the decoder's golden tests, written by an independent encoder (fit-tool,
PyPI) and read back by an independent decoder (fitdecode, PyPI) into the expected values:

    pip install fit-tool fitdecode
    python3 scripts/make_fit_fixtures.py

writes Tests/HeartworkFormatsTests/Resources/fit/{ride.fit, ride.expected.json}. The Swift
tests read both and never run Python.
"""
import datetime
import json
import math
import pathlib

import fitdecode
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.activity_message import ActivityMessage
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.hrv_message import HrvMessage
from fit_tool.profile.messages.lap_message import LapMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer, Sport

OUT = pathlib.Path(__file__).resolve().parents[1] / "Tests" / "HeartworkFormatsTests" / "Resources" / "fit"
FIT_EPOCH = 631065600


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    start_ms = int(datetime.datetime(2026, 6, 1, 6, 30, tzinfo=datetime.timezone.utc).timestamp()) * 1000
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    m = FileIdMessage()
    m.type = FileType.ACTIVITY
    m.manufacturer = Manufacturer.GARMIN.value
    m.product = 3113
    m.serial_number = 0x12345678
    m.time_created = start_ms
    builder.add(m)
    e = EventMessage()
    e.event = Event.TIMER
    e.event_type = EventType.START
    e.timestamp = start_ms
    builder.add(e)
    distance = 0.0
    seconds = 600
    for s in range(seconds):
        r = RecordMessage()
        r.timestamp = start_ms + s * 1000
        r.position_lat = 48.2 + 0.001 * math.sin(s / 60)
        r.position_long = 16.37 + 0.001 * math.cos(s / 60)
        r.altitude = 180 + 10 * math.sin(s / 100)
        speed = 8 + 2 * math.sin(s / 30)
        distance += speed
        r.distance = distance
        r.speed = speed
        if s % 97 != 50:  # a few seconds without heart rate (dropouts)
            r.heart_rate = int(120 + 40 * s / seconds + 5 * math.sin(s / 10))
        r.cadence = 85 + s % 7
        r.power = 180 + (s * 13) % 60
        r.temperature = 21 + s // 200
        builder.add(r)
    rr = [round(60000 / (120 + 40 * i / 1200), 0) for i in range(1200)]
    for i in range(0, len(rr), 5):
        h = HrvMessage()
        h.time = [v / 1000 for v in rr[i:i + 5]]
        builder.add(h)
    e = EventMessage()
    e.event = Event.TIMER
    e.event_type = EventType.STOP_ALL
    e.timestamp = start_ms + seconds * 1000
    builder.add(e)
    lap = LapMessage()
    lap.timestamp = start_ms + seconds * 1000
    lap.start_time = start_ms
    lap.total_elapsed_time = seconds
    lap.total_timer_time = seconds
    lap.total_distance = distance
    lap.avg_heart_rate = 140
    lap.max_heart_rate = 165
    builder.add(lap)
    session = SessionMessage()
    session.timestamp = start_ms + seconds * 1000
    session.start_time = start_ms
    session.total_elapsed_time = seconds
    session.total_timer_time = seconds
    session.total_distance = distance
    session.sport = Sport.CYCLING
    session.total_calories = 312
    session.avg_heart_rate = 140
    session.max_heart_rate = 165
    builder.add(session)
    a = ActivityMessage()
    a.timestamp = start_ms + seconds * 1000
    a.num_sessions = 1
    a.total_timer_time = seconds
    builder.add(a)
    path = OUT / "ride.fit"
    builder.build().to_file(str(path))

    # The expected values, as fitdecode reads the same bytes.
    expected = {"records": [], "rr": [], "laps": [], "sessions": [], "fileId": {}}
    with fitdecode.FitReader(str(path)) as fit:
        for frame in fit:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            values = {f.name: f.value for f in frame.fields}
            if frame.name == "file_id":
                expected["fileId"] = {"type": 4, "manufacturer": 1, "product": values.get("product"), "serial": values.get("serial_number")}
            elif frame.name == "record":
                t = values["timestamp"]
                semis = 180 / 2 ** 31
                expected["records"].append({
                    "t": int(t.timestamp()), "hr": values.get("heart_rate"),
                    "lat": values["position_lat"] * semis if values.get("position_lat") is not None else None,
                    "lon": values["position_long"] * semis if values.get("position_long") is not None else None,
                    "alt": values.get("enhanced_altitude", values.get("altitude")), "dist": values.get("distance"),
                    "speed": values.get("enhanced_speed", values.get("speed")), "cad": values.get("cadence"),
                    "power": values.get("power"), "temp": values.get("temperature")})
            elif frame.name == "hrv":
                expected["rr"].extend(round(v * 1000) for v in values["time"] if v is not None)
            elif frame.name == "lap":
                expected["laps"].append({"distance": values.get("total_distance"), "elapsed": values.get("total_elapsed_time"),
                                         "avgHR": values.get("avg_heart_rate")})
            elif frame.name == "session":
                expected["sessions"].append({"sport": 2, "calories": values.get("total_calories"), "elapsed": values.get("total_elapsed_time"),
                                             "distance": values.get("total_distance")})
    (OUT / "ride.expected.json").write_text(json.dumps(expected, indent=0) + "\n")
    print(f"wrote {path.name} ({path.stat().st_size} bytes): {len(expected['records'])} records, {len(expected['rr'])} RR intervals")


if __name__ == "__main__":
    main()
