#!/usr/bin/env python3
"""Reads the GPX and TCX files Heartwork's writer produced (artifacts/files/heartwork-encoded.gpx
and .tcx, written by the Swift test that exports an activity) with two independent readers from
PyPI, gpxpy and tcxreader, and compares every point with the values the test wrote down in
artifacts/files/heartwork-encoded.expected.json:

    {"sport": "running", "start": <epoch s>, "distanceMeters": <float>, "kilocalories": <float>,
     "points": [{"t": <epoch s>, "hr": <int or null>, "lat": <deg>, "lon": <deg>, "ele": <m or null>}]}

Every expected point has a position and a time, so both files must hold exactly these points in
this order. Per point: time exact (to the microsecond), heart rate exact (null = absent; GPX:
<hr> in Garmin's TrackPointExtension v2, namespace
http://www.garmin.com/xmlschemas/TrackPointExtension/v2, declared with the prefix gpxtpx; TCX:
HeartRateBpm/Value), latitude and longitude within 1e-7°, elevation within 0.05 m (null =
absent). The GPX track's <type> and the TCX Activity's Sport must name the sport (running →
"running"/"Running", cycling → "cycling"/"Biking", anything else → "Other" in TCX), the GPX
metadata time and the TCX Id and first lap StartTime must be the start, the TCX laps'
DistanceMeters must add up to distanceMeters within 0.01 m and their Calories to kilocalories
within 1 kcal (TCX holds whole kilocalories).

    pip install gpxpy tcxreader
    python3 Tests/Reference/xml_crosscheck.py

ARTIFACTS=/some/dir overrides the directory (default: <repo>/artifacts/files). Prints one line
on success; otherwise lists the problems and exits 1.
"""
import datetime
import json
import os
import pathlib
import sys
import xml.etree.ElementTree as ET

import gpxpy
from tcxreader.tcxreader import TCXReader

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = pathlib.Path(os.environ.get("ARTIFACTS") or ROOT / "artifacts" / "files")
GPX = ARTIFACTS / "heartwork-encoded.gpx"
TCX = ARTIFACTS / "heartwork-encoded.tcx"
EXPECTED = ARTIFACTS / "heartwork-encoded.expected.json"

TPX_V2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
TCX_NS = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
GPX_TYPES = {"running": "running", "cycling": "cycling"}
TCX_SPORTS = {"running": "Running", "cycling": "Biking"}
MAX_POINT_PROBLEMS = 15


def epoch(moment):
    """UTC epoch seconds; tcxreader gives naive datetimes for times written with Z: UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


def parse_time(text):
    return epoch(datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00")))


def same_time(got, want):
    return got is not None and want is not None and abs(got - want) < 1e-6


def within(got, want, tolerance):
    if want is None:
        return got is None
    return got is not None and abs(got - want) <= tolerance + 1e-12


class Problems:
    def __init__(self):
        self.lines = []
        self.per_file = {}

    def add(self, line):
        self.lines.append(line)

    def point(self, file, line):
        count = self.per_file.get(file, 0) + 1
        self.per_file[file] = count
        if count <= MAX_POINT_PROBLEMS:
            self.lines.append(line)

    def finish(self):
        for file, count in self.per_file.items():
            if count > MAX_POINT_PROBLEMS:
                self.lines.append(f"{file}: … and {count - MAX_POINT_PROBLEMS} more points differ")
        return self.lines


def compare_points(file, got, expected, problems):
    if len(got) != len(expected):
        problems.add(f"{file}: {len(got)} points, expected {len(expected)}")
    for i, (g, w) in enumerate(zip(got, expected)):
        wrong = []
        if not same_time(g["t"], w["t"]):
            wrong.append(f"t {g['t']} != {w['t']}")
        if g["hr"] != w.get("hr"):
            wrong.append(f"hr {g['hr']} != {w.get('hr')}")
        if not within(g["lat"], w["lat"], 1e-7):
            wrong.append(f"lat {g['lat']} != {w['lat']}")
        if not within(g["lon"], w["lon"], 1e-7):
            wrong.append(f"lon {g['lon']} != {w['lon']}")
        if not within(g["ele"], w.get("ele"), 0.05):
            wrong.append(f"ele {g['ele']} != {w.get('ele')}")
        if wrong:
            problems.point(file, f"{file} point {i}: " + ", ".join(wrong))


def check_gpx(expected, problems):
    try:
        gpx = gpxpy.parse(GPX.read_text(encoding="utf-8"))
    except Exception as error:  # gpxpy raises its own and XML errors
        problems.add(f"{GPX.name}: gpxpy cannot read it: {error}")
        return 0
    if gpx.nsmap.get("gpxtpx") != TPX_V2:
        problems.add(f"{GPX.name}: the prefix gpxtpx is bound to {gpx.nsmap.get('gpxtpx')!r}, expected {TPX_V2}")
    if len(gpx.tracks) != 1:
        problems.add(f"{GPX.name}: {len(gpx.tracks)} tracks, expected 1")
    if gpx.tracks:
        want_type = GPX_TYPES.get(expected["sport"], "other")
        if gpx.tracks[0].type != want_type and gpx.tracks[0].type != expected["sport"]:
            problems.add(f"{GPX.name}: track type {gpx.tracks[0].type!r}, expected {want_type!r}")
    if gpx.time is not None and not same_time(epoch(gpx.time), expected["start"]):
        problems.add(f"{GPX.name}: metadata time {epoch(gpx.time)}, expected the start {expected['start']}")
    points = []
    for track in gpx.tracks:
        for segment in track.segments:
            for point in segment.points:
                hr, other_namespaces = None, []
                for element in point.extensions:
                    if element.tag == f"{{{TPX_V2}}}TrackPointExtension":
                        for child in element:
                            if child.tag == f"{{{TPX_V2}}}hr":
                                hr = int(child.text.strip())
                    elif element.tag.endswith("TrackPointExtension"):
                        other_namespaces.append(element.tag)
                if other_namespaces:
                    problems.point(GPX.name, f"{GPX.name}: a TrackPointExtension outside the v2 namespace: {other_namespaces}")
                points.append({"t": epoch(point.time), "hr": hr, "lat": point.latitude, "lon": point.longitude, "ele": point.elevation})
    compare_points(GPX.name, points, expected["points"], problems)
    return len(points)


def check_tcx(expected, problems):
    try:
        exercise = TCXReader().read(str(TCX), only_gps=False)
        root = ET.parse(TCX).getroot()
    except Exception as error:
        problems.add(f"{TCX.name}: tcxreader cannot read it: {error}")
        return 0
    want_sport = TCX_SPORTS.get(expected["sport"], "Other")
    if exercise.activity_type != want_sport:
        problems.add(f"{TCX.name}: Sport {exercise.activity_type!r}, expected {want_sport!r}")
    t = lambda name: f"{{{TCX_NS}}}{name}"
    activity = root.find(f"{t('Activities')}/{t('Activity')}")
    identifier = activity.find(t("Id")) if activity is not None else None
    if identifier is None or not same_time(parse_time(identifier.text), expected["start"]):
        problems.add(f"{TCX.name}: Activity Id {None if identifier is None else identifier.text!r} is not the start {expected['start']}")
    first_lap = activity.find(t("Lap")) if activity is not None else None
    if first_lap is None or not same_time(parse_time(first_lap.get("StartTime", "")), expected["start"]):
        problems.add(f"{TCX.name}: the first lap's StartTime {None if first_lap is None else first_lap.get('StartTime')!r} is not the start")
    if not within(exercise.distance, expected["distanceMeters"], 0.01):
        problems.add(f"{TCX.name}: laps' DistanceMeters add up to {exercise.distance}, expected {expected['distanceMeters']}")
    if exercise.calories is None or abs(exercise.calories - expected["kilocalories"]) >= 1:
        problems.add(f"{TCX.name}: laps' Calories add up to {exercise.calories}, expected {expected['kilocalories']}")
    points = [{"t": epoch(p.time), "hr": p.hr_value, "lat": p.latitude, "lon": p.longitude, "ele": p.elevation}
              for p in exercise.trackpoints]
    compare_points(TCX.name, points, expected["points"], problems)
    return len(points)


def main():
    missing = [path for path in (GPX, TCX, EXPECTED) if not path.exists()]
    if missing:
        print("\n".join(f"{path} is missing (the Swift test that exports an activity writes it)" for path in missing))
        sys.exit(1)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    problems = Problems()
    gpx_points = check_gpx(expected, problems)
    tcx_points = check_tcx(expected, problems)
    lines = problems.finish()
    if lines:
        print("\n".join(lines))
        print("xml cross-check failed")
        sys.exit(1)
    print(f"xml cross-check passed: gpxpy read {gpx_points} points, tcxreader read {tcx_points} trackpoints")


if __name__ == "__main__":
    main()
