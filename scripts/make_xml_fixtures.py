#!/usr/bin/env python3
"""GPX and TCX fixtures for the activity-file readers' golden tests, each written the way a real
tool writes it, and their expected values read back from the written file by independent
parsers (PyPI), never from this script's own variables:

    pip install gpxpy tcxreader
    python3 scripts/make_xml_fixtures.py

writes into Tests/HeartworkFormatsTests/Resources/gpx/ and .../tcx/ (deterministic: the same
bytes on every run; no clock, no unseeded randomness):

  gpx/garmin-connect.gpx  Garmin Connect's export: creator="Garmin Connect", default namespace
                          GPX 1.1, TrackPointExtension v1 under the prefix `ns3` (atemp, hr, cad
                          in that order), metadata link and time, trk name and type "running",
                          xsi:schemaLocation, lat/lon as the exact decimal value of the device's
                          semicircles, elevations as float32 values printed as doubles, times
                          with ".000Z", smart recording (1–4 s between points).
  gpx/strava.gpx          Strava's export: creator="StravaGPX", one-space indentation,
                          TrackPointExtension v1 under `gpxtpx` (hr, cad; no atemp), numeric
                          type 1 (a ride), 7-decimal lat/lon, 1 Hz, a few seconds where the strap
                          dropped out (cad without hr).
  gpx/v2-prefixed.gpx     The GPX elements themselves prefixed (`<gpx:gpx xmlns:gpx=...>`),
                          TrackPointExtension v2 (atemp, hr, cad, speed) under `gpxtpx`, the
                          first points without extensions (sensor not yet paired), one point
                          without <ele>, two track segments (a pause), an XML comment between
                          points and a comment and a CDATA section inside the track's name.
  tcx/garmin.tcx          Garmin Connect's TCX: TrainingCenterDatabase v2 as the default
                          namespace, ActivityExtension v2 under `ns3`, Sport="Biking", two laps
                          (StartTime, TotalTimeSeconds, DistanceMeters, MaximumSpeed, Calories,
                          Average/MaximumHeartRateBpm, Intensity, Cadence, TriggerMethod, Track,
                          Extensions/LX), trackpoints with Time, Position, AltitudeMeters,
                          DistanceMeters, HeartRateBpm/Value, Cadence and Extensions/TPX with
                          Speed and Watts (the first two trackpoints before the GPS fix have no
                          Position), Creator xsi:type="Device_t" (Name, UnitId, ProductID,
                          Version) and Author "Connect Api". Product ids are illustrative.
  tcx/indoor.tcx          A trainer/treadmill session: Sport="Other", one lap, no Position,
                          AltitudeMeters or DistanceMeters in trackpoints, heart rate and cadence
                          only (three trackpoints where the strap dropped out have no
                          HeartRateBpm), times without fractional seconds.

and for each `<name>.expected.json`. Which parser produced which value:

  GPX (gpxpy 1.6, which uses the standard library's ElementTree here — lxml is not needed):
    creator, metadata time, link, track name and type, segments, every point's time (UTC epoch
    seconds `t`), lat, lon and ele come from gpxpy's objects. gpxpy gives a point's
    <extensions> as raw ElementTree elements, so hr, cad, atemp (and speed) are taken from the
    children of the TrackPointExtension element in those elements, matched by namespace URI
    (v1 or v2), never by prefix; `extensionNamespace` records which one was found.
    gpxpy cannot read v2-prefixed.gpx as it is: it finds no <trk> in a file whose GPX elements
    carry a prefix and returns an empty GPX without an error (recorded as
    `gpxpyReadsTheFileAsIs`). For that file the values come from gpxpy reading a copy that
    ElementTree re-serialised with GPX as the default namespace (same elements, attributes
    and text; comments dropped; CDATA as escaped text), and every point is cross-checked
    against a direct namespace-aware ElementTree walk of the original file; the script stops
    if the two disagree. The track name's expected text is the XML text content with the
    comment removed (ElementTree), which is what gpxpy gives for the copy.
  TCX (tcxreader 0.4, read with only_gps=False so trackpoints without Position are kept):
    sport (Activity Sport), the laps tcxreader finds, each lap's DistanceMeters, Calories and
    LX values, the total distance and calories (tcxreader's sums over laps), the Author name,
    and every trackpoint's time, lat, lon, ele, distance, hr (HeartRateBpm/Value), cadence and
    TPX Speed and Watts come from tcxreader. tcxreader returns naive datetimes for times
    written with "Z"; they are read as UTC. tcxreader does not read a lap's StartTime
    attribute, TotalTimeSeconds, Average/MaximumHeartRateBpm, Intensity, Cadence or
    TriggerMethod, nor the Activity's Id or Creator, so those come from the standard
    library's ElementTree, matched by namespace URI. tcxreader's own per-lap heart-rate
    statistics (computed from the trackpoints) are recorded too, under `tcxreaderComputed`.

Heart-rate sums and counts are over the points the parser returned with a value.
"""
import calendar
import datetime
import decimal
import json
import math
import pathlib
import random
import struct
import sys
import xml.etree.ElementTree as ET

import gpxpy
from tcxreader.tcxreader import TCXReader

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESOURCES = ROOT / "Tests" / "HeartworkFormatsTests" / "Resources"
GPX_DIR = RESOURCES / "gpx"
TCX_DIR = RESOURCES / "tcx"

GPX_NS = "http://www.topografix.com/GPX/1/1"
TPX_V1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
TPX_V2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
TCX_NS = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
AX_NS = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"

EARTH_RADIUS = 6_371_008.8


# ---------------------------------------------------------------------------------------------
# Number formats as the tools print them
# ---------------------------------------------------------------------------------------------

def float32(value):
    """The float32 nearest to value, as a Python float (Garmin stores altitude, distance and
    speed as float32 and prints them with Java's double formatting: 172.39999389648438)."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def java_double(value):
    """Java's Double.toString for the values we print: at least one fractional digit."""
    text = repr(float(value))
    return text if ("." in text or "e" in text) else text + ".0"


def garmin_degrees(degrees):
    """Garmin Connect prints a position as the exact decimal value of the device's semicircles
    (degrees = semicircles · 180 / 2^31), e.g. 48.20868001505732536315917968750."""
    semicircles = round(degrees * 2 ** 31 / 180)
    with decimal.localcontext() as context:
        context.prec = 80
        exact = decimal.Decimal(semicircles) * 180 / decimal.Decimal(2 ** 31)
    text = format(exact, "f")
    return text if "." in text else text + ".0"


def utc(epoch, millis=False):
    moment = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + (".000Z" if millis else "Z")


def epoch_of(year, month, day, hour, minute, second):
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))


# ---------------------------------------------------------------------------------------------
# A deterministic session: position, elevation, heart rate, cadence, temperature, power
# ---------------------------------------------------------------------------------------------

def session(seed, start, seconds, lat0, lon0, speed, resting, peak, cadence, temperature,
            step=lambda i, rng: 1, intervals=(), power=None, ele0=180.0):
    """Samples of a workout as a device records them: heart rate rising through a warm-up,
    drifting upwards, with efforts in `intervals` ((start s, end s, extra bpm)), breathing-like
    wobble and sensor noise; a route that curves and climbs; cadence, temperature and power
    that move with the effort. `step` gives the seconds to the next sample (smart recording)."""
    rng = random.Random(seed)
    samples = []
    elapsed, lat, lon, heading, distance, hr = 0, lat0, lon0, rng.uniform(0, 2 * math.pi), 0.0, float(resting)
    while elapsed < seconds:
        effort = next((extra for a, b, extra in intervals if a <= elapsed < b), 0)
        warm = 1 - math.exp(-elapsed / 150)
        target = resting + (peak - resting) * (0.72 * warm + 0.12 * elapsed / seconds) + effort
        hr += (target - hr) * 0.09 + rng.gauss(0, 0.6) + 0.8 * math.sin(elapsed / 9.0)
        v = speed * (0.85 + 0.15 * warm) * (1 + 0.06 * math.sin(elapsed / 47)) * (1 + effort / 120)
        samples.append({
            "t": start + elapsed,
            "lat": lat,
            "lon": lon,
            "ele": ele0 + 14 * math.sin(elapsed / 210) + 4 * math.sin(elapsed / 37) + rng.gauss(0, 0.15),
            "dist": distance,
            "speed": v,
            "hr": int(round(hr)),
            "cad": int(round(cadence * (0.9 + 0.1 * warm) + rng.gauss(0, 1.2) + effort / 8)),
            "atemp": round(temperature + 2.5 * elapsed / seconds + rng.gauss(0, 0.3)),
            "watts": None if power is None else max(0, int(round(power * (0.8 + 0.2 * warm) * (1 + effort / 40) + rng.gauss(0, 12)))),
        })
        dt = step(elapsed, rng)
        heading += rng.gauss(0, 0.035) + 0.004
        meters = v * dt
        lat += math.degrees(meters * math.cos(heading) / EARTH_RADIUS)
        lon += math.degrees(meters * math.sin(heading) / (EARTH_RADIUS * math.cos(math.radians(lat))))
        distance += meters
        elapsed += dt
    return samples


def smart_recording(elapsed, rng):
    """Garmin's smart recording: mostly every second, sometimes 2–4 s apart."""
    r = rng.random()
    return 1 if r < 0.7 else 2 if r < 0.9 else 3 if r < 0.97 else 4


# ---------------------------------------------------------------------------------------------
# Writers, one per tool's style
# ---------------------------------------------------------------------------------------------

def write_garmin_connect_gpx(path):
    start = epoch_of(2026, 5, 16, 6, 12, 31)
    points = session(1301, start, 1140, 48.208680, 16.373819, 3.1, 92, 172, 84, 17,
                     step=smart_recording, intervals=((600, 720, 14), (900, 960, 18)), ele0=171.0)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<gpx creator="Garmin Connect" version="1.1"',
           '  xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/11.xsd"',
           '  xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"',
           '  xmlns="http://www.topografix.com/GPX/1/1"',
           '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ns2="http://www.garmin.com/xmlschemas/GpxExtensions/v3">',
           '  <metadata>',
           '    <link href="connect.garmin.com">',
           '      <text>Garmin Connect</text>',
           '    </link>',
           f'    <time>{utc(start, millis=True)}</time>',
           '  </metadata>',
           '  <trk>',
           '    <name>Vienna Running</name>',
           '    <type>running</type>',
           '    <trkseg>']
    for p in points:
        out += [f'      <trkpt lat="{garmin_degrees(p["lat"])}" lon="{garmin_degrees(p["lon"])}">',
                f'        <ele>{java_double(float32(p["ele"]))}</ele>',
                f'        <time>{utc(p["t"], millis=True)}</time>',
                '        <extensions>',
                '          <ns3:TrackPointExtension>',
                f'            <ns3:atemp>{java_double(p["atemp"])}</ns3:atemp>',
                f'            <ns3:hr>{p["hr"]}</ns3:hr>',
                f'            <ns3:cad>{p["cad"]}</ns3:cad>',
                '          </ns3:TrackPointExtension>',
                '        </extensions>',
                '      </trkpt>']
    out += ['    </trkseg>', '  </trk>', '</gpx>']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return len(points)


def write_strava_gpx(path):
    start = epoch_of(2026, 5, 17, 8, 1, 33)
    points = session(1302, start, 720, 47.070714, 15.439504, 8.4, 95, 168, 88, 14,
                     intervals=((300, 420, 16),), ele0=365.0)
    dropouts = set(range(212, 219)) | {455, 456}
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<gpx creator="StravaGPX" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
           'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd '
           'http://www.garmin.com/xmlschemas/GpxExtensions/v3 http://www.garmin.com/xmlschemas/GpxExtensionsv3.xsd '
           'http://www.garmin.com/xmlschemas/TrackPointExtension/v1 http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd" '
           'version="1.1" xmlns="http://www.topografix.com/GPX/1/1" '
           'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" '
           'xmlns:gpxx="http://www.garmin.com/xmlschemas/GpxExtensions/v3">',
           ' <metadata>',
           f'  <time>{utc(start)}</time>',
           ' </metadata>',
           ' <trk>',
           '  <name>Morning Ride</name>',
           '  <type>1</type>',
           '  <trkseg>']
    for i, p in enumerate(points):
        out += [f'   <trkpt lat="{p["lat"]:.7f}" lon="{p["lon"]:.7f}">',
                f'    <ele>{p["ele"]:.1f}</ele>',
                f'    <time>{utc(p["t"])}</time>',
                '    <extensions>',
                '     <gpxtpx:TrackPointExtension>']
        if i not in dropouts:
            out.append(f'      <gpxtpx:hr>{p["hr"]}</gpxtpx:hr>')
        out += [f'      <gpxtpx:cad>{p["cad"]}</gpxtpx:cad>',
                '     </gpxtpx:TrackPointExtension>',
                '    </extensions>',
                '   </trkpt>']
    out += ['  </trkseg>', ' </trk>', '</gpx>']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return len(points)


def write_v2_prefixed_gpx(path):
    start = epoch_of(2026, 5, 18, 17, 45, 0)
    first = session(1303, start, 230, 46.623060, 14.307350, 3.4, 90, 176, 86, 21,
                    step=lambda i, rng: 1 if rng.random() < 0.8 else 2, ele0=446.0)
    resume = first[-1]["t"] + 95  # a pause at a crossing, then a second segment
    second = session(1304, resume, 200, first[-1]["lat"], first[-1]["lon"], 3.4, 120, 178, 87, 22,
                     step=lambda i, rng: 1 if rng.random() < 0.8 else 2, ele0=first[-1]["ele"])
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
           '<gpx:gpx xmlns:gpx="http://www.topografix.com/GPX/1/1" '
           'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.1" creator="Heartbeat Exporter 2.3" '
           'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd '
           'http://www.garmin.com/xmlschemas/TrackPointExtension/v2 http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">',
           '\t<gpx:metadata>',
           f'\t\t<gpx:time>{utc(start)}</gpx:time>',
           '\t</gpx:metadata>',
           '\t<gpx:trk>',
           "\t\t<gpx:name>Evening <!-- renamed on the watch --> Loop <![CDATA[Tom & Jerry's <5k>]]></gpx:name>",
           '\t\t<gpx:type>running</gpx:type>']
    for number, segment in enumerate((first, second)):
        out.append('\t\t<gpx:trkseg>')
        for i, p in enumerate(segment):
            if number == 1 and i == 0:
                out.append('\t\t\t<!-- resumed after the pause -->')
            out.append(f'\t\t\t<gpx:trkpt lat="{p["lat"]:.6f}" lon="{p["lon"]:.6f}">')
            if not (number == 0 and i == 57):  # one point without elevation (a barometer gap)
                out.append(f'\t\t\t\t<gpx:ele>{p["ele"]:.2f}</gpx:ele>')
            out.append(f'\t\t\t\t<gpx:time>{utc(p["t"])}</gpx:time>')
            if not (number == 0 and i < 6):  # the strap and pod paired only after a few seconds
                out += ['\t\t\t\t<gpx:extensions>',
                        '\t\t\t\t\t<gpxtpx:TrackPointExtension>',
                        f'\t\t\t\t\t\t<gpxtpx:atemp>{p["atemp"]:.1f}</gpxtpx:atemp>',
                        f'\t\t\t\t\t\t<gpxtpx:hr>{p["hr"]}</gpxtpx:hr>',
                        f'\t\t\t\t\t\t<gpxtpx:cad>{p["cad"]}</gpxtpx:cad>',
                        f'\t\t\t\t\t\t<gpxtpx:speed>{p["speed"]:.2f}</gpxtpx:speed>',
                        '\t\t\t\t\t</gpxtpx:TrackPointExtension>',
                        '\t\t\t\t</gpx:extensions>']
            out.append('\t\t\t</gpx:trkpt>')
        out.append('\t\t</gpx:trkseg>')
    out += ['\t</gpx:trk>', '</gpx:gpx>']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return len(first) + len(second)


TCX_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<TrainingCenterDatabase\n'
            '  xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd"\n'
            '  xmlns:ns5="http://www.garmin.com/xmlschemas/ActivityGoals/v1"\n'
            '  xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"\n'
            '  xmlns:ns2="http://www.garmin.com/xmlschemas/UserProfile/v2"\n'
            '  xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"\n'
            '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ns4="http://www.garmin.com/xmlschemas/ProfileExtension/v1">\n')

TCX_AUTHOR = ['  <Author xsi:type="Application_t">',
              '    <Name>Connect Api</Name>',
              '    <Build>',
              '      <Version>',
              '        <VersionMajor>0</VersionMajor>',
              '        <VersionMinor>0</VersionMinor>',
              '        <BuildMajor>0</BuildMajor>',
              '        <BuildMinor>0</BuildMinor>',
              '      </Version>',
              '    </Build>',
              '    <LangID>en</LangID>',
              '    <PartNumber>006-D2449-00</PartNumber>',
              '  </Author>']


def tcx_creator(name, unit_id, product_id, major, minor):
    return ['      <Creator xsi:type="Device_t">',
            f'        <Name>{name}</Name>',
            f'        <UnitId>{unit_id}</UnitId>',
            f'        <ProductID>{product_id}</ProductID>',
            '        <Version>',
            f'          <VersionMajor>{major}</VersionMajor>',
            f'          <VersionMinor>{minor}</VersionMinor>',
            '          <BuildMajor>0</BuildMajor>',
            '          <BuildMinor>0</BuildMinor>',
            '        </Version>',
            '      </Creator>']


def keytel_kcal(hrs, seconds, weight=74, age=38):
    """Keytel et al. 2005 (men), kcal over the lap, as a device would report it."""
    mean = sum(hrs) / len(hrs)
    return max(1, int(round((-55.0969 + 0.6309 * mean + 0.1988 * weight + 0.2017 * age) / 4.184 * seconds / 60)))


def write_garmin_tcx(path):
    start = epoch_of(2026, 5, 19, 5, 30, 0)
    points = session(1305, start, 620, 47.809490, 13.055010, 8.0, 90, 170, 86, 12,
                     intervals=((350, 450, 17),), power=185, ele0=424.0)
    laps = [points[:320], points[320:]]
    out = [TCX_HEAD.rstrip("\n"), '  <Activities>', '    <Activity Sport="Biking">',
           f'      <Id>{utc(start, millis=True)}</Id>']
    for number, lap in enumerate(laps):
        hrs = [p["hr"] for p in lap]
        seconds = lap[-1]["t"] - lap[0]["t"] + 1
        lap_distance = (lap[-1]["dist"] + lap[-1]["speed"]) - lap[0]["dist"]
        watts = [p["watts"] for p in lap]
        out += [f'      <Lap StartTime="{utc(lap[0]["t"], millis=True)}">',
                f'        <TotalTimeSeconds>{float(seconds)}</TotalTimeSeconds>',
                f'        <DistanceMeters>{java_double(float32(lap_distance))}</DistanceMeters>',
                f'        <MaximumSpeed>{java_double(float32(max(p["speed"] for p in lap)))}</MaximumSpeed>',
                f'        <Calories>{keytel_kcal(hrs, seconds)}</Calories>',
                '        <AverageHeartRateBpm>',
                f'          <Value>{int(round(sum(hrs) / len(hrs)))}</Value>',
                '        </AverageHeartRateBpm>',
                '        <MaximumHeartRateBpm>',
                f'          <Value>{max(hrs)}</Value>',
                '        </MaximumHeartRateBpm>',
                '        <Intensity>Active</Intensity>',
                f'        <Cadence>{int(round(sum(p["cad"] for p in lap) / len(lap)))}</Cadence>',
                f'        <TriggerMethod>{"Manual" if number == 0 else "Distance"}</TriggerMethod>',
                '        <Track>']
        for i, p in enumerate(lap):
            out += ['          <Trackpoint>', f'            <Time>{utc(p["t"], millis=True)}</Time>']
            if not (number == 0 and i < 2):  # no GPS fix for the first two seconds
                out += ['            <Position>',
                        f'              <LatitudeDegrees>{garmin_degrees(p["lat"])}</LatitudeDegrees>',
                        f'              <LongitudeDegrees>{garmin_degrees(p["lon"])}</LongitudeDegrees>',
                        '            </Position>']
            out += [f'            <AltitudeMeters>{java_double(float32(p["ele"]))}</AltitudeMeters>',
                    f'            <DistanceMeters>{java_double(float32(p["dist"]))}</DistanceMeters>',
                    '            <HeartRateBpm>',
                    f'              <Value>{p["hr"]}</Value>',
                    '            </HeartRateBpm>',
                    f'            <Cadence>{p["cad"]}</Cadence>',
                    '            <Extensions>',
                    '              <ns3:TPX>',
                    f'                <ns3:Speed>{java_double(float32(p["speed"]))}</ns3:Speed>',
                    f'                <ns3:Watts>{p["watts"]}</ns3:Watts>',
                    '              </ns3:TPX>',
                    '            </Extensions>',
                    '          </Trackpoint>']
        out += ['        </Track>',
                '        <Extensions>',
                '          <ns3:LX>',
                f'            <ns3:AvgSpeed>{java_double(float32(lap_distance / seconds))}</ns3:AvgSpeed>',
                f'            <ns3:AvgWatts>{int(round(sum(watts) / len(watts)))}</ns3:AvgWatts>',
                f'            <ns3:MaxWatts>{max(watts)}</ns3:MaxWatts>',
                '          </ns3:LX>',
                '        </Extensions>',
                '      </Lap>']
    out += tcx_creator("Edge 530", 3319876543, 3121, 9, 75)
    out += ['    </Activity>', '  </Activities>'] + TCX_AUTHOR + ['</TrainingCenterDatabase>']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return len(points)


def write_indoor_tcx(path):
    start = epoch_of(2026, 5, 20, 18, 0, 0)
    points = session(1306, start, 480, 0.0, 0.0, 0.0, 85, 165, 90, 20,
                     intervals=((240, 330, 15),))
    dropouts = {131, 132, 133}
    hrs = [p["hr"] for i, p in enumerate(points) if i not in dropouts]
    out = [TCX_HEAD.rstrip("\n"), '  <Activities>', '    <Activity Sport="Other">',
           f'      <Id>{utc(start)}</Id>',
           f'      <Lap StartTime="{utc(start)}">',
           f'        <TotalTimeSeconds>{float(len(points))}</TotalTimeSeconds>',
           '        <DistanceMeters>0.0</DistanceMeters>',
           f'        <Calories>{keytel_kcal(hrs, len(points))}</Calories>',
           '        <AverageHeartRateBpm>',
           f'          <Value>{int(round(sum(hrs) / len(hrs)))}</Value>',
           '        </AverageHeartRateBpm>',
           '        <MaximumHeartRateBpm>',
           f'          <Value>{max(hrs)}</Value>',
           '        </MaximumHeartRateBpm>',
           '        <Intensity>Active</Intensity>',
           '        <TriggerMethod>Manual</TriggerMethod>',
           '        <Track>']
    for i, p in enumerate(points):
        out += ['          <Trackpoint>', f'            <Time>{utc(p["t"])}</Time>']
        if i not in dropouts:
            out += ['            <HeartRateBpm>', f'              <Value>{p["hr"]}</Value>', '            </HeartRateBpm>']
        out += [f'            <Cadence>{p["cad"]}</Cadence>', '          </Trackpoint>']
    out += ['        </Track>', '      </Lap>']
    out += tcx_creator("Forerunner 255", 3398765432, 3992, 19, 18)
    out += ['    </Activity>', '  </Activities>'] + TCX_AUTHOR + ['</TrainingCenterDatabase>']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return len(points)


# ---------------------------------------------------------------------------------------------
# Reading back: gpxpy
# ---------------------------------------------------------------------------------------------

def number(text):
    """An extension value as a number: int when it has no fraction in the file."""
    if text is None:
        return None
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return float(text)


def epoch_seconds(moment):
    """UTC epoch seconds of a datetime; a naive one (tcxreader, for "…Z") is UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    value = moment.timestamp()
    return int(value) if value == int(value) else value


def tpx_from_gpxpy(point):
    """hr, cad, atemp, speed from the TrackPointExtension (v1 or v2) among gpxpy's raw
    extension elements, matched by namespace URI; and which namespace it was."""
    for element in point.extensions:
        namespace, _, local = element.tag[1:].partition("}") if element.tag.startswith("{") else ("", "", element.tag)
        if local == "TrackPointExtension" and namespace in (TPX_V1, TPX_V2):
            values = {}
            for child in element:
                child_ns, _, child_local = child.tag[1:].partition("}")
                if child_ns == namespace:
                    values[child_local] = number(child.text)
            return values, namespace
    return {}, None


def gpx_point(point):
    values, namespace = tpx_from_gpxpy(point)
    return {
        "t": epoch_seconds(point.time), "lat": point.latitude, "lon": point.longitude, "ele": point.elevation,
        "hr": values.get("hr"), "cad": values.get("cad"), "atemp": values.get("atemp"), "speed": values.get("speed"),
    }, namespace


def summary(points, key):
    values = [p[key] for p in points if p[key] is not None]
    if not values:
        return {"count": 0, "sum": 0, "min": None, "max": None}
    return {"count": len(values), "sum": sum(values), "min": min(values), "max": max(values)}


def expected_from_gpx(text, file_name, read_as_is):
    gpx = gpxpy.parse(text)
    segments, namespaces = [], set()
    for track in gpx.tracks:
        for segment in track.segments:
            rows = []
            for point in segment.points:
                row, namespace = gpx_point(point)
                rows.append(row)
                if namespace:
                    namespaces.add(namespace)
            segments.append(rows)
    points = [p for segment in segments for p in segment]
    track = gpx.tracks[0]
    return {
        "file": file_name,
        "readBy": f"gpxpy {gpxpy.__version__}; extension values from gpxpy's raw extension elements"
                  + ("" if read_as_is else "; file re-serialised by ElementTree with GPX as the default namespace first, "
                     "and every point cross-checked against a direct ElementTree read"),
        "gpxpyReadsTheFileAsIs": read_as_is,
        "creator": gpx.creator,
        "metadataTime": epoch_seconds(gpx.time),
        "link": gpx.link,
        "linkText": gpx.link_text,
        "tracks": len(gpx.tracks),
        "name": track.name,
        "type": track.type,
        "segments": [len(s) for s in segments],
        "extensionNamespace": sorted(namespaces),
        "pointCount": len(points),
        "pointsWithTime": sum(1 for p in points if p["t"] is not None),
        "pointsWithElevation": sum(1 for p in points if p["ele"] is not None),
        "start": points[0]["t"],
        "end": points[-1]["t"],
        "first": points[0],
        "last": points[-1],
        "heartRate": summary(points, "hr"),
        "cadence": summary(points, "cad"),
        "temperature": summary(points, "atemp"),
        "points": points,
    }


def direct_gpx_read(path):
    """Namespace-aware ElementTree walk of a GPX 1.1 file, whatever its prefixes."""
    root = ET.parse(path).getroot()
    g = lambda name: f"{{{GPX_NS}}}{name}"
    rows = []
    for trkpt in root.iter(g("trkpt")):
        ele = trkpt.find(g("ele"))
        time = trkpt.find(g("time"))
        values = {}
        extensions = trkpt.find(g("extensions"))
        if extensions is not None:
            for element in extensions:
                if element.tag in (f"{{{TPX_V1}}}TrackPointExtension", f"{{{TPX_V2}}}TrackPointExtension"):
                    namespace = element.tag[1:].partition("}")[0]
                    for child in element:
                        values[child.tag[len(namespace) + 2:]] = number(child.text)
        moment = datetime.datetime.fromisoformat(time.text.replace("Z", "+00:00")) if time is not None else None
        rows.append({"t": epoch_seconds(moment), "lat": float(trkpt.get("lat")), "lon": float(trkpt.get("lon")),
                     "ele": float(ele.text) if ele is not None else None,
                     "hr": values.get("hr"), "cad": values.get("cad"), "atemp": values.get("atemp"), "speed": values.get("speed")})
    name = root.find(f"{g('trk')}/{g('name')}")
    return rows, (name.text if name is not None else None)


def canonical_gpx_copy(path):
    """The file re-serialised by ElementTree with GPX as the default namespace: GPX elements
    lose their prefix, an xmlns attribute names the namespace, everything else is kept."""
    ET.register_namespace("gpxtpx", TPX_V2)
    ET.register_namespace("xsi", XSI_NS)
    root = ET.parse(path).getroot()
    for element in root.iter():
        if element.tag.startswith(f"{{{GPX_NS}}}"):
            element.tag = element.tag[len(GPX_NS) + 2:]
    root.set("xmlns", GPX_NS)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


# ---------------------------------------------------------------------------------------------
# Reading back: tcxreader (+ ElementTree for what tcxreader leaves out)
# ---------------------------------------------------------------------------------------------

def expected_from_tcx(path):
    exercise = TCXReader().read(str(path), only_gps=False)
    t = lambda name: f"{{{TCX_NS}}}{name}"
    root = ET.parse(path).getroot()
    activity = root.find(f"{t('Activities')}/{t('Activity')}")
    lap_elements = activity.findall(t("Lap"))

    def text(element, *names):
        for name in names:
            element = element.find(t(name)) if element is not None else None
        return element.text.strip() if element is not None and element.text is not None else None

    def value_or_none(element, name):
        found = text(element, name, "Value")
        return int(found) if found is not None else None

    laps = []
    for lap, element in zip(exercise.laps, lap_elements):
        laps.append({
            "startTime": epoch_seconds(datetime.datetime.fromisoformat(element.get("StartTime").replace("Z", "+00:00"))),
            "totalTimeSeconds": float(text(element, "TotalTimeSeconds")),
            "distanceMeters": lap.distance,
            "maximumSpeed": float(text(element, "MaximumSpeed")) if text(element, "MaximumSpeed") else None,
            "calories": lap.calories,
            "averageHeartRate": value_or_none(element, "AverageHeartRateBpm"),
            "maximumHeartRate": value_or_none(element, "MaximumHeartRateBpm"),
            "intensity": text(element, "Intensity"),
            "cadence": int(text(element, "Cadence")) if text(element, "Cadence") else None,
            "triggerMethod": text(element, "TriggerMethod"),
            "lx": lap.lx_ext,
            "trackpoints": len(lap.trackpoints),
            "tcxreaderComputed": {"firstTrackpointTime": epoch_seconds(lap.trackpoints[0].time),
                                  "hrAverage": lap.hr_avg, "hrMaximum": lap.hr_max, "hrMinimum": lap.hr_min},
        })
    points = [{
        "t": epoch_seconds(p.time), "lat": p.latitude, "lon": p.longitude, "ele": p.elevation, "dist": p.distance,
        "hr": p.hr_value, "cad": p.cadence, "speed": p.tpx_ext.get("Speed"), "watts": p.tpx_ext.get("Watts"),
    } for p in exercise.trackpoints]
    creator = activity.find(t("Creator"))
    version = creator.find(t("Version")) if creator is not None else None
    return {
        "file": path.name,
        "readBy": f"tcxreader (only_gps=False) for sport, laps' distance/calories/LX, totals, author and trackpoints; "
                  f"ElementTree for Id, lap StartTime, TotalTimeSeconds, MaximumSpeed, Average/MaximumHeartRateBpm, "
                  f"Intensity, Cadence, TriggerMethod and Creator",
        "sport": exercise.activity_type,
        "id": epoch_seconds(datetime.datetime.fromisoformat(text(activity, "Id").replace("Z", "+00:00"))),
        "lapCount": len(exercise.laps),
        "laps": laps,
        "totalDistanceMeters": exercise.distance,
        "totalCalories": exercise.calories,
        "creator": None if creator is None else {
            "type": creator.get(f"{{{XSI_NS}}}type"),
            "name": text(creator, "Name"),
            "unitId": int(text(creator, "UnitId")),
            "productId": int(text(creator, "ProductID")),
            "version": f"{text(version, 'VersionMajor')}.{text(version, 'VersionMinor')}",
        },
        "author": exercise.author.name if exercise.author else None,
        "pointCount": len(points),
        "pointsWithTime": sum(1 for p in points if p["t"] is not None),
        "pointsWithPosition": sum(1 for p in points if p["lat"] is not None and p["lon"] is not None),
        "start": points[0]["t"],
        "end": points[-1]["t"],
        "first": points[0],
        "last": points[-1],
        "heartRate": summary(points, "hr"),
        "cadence": summary(points, "cad"),
        "power": summary(points, "watts"),
        "points": points,
    }


# ---------------------------------------------------------------------------------------------

def dump(expected, path):
    """JSON with one point per line (small diffs, readable), everything else indented."""
    points = expected.pop("points")
    head = json.dumps(expected, indent=1, ensure_ascii=False)
    lines = ",\n".join(" " + json.dumps(p, separators=(",", ":")) for p in points)
    path.write_text(head[:-2] + ',\n "points": [\n' + lines + "\n ]\n}\n", encoding="utf-8")
    expected["points"] = points


def check(condition, message):
    if not condition:
        sys.exit(f"make_xml_fixtures: {message}")


def main():
    GPX_DIR.mkdir(parents=True, exist_ok=True)
    TCX_DIR.mkdir(parents=True, exist_ok=True)
    report = []

    for name, writer in [("garmin-connect.gpx", write_garmin_connect_gpx), ("strava.gpx", write_strava_gpx)]:
        path = GPX_DIR / name
        written = writer(path)
        expected = expected_from_gpx(path.read_text(encoding="utf-8"), name, read_as_is=True)
        check(expected["pointCount"] == written, f"gpxpy read {expected['pointCount']} points of {written} in {name}")
        direct, _ = direct_gpx_read(path)
        check(direct == expected["points"], f"gpxpy and ElementTree disagree on {name}")
        dump(expected, path.with_name(path.stem + ".expected.json"))
        report.append((name, expected))

    path = GPX_DIR / "v2-prefixed.gpx"
    written = write_v2_prefixed_gpx(path)
    as_is = gpxpy.parse(path.read_text(encoding="utf-8"))
    reads_as_is = sum(len(s.points) for t in as_is.tracks for s in t.segments) == written
    expected = expected_from_gpx(canonical_gpx_copy(path), path.name, read_as_is=reads_as_is)
    direct, direct_name = direct_gpx_read(path)
    check(expected["pointCount"] == written, f"gpxpy read {expected['pointCount']} points of {written} in the copy of v2-prefixed.gpx")
    check(direct == expected["points"], "gpxpy (on the copy) and ElementTree (on the file) disagree on v2-prefixed.gpx")
    check(direct_name == expected["name"], f"track name: {direct_name!r} vs {expected['name']!r}")
    dump(expected, path.with_name(path.stem + ".expected.json"))
    report.append((path.name, expected))

    for name, writer in [("garmin.tcx", write_garmin_tcx), ("indoor.tcx", write_indoor_tcx)]:
        path = TCX_DIR / name
        written = writer(path)
        expected = expected_from_tcx(path)
        check(expected["pointCount"] == written, f"tcxreader read {expected['pointCount']} trackpoints of {written} in {name}")
        dump(expected, path.with_name(path.stem + ".expected.json"))
        report.append((name, expected))

    for name, e in report:
        hr = e["heartRate"]
        print(f"{name}: {e['pointCount']} points ({e['pointsWithTime']} with a time), "
              f"{e['start']}–{e['end']}, heart rate {hr['count']} values, sum {hr['sum']}, {hr['min']}–{hr['max']} bpm")


if __name__ == "__main__":
    main()
