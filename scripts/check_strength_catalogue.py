#!/usr/bin/env python3
"""Validate the bundled strength catalogue (exercises.json and routines.json).

Usage: python3 scripts/check_strength_catalogue.py
Exits 0 and prints a one-line summary when both files are valid, otherwise
prints the problems found and exits 1. Standard library only.

Rules: at least 300 exercises and 30 in each of the six groups; unique ids, names and
aliases (compared as StrengthCatalogue.nameKey reads them); no id a user's own exercise
would take; the names in MUST_MATCH (Olympic lifts, Strong's and Hevy's defaults) found;
text licence and attribution on every exercise; a picture on every exercise, a plain file
name under images/, present, a well-formed SVG of at most 4 KB, with its licence; no picture
in images/ that no exercise uses. Prints how many exercises use each picture.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "Sources" / "HeartworkApp" / "Resources" / "strength"
EXERCISES = DIR / "exercises.json"
ROUTINES = DIR / "routines.json"

GROUPS = ["Chest", "Shoulders", "Arms", "Back", "Legs", "Abs"]
EQUIPMENT = {"barbell", "dumbbell", "kettlebell", "cable", "machine", "bodyweight",
             "band", "ez-bar", "smith-machine", "bench", "pull-up-bar", "trap-bar", "plate",
             "landmine", "medicine-ball"}
GOALS = ["WeightLoss", "MuscleMaintenance", "MassGain"]
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

MIN_EXERCISES = 300
MIN_PER_GROUP = 30
IMAGES = DIR / "images"
MAX_IMAGE_BYTES = 4 * 1024
IMAGE_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.svg$")
# Ids a user's own exercises take (StrengthCatalogue.customPrefix) and the old imports' ids.
RESERVED_PREFIXES = ("custom-", "other")
# Names lifters log (as Strong and Hevy write them) that must land on a catalogue exercise,
# by its name or an alias (issue 25: the Olympic lifts and their variants, front squat, good
# morning, the apps' defaults).
MUST_MATCH = [
    "Snatch (Barbell)", "Power Snatch", "Hang Snatch", "Hang Power Snatch", "Snatch Pull (Barbell)",
    "Snatch High Pull", "Muscle Snatch", "Overhead Squat (Barbell)", "Snatch Balance",
    "Clean (Barbell)", "Power Clean", "Hang Clean", "Hang Power Clean", "Clean Pull", "Clean High Pull",
    "Muscle Clean", "Clean and Jerk", "Clean and Jerk (Barbell)", "Split Jerk (Barbell)", "Push Jerk",
    "Push Press", "Front Squat (Barbell)", "Good Morning (Barbell)",
    "Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)",
    "Lat Pulldown (Cable)", "Bicep Curl (Dumbbell)", "Romanian Deadlift (Barbell)",
    "Bent Over Row (Barbell)", "Pull Up", "Chin Up", "Incline Bench Press (Barbell)",
    "Incline Bench Press (Dumbbell)", "Bench Press (Dumbbell)", "Seated Row (Cable)",
    "Triceps Pushdown (Cable - Straight Bar)", "Skullcrusher (Barbell)", "Lateral Raise (Dumbbell)",
    "Leg Press", "Leg Extension (Machine)", "Lying Leg Curl (Machine)", "Seated Leg Curl (Machine)",
    "Hip Thrust (Barbell)", "Standing Calf Raise (Machine)", "Shrug (Barbell)", "Face Pull (Cable)",
    "Hammer Curl (Dumbbell)", "Sumo Deadlift (Barbell)", "Trap Bar Deadlift", "Chest Dip",
    "Push Up", "Plank", "Hanging Leg Raise", "Ab Wheel", "Cable Crunch", "Russian Twist",
    "Bulgarian Split Squat", "Goblet Squat (Kettlebell)", "Kettlebell Swing", "Thruster (Barbell)",
    "Shoulder Press (Dumbbell)", "Arnold Press (Dumbbell)", "Preacher Curl (Barbell)",
    "Chest Fly (Dumbbell)", "Butterfly (Pec Deck)", "Seated Cable Row - V Grip (Cable)",
]
MIN_UNLOADED = 18
MIN_ROUTINES = 16
MIN_LOADED_ROUTINES_PER_GOAL = 3  # at least three non-bodyweight routines per goal
MIN_BODYWEIGHT_ROUTINES = 3

errors = []


def fail(msg):
    errors.append(msg)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        print(f"FAIL: {path} not found", file=sys.stderr)
        sys.exit(1)
    except json.JSONDecodeError as e:
        print(f"FAIL: {path} is not valid JSON: {e}", file=sys.stderr)
        sys.exit(1)


def name_key(name):
    """StrengthCatalogue.nameKey: the lowercased words, a final s dropped, sorted."""
    words, current = [], ""
    for c in name.lower():
        if c.isalnum():
            current += c
        elif current:
            words.append(current)
            current = ""
    if current:
        words.append(current)
    words = [w[:-1] if len(w) >= 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]
    return " ".join(sorted(words))


def nonempty_str(v):
    return isinstance(v, str) and v.strip() != ""


def check_picture(path):
    """None when the file is a small, well-formed SVG; otherwise what is wrong."""
    if not path.is_file():
        return "is missing"
    size = path.stat().st_size
    if size > MAX_IMAGE_BYTES:
        return f"is {size} bytes, at most {MAX_IMAGE_BYTES}"
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as err:
        return f"is not well-formed XML: {err}"
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        return f"is not an SVG (root element {root.tag})"
    if root.get("viewBox") != "0 0 64 64":
        return "needs viewBox 0 0 64 64"
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("script", "foreignObject", "image", "text") or any(k.startswith("on") for k in el.attrib):
            return f"has a <{tag}> or an event attribute (pictures are plain line drawings)"
    return None


def main():
    ex_doc = load(EXERCISES)
    rt_doc = load(ROUTINES)

    # ---- exercises ----
    if not isinstance(ex_doc, dict) or not isinstance(ex_doc.get("exercises"), list):
        print("FAIL: exercises.json must be an object with an 'exercises' array", file=sys.stderr)
        sys.exit(1)
    for key in ("licence", "attribution"):
        if not nonempty_str(ex_doc.get(key)):
            fail(f"exercises.json: top-level '{key}' missing or empty")
    exercises = ex_doc["exercises"]
    if len(exercises) < MIN_EXERCISES:
        fail(f"only {len(exercises)} exercises, need at least {MIN_EXERCISES}")

    by_id = {}
    names = set()
    keys = {}  # name key -> id, for names and aliases alike
    per_group = Counter()
    unloaded = 0
    for i, e in enumerate(exercises):
        where = f"exercise #{i} ({e.get('id', '?') if isinstance(e, dict) else '?'})"
        if not isinstance(e, dict):
            fail(f"{where}: not an object")
            continue
        eid = e.get("id")
        if not isinstance(eid, str) or not SLUG.match(eid):
            fail(f"{where}: id must be a lowercase slug [a-z0-9-]")
        elif eid in by_id:
            fail(f"{where}: duplicate id")
        elif eid.startswith(RESERVED_PREFIXES):
            fail(f"{where}: ids starting {RESERVED_PREFIXES} are for users' own exercises")
        else:
            by_id[eid] = e
        name = e.get("name")
        if not nonempty_str(name):
            fail(f"{where}: name missing or empty")
        elif name in names:
            fail(f"{where}: duplicate name '{name}'")
        else:
            names.add(name)
            k = name_key(name)
            if k in keys:
                fail(f"{where}: name '{name}' reads the same as {keys[k]} (word order and case are ignored)")
            keys[k] = eid
        if e.get("group") not in GROUPS:
            fail(f"{where}: group '{e.get('group')}' not one of {GROUPS}")
        else:
            per_group[e["group"]] += 1
        if not nonempty_str(e.get("primary")):
            fail(f"{where}: primary muscle missing or empty")
        sec = e.get("secondary")
        if not isinstance(sec, list) or len(sec) > 4 or not all(nonempty_str(s) for s in sec):
            fail(f"{where}: secondary must be a list of 0-4 non-empty strings")
        if e.get("equipment") not in EQUIPMENT:
            fail(f"{where}: equipment '{e.get('equipment')}' not allowed")
        if not isinstance(e.get("loaded"), bool):
            fail(f"{where}: loaded must be true or false")
        elif e["loaded"] is False:
            unloaded += 1
        for key in ("instructions", "licence", "attribution"):
            if not nonempty_str(e.get(key)):
                fail(f"{where}: '{key}' missing or empty")

    # Aliases: the names other apps write for an exercise. Each must read differently from
    # every name and every other alias, or matching would be ambiguous.
    for i, e in enumerate(exercises):
        if not isinstance(e, dict) or "aliases" not in e:
            continue
        where = f"exercise #{i} ({e.get('id', '?')})"
        aliases = e["aliases"]
        if not isinstance(aliases, list) or not aliases or not all(nonempty_str(a) for a in aliases):
            fail(f"{where}: aliases must be a non-empty list of non-empty strings (or left out)")
            continue
        for a in aliases:
            k = name_key(a)
            if k in keys:
                fail(f"{where}: alias '{a}' reads the same as {keys[k]}")
            else:
                keys[k] = f"{e.get('id')} (alias)"
    for wanted in MUST_MATCH:
        if name_key(wanted) not in keys:
            fail(f"'{wanted}' (as Strong or Hevy write it) matches no exercise name or alias")

    # Pictures (issue 25: "every picture present and small"): our own CC0 line drawings, made
    # by scripts/make_exercise_pictograms.py. Every exercise names one by its plain file name.
    per_image = Counter()
    checked = {}
    for i, e in enumerate(exercises):
        if not isinstance(e, dict):
            continue
        where = f"exercise #{i} ({e.get('id', '?')})"
        name = e.get("image")
        if not isinstance(name, str) or not IMAGE_NAME.match(name):
            fail(f"{where}: 'image' must name a picture file like 'squat.svg' (got {name!r})")
            continue
        per_image[name] += 1
        if not nonempty_str(e.get("imageLicence")):
            fail(f"{where}: a picture needs its imageLicence")
        if name not in checked:
            checked[name] = check_picture(IMAGES / name)
        if checked[name]:
            fail(f"{where}: picture {name} {checked[name]}")
    on_disk = sorted(p.name for p in IMAGES.glob("*")) if IMAGES.is_dir() else []
    for unused in sorted(set(on_disk) - set(per_image)):
        fail(f"images/{unused} is used by no exercise")

    for g in GROUPS:
        if per_group[g] < MIN_PER_GROUP:
            fail(f"group {g} has {per_group[g]} exercises, need at least {MIN_PER_GROUP}")
    if unloaded < MIN_UNLOADED:
        fail(f"only {unloaded} exercises with loaded=false, need at least {MIN_UNLOADED}")

    # ---- routines ----
    if not isinstance(rt_doc, dict) or not isinstance(rt_doc.get("routines"), list):
        print("FAIL: routines.json must be an object with a 'routines' array", file=sys.stderr)
        sys.exit(1)
    if not nonempty_str(rt_doc.get("licence")):
        fail("routines.json: top-level 'licence' missing or empty")
    routines = rt_doc["routines"]
    if len(routines) < MIN_ROUTINES:
        fail(f"only {len(routines)} routines, need at least {MIN_ROUTINES}")

    rids, rnames = set(), set()
    loaded_per_goal = Counter()
    bw_routines = 0
    for i, r in enumerate(routines):
        where = f"routine #{i} ({r.get('id', '?') if isinstance(r, dict) else '?'})"
        if not isinstance(r, dict):
            fail(f"{where}: not an object")
            continue
        rid = r.get("id")
        if not isinstance(rid, str) or not SLUG.match(rid):
            fail(f"{where}: id must be a lowercase slug [a-z0-9-]")
        elif rid in rids:
            fail(f"{where}: duplicate routine id")
        else:
            rids.add(rid)
        rname = r.get("name")
        if not nonempty_str(rname):
            fail(f"{where}: name missing or empty")
        elif rname in rnames:
            fail(f"{where}: duplicate routine name '{rname}'")
        else:
            rnames.add(rname)
        goal = r.get("goal")
        if goal not in GOALS:
            fail(f"{where}: goal '{goal}' not one of {GOALS}")
        if not nonempty_str(r.get("description")):
            fail(f"{where}: description missing or empty")
        bw = r.get("bodyweight")
        if not isinstance(bw, bool):
            fail(f"{where}: bodyweight must be true or false")
            continue
        ex = r.get("exercises")
        if not isinstance(ex, list) or not (4 <= len(ex) <= 8):
            fail(f"{where}: must list 4-8 exercise ids")
            ex = ex if isinstance(ex, list) else []
        known = []
        for xid in ex:
            if xid not in by_id:
                fail(f"{where}: unknown exercise id '{xid}'")
            else:
                known.append(by_id[xid])
        if len(set(ex)) != len(ex):
            fail(f"{where}: repeats an exercise id")
        if bw:
            bw_routines += 1
            for e in known:
                if e.get("loaded") is not False:
                    fail(f"{where}: bodyweight routine contains loaded exercise '{e['id']}'")
        else:
            if goal in GOALS:
                loaded_per_goal[goal] += 1
            if known and len(known) == len(ex) and all(e.get("loaded") is False for e in known):
                fail(f"{where}: every exercise is unloaded, so bodyweight must be true")

    for g in GOALS:
        if loaded_per_goal[g] < MIN_LOADED_ROUTINES_PER_GOAL:
            fail(f"goal {g} has {loaded_per_goal[g]} non-bodyweight routines, "
                 f"need at least {MIN_LOADED_ROUTINES_PER_GOAL}")
    if bw_routines < MIN_BODYWEIGHT_ROUTINES:
        fail(f"only {bw_routines} bodyweight routines, need at least {MIN_BODYWEIGHT_ROUTINES}")

    if errors:
        print(f"FAIL: {len(errors)} problem(s) in the strength catalogue:", file=sys.stderr)
        for msg in errors:
            print(f"  - {msg}", file=sys.stderr)
        sys.exit(1)

    print(f"{len(per_image)} pictures: " + ", ".join(f"{n.removesuffix('.svg')} {c}" for n, c in per_image.most_common()))
    groups = ", ".join(f"{g} {per_group[g]}" for g in GROUPS)
    goals = ", ".join(f"{g} {loaded_per_goal[g]}" for g in GOALS)
    print(f"{len(exercises)} exercises ({groups}; {unloaded} bodyweight), "
          f"{len(routines)} routines ({goals} loaded; {bw_routines} bodyweight): ok")


if __name__ == "__main__":
    main()
