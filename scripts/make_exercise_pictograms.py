#!/usr/bin/env python3
"""Draw the strength catalogue's exercise pictures and name one on every exercise.

Usage: python3 scripts/make_exercise_pictograms.py [--sheet /tmp/sheet.html]

Writes one small line pictogram (SVG, 64x64 viewBox, stroke="currentColor" so it follows the
page's colour and dark mode) per movement pattern into
Sources/HeartworkApp/Resources/strength/images/, then gives every exercise in exercises.json
its "image" and "imageLicence" by the rules in PATTERN_RULES (first match wins: id keywords,
then group and equipment). The drawings are our own, released under CC0-1.0 (docs/STRENGTH.md
says why: free-exercise-db's public-domain photos cannot be fetched by our build machines).
With --sheet, also writes an HTML contact sheet of every picture (light and dark) to check
by eye. Standard library only; the output is deterministic.

A figure is posed by its key points (hip, ankles, hands) and a torso angle; knees and elbows
are placed by two-link inverse kinematics, so limbs keep their lengths. Angles are degrees
with 0 pointing right and 90 pointing down (SVG's y grows downwards); side views face right.
"""
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "Sources" / "HeartworkApp" / "Resources" / "strength"
IMAGES = DIR / "images"
EXERCISES = DIR / "exercises.json"
SWIFT = ROOT / "Sources" / "HeartworkApp" / "Strength" / "StrengthPictures.swift"
LICENCE = "CC0-1.0, drawn for Heartwork (scripts/make_exercise_pictograms.py)"

TORSO, THIGH, SHIN, UPPER, FORE, NECK, HEAD_R = 18.0, 12.5, 12.5, 10.0, 9.5, 6.8, 4.6
BODY_W, TOOL_W, THIN_W = 3.6, 2.4, 1.5
GROUND = 57.0


def d(angle, length=1.0):
    a = math.radians(angle)
    return (math.cos(a) * length, math.sin(a) * length)


def add(p, v):
    return (p[0] + v[0], p[1] + v[1])


def ik(a, b, l1, l2, bend):
    """The joint between a and b on limbs l1, l2; bend=+1 or -1 picks the side."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    dist = math.hypot(dx, dy)
    if dist >= l1 + l2 - 0.01:
        t = l1 / (l1 + l2)
        return (a[0] + dx * t, a[1] + dy * t)
    dist = max(dist, abs(l1 - l2) + 0.01)
    x = (l1 * l1 - l2 * l2 + dist * dist) / (2 * dist)
    h = math.sqrt(max(l1 * l1 - x * x, 0))
    ux, uy = dx / dist, dy / dist
    return (a[0] + ux * x - uy * h * bend, a[1] + uy * x + ux * h * bend)


class Picture:
    """Strokes and shapes in a 64x64 drawing, fitted into the box when written."""

    def __init__(self, ground=True, lift=0.0):
        self.lift = lift
        self.lines = []  # (width, [points], dashed)
        self.circles = []  # (centre, r, filled, width)
        self.ground = ground

    def line(self, *pts, w=BODY_W, dash=False):
        self.lines.append((w, list(pts), dash))

    def circle(self, c, r, filled=True, w=TOOL_W):
        self.circles.append((c, r, filled, w))

    # --- people ---
    def side(self, hip, torso, legs=(), arms=(), head=None, neck=NECK):
        """A side-view figure. legs: (ankle, bend[, foot angle]); arms: (hand, bend) or
        ((elbow, hand),) given outright. Returns the neck (shoulder) point."""
        sh = add(hip, d(torso, TORSO))
        hd = add(sh, d(torso if head is None else head, neck))
        self.circle(hd, HEAD_R)
        self.line(hip, sh)
        for leg in legs:
            ankle, bend = leg[0], leg[1]
            knee = ik(hip, ankle, THIGH, SHIN, bend)
            pts = [hip, knee, ankle]
            if len(leg) > 2 and leg[2] is not None:
                pts.append(add(ankle, d(leg[2], 4.2)))
            self.line(*pts)
        for arm in arms:
            if isinstance(arm[0][0], tuple):
                self.line(sh, *arm[0])
            else:
                hand, bend = arm
                self.line(sh, ik(sh, hand, UPPER, FORE, bend), hand)
        return sh

    def front(self, hip, legs, arms, shoulders=6.5, hips=3.2, neck_y=None, head_dy=0.0):
        """A front-view figure: legs (ankle, bend) from left and right hip; arms (hand, bend)
        from left and right shoulder; a short shoulder line."""
        x, y = hip
        ny = y - TORSO if neck_y is None else neck_y
        self.circle((x, ny - NECK + head_dy), HEAD_R)
        self.line((x, y), (x, ny))
        ls, rs = (x - shoulders, ny + 1.5), (x + shoulders, ny + 1.5)
        self.line(ls, (x, ny), rs)
        for (ankle, bend, *foot), hx in zip(legs, (x - hips, x + hips)):
            hp = (hx, y)
            knee = ik(hp, ankle, THIGH, SHIN, bend)
            pts = [(x, y), hp, knee, ankle]
            if foot:
                pts.append(add(ankle, d(foot[0], 3.5)))
            self.line(*pts)
        for (hand, bend), s in zip(arms, (ls, rs)):
            self.line(s, ik(s, hand, UPPER, FORE, bend), hand)

    # --- implements ---
    def plate(self, c, r=5.6):
        """A barbell seen end-on: its plate and the bar's end."""
        self.circle(c, r, filled=False)
        self.circle(c, 1.3)

    def bar(self, y, x0, x1, plates=(), ph=6.0):
        """A barbell seen from the front: the bar, plates at the given x."""
        self.line((x0, y), (x1, y), w=TOOL_W)
        for px in plates:
            self.line((px, y - ph), (px, y + ph), w=3.6)

    def dumbbell(self, c, r=3.0):
        self.circle(c, r)

    def dumbbell_long(self, c, angle):
        """A dumbbell seen from its side: the handle and a plate at each end."""
        a, b = add(c, d(angle, 3.6)), add(c, d(angle + 180, 3.6))
        self.line(a, b, w=TOOL_W)
        self.circle(a, 2.3)
        self.circle(b, 2.3)

    def kettlebell(self, hand):
        x, y = hand
        self.circle((x, y + 5.2), 3.6)
        self.line((x - 2.2, y + 2.5), (x, y), (x + 2.2, y + 2.5), w=1.8)

    def bench(self, x0, x1, y, legs=None):
        self.line((x0, y), (x1, y), w=3.0)
        for lx in legs if legs is not None else (x0 + 3, x1 - 3):
            self.line((lx, y), (lx, GROUND), w=THIN_W)

    def cable(self, a, b):
        self.line(a, b, w=THIN_W)
        self.circle(b, 2.2, filled=False, w=THIN_W)

    # --- output ---
    def svg(self):
        xs, ys = [], []
        for w, pts, _ in self.lines:
            for x, y in pts:
                xs += [x - w / 2, x + w / 2]
                ys += [y - w / 2, y + w / 2]
        for (x, y), r, filled, w in self.circles:
            e = r + (0 if filled else w / 2)
            xs += [x - e, x + e]
            ys += [y - e, y + e]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        box_bottom = 61.5 if self.ground else 62.0
        avail_w, avail_h = 60.0, box_bottom - 2.0 - (2.4 + self.lift if self.ground else 0)
        # Fill the box: a crouched or lying figure is drawn up to 1.3 times larger, so each
        # reads at 48 px; the strokes keep their width.
        s = min(1.3, avail_w / (x1 - x0), avail_h / (y1 - y0))
        ox = 32 - (x0 + x1) / 2 * s
        oy = (box_bottom - 2.4 - self.lift) - y1 * s if self.ground else 32 - (y0 + y1) / 2 * s

        def f(v):
            t = f"{v:.1f}".rstrip("0").rstrip(".")
            return "0" if t in ("-0", "") else t

        def pt(p):
            return f"{f(p[0] * s + ox)} {f(p[1] * s + oy)}"

        groups = {}
        for w, pts, dash in self.lines:
            groups.setdefault((w, dash), []).append("M" + " ".join(pt(p) for p in pts))
        out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" fill="none" '
               'stroke="currentColor" stroke-linecap="round" stroke-linejoin="round">']
        for (w, dash), ds in groups.items():
            extra = ' stroke-dasharray="1 4"' if dash else ""
            out.append(f'<path stroke-width="{f(w)}"{extra} d="{"".join(ds)}"/>')
        for (x, y), r, filled, w in self.circles:
            c = f'cx="{f(x * s + ox)}" cy="{f(y * s + oy)}" r="{f(r * s)}"'
            if filled:
                out.append(f'<circle {c} fill="currentColor" stroke="none"/>')
            else:
                out.append(f'<circle {c} stroke-width="{f(w)}"/>')
        if self.ground:
            gy = box_bottom
            out.append(f'<path stroke-width="1.2" opacity=".45" d="M{f(max(2, x0 * s + ox - 3))} {f(gy)}H{f(min(62, x1 * s + ox + 3))}"/>')
        out.append("</svg>\n")
        return "".join(out)


# ---------------------------------------------------------------- the pictures
PICTURES = {}
G = GROUND
LEG, ARM = THIGH + SHIN, UPPER + FORE


def picture(name, alt):
    def wrap(fn):
        PICTURES[name] = (fn, alt)
        return fn
    return wrap


def standing_hip(x, dx=0.0):
    """The hip above an ankle dx to its side on the ground, the leg straight."""
    return (x, G - math.sqrt(LEG * LEG - dx * dx))


def bent(a, b, l1, l2, towards):
    """ik() choosing the joint nearer a direction: 'up', 'down', 'left' or 'right'."""
    j1, j2 = ik(a, b, l1, l2, 1), ik(a, b, l1, l2, -1)
    key = {"up": lambda p: p[1], "down": lambda p: -p[1], "left": lambda p: p[0], "right": lambda p: -p[0]}[towards]
    return min(j1, j2, key=key)


@picture("squat", "Back squat")
def squat():
    p = Picture()
    sh = p.side((22, 43.5), -50, legs=[((34, G), -1, 0)], head=-42)
    bar = add(add(sh, d(130, 3.5)), d(-140, 5.6))
    p.line(sh, add(sh, d(160, 6)), bar)
    p.plate(bar, 5.2)
    return p


@picture("front-squat", "Front squat")
def front_squat():
    p = Picture()
    sh = p.side((23, 44), -68, legs=[((34, G), -1, 0)], head=-82)
    bar = add(add(sh, d(112, 3)), d(22, 5.2))
    p.line(sh, add(sh, d(-8, UPPER)), add(bar, (1.5, 0)))
    p.plate(bar, 5.2)
    return p


@picture("bodyweight-squat", "Bodyweight squat")
def bodyweight_squat():
    p = Picture()
    sh = p.side((22, 43.5), -58, legs=[((34, G), -1, 0)], head=-75)
    p.line(sh, add(sh, d(-4, ARM)))
    return p


@picture("lunge", "Lunge")
def lunge():
    p = Picture()
    hip = (30, 44.3)
    sh = p.side(hip, -90, legs=[((42.5, G), -1, 0)])
    p.line(hip, (24.5, 55.3), (13, 51.5), add((13, 51.5), d(62, 5)))
    hand = add(sh, d(84, ARM - 2))
    p.line(sh, hand)
    p.dumbbell(add(hand, (0, 1.5)))
    return p


@picture("deadlift", "Deadlift")
def deadlift():
    p = Picture()
    bar = (36, G - 5.6)
    sh = p.side((20, 37), -22, legs=[((33, G), -1, 0)], head=-30)
    p.line(sh, bar)
    p.plate(bar)
    return p


@picture("romanian-deadlift", "Romanian deadlift")
def romanian_deadlift():
    p = Picture()
    sh = p.side((22, 34.5), -9, legs=[((36, G), -1, 0)], head=-14)
    bar = add(sh, d(94, 15))
    p.line(sh, bar)
    p.plate(bar, 5.2)
    return p


@picture("good-morning", "Good morning")
def good_morning():
    p = Picture()
    sh = p.side((22, 34.5), -6, legs=[((36, G), -1, 0)], head=-6)
    bar = add(add(sh, d(174, 6)), d(-96, 5.4))
    p.line(sh, add(sh, d(150, 5)), bar)
    p.plate(bar, 5.2)
    return p


@picture("hip-thrust", "Hip thrust")
def hip_thrust():
    p = Picture()
    p.bench(4, 20, 47.5, legs=(7, 17))
    sh = p.side((35, 42), 178, legs=[((47, G), 1, 0)], head=196)
    bar = (35.5, 36.2)
    p.line(sh, ik(sh, bar, UPPER, FORE, 1), bar)
    p.plate(bar)
    return p


@picture("leg-press", "Leg press")
def leg_press():
    p = Picture()
    hip = (22, 49)
    p.line((3, 37), (18, 52.5), (27, 52.5), w=3.0)
    p.line((20, 52.5), (20, G), w=THIN_W)
    p.side(hip, -142, legs=[((37, 33), 1)], head=-120)
    p.line((34, 27), (42, 37), w=3.0)
    p.plate((44, 27.5), 4.6)
    p.line((45, 40), (60, 26), w=THIN_W)
    p.line((35, G), (58, G), w=THIN_W)
    return p


@picture("leg-machine", "Leg extension machine")
def leg_machine():
    p = Picture()
    p.line((19, 24), (21, 46), (41, 46), w=3.0)
    p.line((30, 46), (30, G), w=THIN_W)
    sh = p.side((27, 43), -94, legs=[((51, 38.5), -1, -60)])
    p.line(sh, ik(sh, (33, 46), UPPER, FORE, -1), (33, 46))
    p.circle((50, 34.8), 2.4)
    return p


@picture("calf-raise", "Calf raise")
def calf_raise():
    p = Picture()
    top = G - 4.5
    p.line((28.5, G), (28.5, top), (42, top), (42, G), w=TOOL_W)
    ankle = (28.5, top - 4.4)
    hip = (28.5, ankle[1] - LEG)
    sh = p.side(hip, -90, legs=[(ankle, 1, 58)])
    p.line(sh, add(sh, d(84, ARM - 1)))
    p.line((21.5, top), (21.5, top - 12), w=1.8)
    p.line((19, top - 9.5), (21.5, top - 12), (24, top - 9.5), w=1.8)
    return p


@picture("bench-press", "Bench press")
def bench_press():
    p = Picture()
    p.bench(10, 40, 46.3, legs=(13, 37))
    sh = p.side((36, 42.5), 180, legs=[((50, G), 1, 0)], head=183)
    bar = add(sh, (1, -ARM))
    p.line(sh, bar)
    p.plate(bar)
    return p


@picture("incline-press", "Incline press")
def incline_press():
    p = Picture()
    p.line((35, 49.5), (18, 34), w=3.0)
    p.line((31, 49.5), (39, 49.5), w=3.0)
    p.line((33, 49.5), (33, G), w=THIN_W)
    sh = p.side((33, 46), -140, legs=[((45, G), -1, 0)], head=-128)
    bar = add(sh, d(-72, ARM))
    p.line(sh, bar)
    p.plate(bar)
    return p


@picture("push-up", "Push-up")
def push_up():
    p = Picture()
    sh = (44, G - ARM + 0.5)
    ang = math.degrees(math.atan2(G - 1.5 - sh[1], 8 - sh[0]))
    hip = add(sh, d(ang, TORSO))
    p.side(hip, ang + 180, legs=[(add(hip, d(ang, LEG)), 1, 90)], head=ang + 180 + 8)
    p.line(sh, (44.5, G))
    return p


@picture("dip", "Dip")
def dip():
    p = Picture(lift=6)
    y = 34
    p.line((10, y), (21, y), w=3.0)
    p.line((43, y), (54, y), w=3.0)
    p.line((12, y), (12, 64), w=THIN_W)
    p.line((52, y), (52, 64), w=THIN_W)
    hip = (32, 40)
    ay = hip[1] + math.sqrt(LEG * LEG - 1.7 ** 2)
    p.front(hip, legs=[((30.5, ay), 1), ((33.5, ay), -1)], arms=[((19, y), 1), ((45, y), -1)], neck_y=22)
    return p


@picture("overhead-press", "Overhead press")
def overhead_press():
    p = Picture()
    hip = standing_hip(32, 1.0)
    p.front(hip, legs=[((28.2, G), 1, 180), ((35.8, G), -1, 0)],
            arms=[(add((25.5, hip[1] - TORSO + 1.5), d(-101, ARM)), 1), (add((38.5, hip[1] - TORSO + 1.5), d(-79, ARM)), -1)])
    y = hip[1] - TORSO + 1.5 + ARM * math.sin(math.radians(-79))
    p.bar(y, 6, 58, plates=(11, 53), ph=5.5)
    return p


@picture("lateral-raise", "Lateral raise")
def lateral_raise():
    p = Picture()
    hip = standing_hip(32, 0.2)
    s = hip[1] - TORSO + 1.5
    l, r = add((25.5, s), d(176, ARM)), add((38.5, s), d(4, ARM))
    p.front(hip, legs=[((29, G), 1, 180), ((35, G), -1, 0)], arms=[(l, 1), (r, -1)])
    p.dumbbell(l)
    p.dumbbell(r)
    return p


@picture("front-raise", "Front raise")
def front_raise():
    p = Picture()
    hip = standing_hip(30, 1.5)
    sh = p.side(hip, -90, legs=[((28.5, G), 1, 0), ((31.5, G), 1, 0)])
    hand = add(sh, d(-3, ARM))
    p.line(sh, hand)
    p.dumbbell(hand)
    return p


@picture("fly", "Chest fly")
def fly():
    p = Picture()
    hip = standing_hip(32, 0.8)
    p.front(hip, legs=[((28.4, G), 1, 180), ((35.6, G), -1, 0)], arms=[((14, hip[1] - 8), -1), ((50, hip[1] - 8), 1)])
    y = hip[1] - 8
    p.cable((14, y), (4.5, 6))
    p.cable((50, y), (59.5, 6))
    p.line((12.5, y + 2), (15.5, y - 2), w=TOOL_W)
    p.line((51.5, y + 2), (48.5, y - 2), w=TOOL_W)
    return p


@picture("row", "Bent-over row")
def row():
    p = Picture()
    hip = (22, 36)
    sh = p.side(hip, -18, legs=[((35, G), -1, 0)], head=-24)
    bar = add(add(hip, d(-18, 11)), d(72, 8.5))
    p.line(sh, bent(sh, bar, UPPER, FORE, "up"), bar)
    p.plate(bar, 5.2)
    return p


@picture("cable-row", "Seated cable row")
def cable_row():
    p = Picture()
    p.line((8, 50), (26, 50), w=3.0)
    p.line((17, 50), (17, G), w=THIN_W)
    sh = p.side((18, 46.5), -98, legs=[((42, 47), -1, -80)])
    hand = (28, 39)
    p.line(sh, ik(sh, hand, UPPER, FORE, 1), hand)
    p.line((45, 40), (45, 52), w=3.0)
    p.line((28, 36), (28, 42), w=TOOL_W)
    p.cable((28, 39), (57, 47))
    p.line((60, 20), (60, G), w=THIN_W)
    return p


@picture("pull-up", "Pull-up")
def pull_up():
    p = Picture(ground=False)
    p.line((6, 12), (58, 12), w=3.0)
    hy = 34.5
    p.front((32, hy), legs=[((30.6, hy + math.sqrt(LEG * LEG - 1.8 ** 2)), 1), ((33.4, hy + math.sqrt(LEG * LEG - 1.8 ** 2)), -1)],
            arms=[((20, 12), -1), ((44, 12), 1)], head_dy=-0.5)
    return p


@picture("lat-pulldown", "Lat pulldown")
def lat_pulldown():
    p = Picture()
    p.line((9, 17), (14, 13), (50, 13), (55, 17), w=TOOL_W)
    p.line((32, 13), (32, 3.5), w=THIN_W)
    p.circle((32, 3), 2.2, filled=False, w=THIN_W)
    hip = (32, 44)
    p.front(hip, legs=[], arms=[((17, 13), -1), ((47, 13), 1)])
    p.line((28.8, 44), (21, 46.5), (21, G))
    p.line((35.2, 44), (43, 46.5), (43, G))
    p.line((26, 46.5), (38, 46.5), w=3.0)
    p.line((32, 46.5), (32, G), w=THIN_W)
    return p


@picture("curl", "Biceps curl")
def curl():
    p = Picture()
    hip = standing_hip(30, 1.5)
    sh = p.side(hip, -90, legs=[((28.5, G), 1, 0), ((31.5, G), 1, 0)])
    elbow = add(sh, d(88, UPPER))
    hand = add(elbow, d(-28, FORE))
    p.line(sh, elbow, hand)
    p.dumbbell(hand)
    return p


@picture("triceps-pushdown", "Triceps pushdown")
def triceps_pushdown():
    p = Picture()
    hip = standing_hip(28, 1.5)
    sh = p.side(hip, -84, legs=[((26.5, G), 1, 0), ((29.5, G), 1, 0)], head=-80)
    elbow = add(sh, d(92, UPPER))
    hand = add(elbow, d(68, FORE))
    p.line(sh, elbow, hand)
    p.line(add(hand, (-2, 0.5)), add(hand, (3, -0.5)), w=TOOL_W)
    p.cable(hand, (44, 4))
    return p


@picture("triceps-extension", "Overhead triceps extension")
def triceps_extension():
    p = Picture()
    hip = standing_hip(31, 1.5)
    sh = p.side(hip, -90, legs=[((29.5, G), 1, 0), ((32.5, G), 1, 0)], head=-45)
    elbow = add(sh, d(-100, UPPER))
    hand = add(elbow, d(150, FORE))
    p.line(sh, elbow, hand)
    p.dumbbell_long(add(hand, (-1, 0)), 90)
    return p


@picture("shrug", "Shrug")
def shrug():
    p = Picture()
    hip = standing_hip(32, 0.2)
    p.front(hip, legs=[((29, G), 1, 180), ((35, G), -1, 0)],
            arms=[((22.5, hip[1] + 1.5), 1), ((41.5, hip[1] + 1.5), -1)], neck_y=hip[1] - 16.5, head_dy=1.8, shoulders=7)
    p.bar(hip[1] + 1.5, 9, 55, plates=(13, 51))
    y = hip[1] - 19
    p.line((20, y), (22.5, y - 3), (25, y), w=1.8)
    p.line((39, y), (41.5, y - 3), (44, y), w=1.8)
    return p


@picture("back-extension", "Back extension")
def back_extension():
    p = Picture()
    hip = (27, 37)
    ankle = add(hip, d(135, LEG))
    p.line((29.5, 42.5), (29.5, G), w=THIN_W)
    p.line((7, G), (52, G), w=THIN_W)
    p.line((26.5, 42.8), (32.5, 36.8), w=3.6)
    p.line(ankle, add(ankle, d(45, 4.2)), w=BODY_W)
    p.side(hip, -45, legs=[(ankle, 1)], head=-45)
    p.circle(add(ankle, d(-45, 3.6)), 2.2)
    return p


@picture("snatch", "Snatch / overhead squat")
def snatch():
    p = Picture()
    sh = p.side((22, 44), -70, legs=[((33, G), -1, 0)], head=-50)
    bar = add(sh, d(-101, ARM))
    p.line(sh, bar)
    p.plate(bar)
    return p


@picture("clean", "Clean")
def clean():
    p = Picture()
    sh = p.side((25, 37), -78, legs=[((33, G), -1, 0)], head=-88)
    bar = add(add(sh, d(102, 3)), d(12, 5.2))
    p.line(sh, add(sh, d(-10, UPPER)), add(bar, (1.5, 0)))
    p.plate(bar, 5.2)
    return p


@picture("jerk", "Jerk")
def jerk():
    p = Picture()
    sh = p.side((31, 36), -90, legs=[((44, G), -1, 0), ((15, G - 1), 1, 20)], head=-66)
    bar = add(sh, d(-97, ARM))
    p.line(sh, bar)
    p.plate(bar)
    return p


@picture("pull", "High pull")
def high_pull():
    p = Picture()
    hip = standing_hip(32, 0.8)
    ny = hip[1] - TORSO
    p.front(hip, legs=[((28.4, G), 1, 180), ((35.6, G), -1, 0)], arms=[])
    y = ny + 9
    for sx, ex, hx in ((25.5, 16.5, 26), (38.5, 47.5, 38)):
        p.line((sx, ny + 1.5), (ex, ny - 4.5), (hx, y))
    p.bar(y, 8, 56, plates=(12, 52), ph=5.5)
    return p


@picture("kettlebell-swing", "Kettlebell swing")
def kettlebell_swing():
    p = Picture()
    hip = standing_hip(30, 1.5)
    sh = p.side(hip, -92, legs=[((28.5, G), 1, 0), ((31.5, G), 1, 0)], head=-88)
    hand = add(sh, d(-4, ARM))
    p.line(sh, hand)
    p.kettlebell(hand)
    p.line((34, 45), (41, 41), (46.5, 33), (49.5, 23), w=1.6, dash=True)
    return p


@picture("crunch", "Crunch")
def crunch():
    p = Picture()
    hip = (32, 53.5)
    sh = p.side(hip, -148, legs=[((47, G - 1), 1, 0)], head=-128)
    head = add(sh, d(-128, NECK))
    p.line(sh, ik(sh, add(head, (-2.5, 2)), UPPER * .8, FORE * .8, -1), add(head, (-2.5, 2)))
    return p


@picture("plank", "Plank")
def plank():
    p = Picture()
    sh = (44, G - UPPER)
    ang = math.degrees(math.atan2(G - 1.5 - sh[1], 8 - sh[0]))
    hip = add(sh, d(ang, TORSO))
    p.side(hip, ang + 180, legs=[(add(hip, d(ang, LEG)), 1, 90)], head=ang + 180 - 5)
    p.line(sh, (44, G - 0.5), (53, G - 0.5))
    return p


@picture("leg-raise", "Hanging leg raise")
def leg_raise():
    p = Picture(ground=False)
    p.line((16, 5), (46, 5), w=3.0)
    hip = (30, 42)
    sh = p.side(hip, -90, legs=[(add(hip, d(-4, LEG)), 1, -70)], head=-58)
    p.line(sh, (24.5, 5))
    return p


@picture("twist", "Russian twist")
def twist():
    p = Picture()
    hip = (28, 53)
    sh = p.side(hip, -118, legs=[((49, 46), 1, -15)], head=-108)
    hand = add(sh, d(40, 10))
    p.line(sh, ik(sh, hand, UPPER, FORE, 1), hand)
    p.circle(add(hand, (2, 0)), 3.3)
    p.line((12, 22), (17, 18.5), (24, 17.5), w=1.8)
    p.line((20.5, 15), (24, 17.5), (21, 20.5), w=1.8)
    return p


@picture("jump", "Jump / conditioning")
def jump():
    p = Picture(lift=5)
    hip = (32, 36)
    ny = hip[1] - TORSO
    p.front(hip, legs=[(add((28.8, 36), d(106, LEG)), 1, 200), (add((35.2, 36), d(74, LEG)), -1, -20)],
            arms=[(add((25.5, ny + 1.5), d(-132, ARM)), 1), (add((38.5, ny + 1.5), d(-48, ARM)), -1)])
    return p


# ---------------------------------------------------------------- the rules
# (picture, id keywords) tried in order; the first whose keyword is a whole run of words in
# the exercise's id (split at hyphens: "l-sit" matches "l-sit", not "wall-sit") wins.
PATTERN_RULES = [
    ("pull-up", ["pull-up", "chin-up", "muscle-up", "dead-hang"]),
    ("leg-raise", ["hanging", "captains-chair", "toes-to-bar", "knees-to-elbows", "windshield-wiper", "l-sit"]),
    ("crunch", ["crunch", "sit-up", "v-up", "flutter-kick", "rollout", "dragon-flag", "hollow-rock", "leg-raise", "knee-raise"]),
    ("deadlift", ["clean-deadlift", "snatch-deadlift"]),
    ("pull", ["high-pull", "jump-shrug", "upright-row", "snatch-pull", "clean-pull", "muscle-clean"]),
    ("snatch", ["snatch", "overhead-squat", "turkish-get-up", "windmill"]),
    ("jerk", ["jerk", "push-press", "clean-and-press"]),
    ("clean", ["clean"]),
    ("kettlebell-swing", ["swing", "pull-through", "around-the-world"]),
    ("front-squat", ["front-squat", "goblet", "zercher", "thruster"]),
    ("calf-raise", ["calf", "tibialis"]),
    ("leg-press", ["leg-press", "hack-squat"]),
    ("leg-machine", ["leg-extension", "leg-curl", "abductor", "adductor", "nordic", "glute-ham"]),
    ("good-morning", ["good-morning"]),
    ("hip-thrust", ["hip-thrust", "glute-bridge", "kickback-machine", "glute-kickback"]),
    ("romanian-deadlift", ["romanian", "stiff-leg", "straight-leg-deadlift"]),
    ("deadlift", ["deadlift", "rack-pull"]),
    ("cable-row", ["squat-row"]),
    ("lunge", ["lunge", "split-squat", "step-up"]),
    ("bodyweight-squat", ["bodyweight-squat", "pistol", "sissy", "wall-sit", "jump-squat"]),
    ("squat", ["squat"]),
    ("jump", ["jump", "burpee", "battle-ropes", "sled", "slam", "mountain-climber", "jumping-jack"]),
    ("shrug", ["shrug", "farmers-walk"]),
    ("lat-pulldown", ["pulldown", "pullover"]),
    ("cable-row", ["cable-row", "machine-row", "iso-lateral-row", "face-pull"]),
    ("row", ["row"]),
    ("back-extension", ["back-extension", "hyperextension", "superman", "y-raise", "bird-dog"]),
    ("dip", ["dip"]),
    ("push-up", ["push-up", "handstand"]),
    ("fly", ["external-rotation"]),
    ("twist", ["twist", "rotation", "woodchop", "side-bend", "pallof"]),
    ("fly", ["fly", "crossover", "pec-deck", "pull-apart"]),
    ("curl", ["curl", "wrist-roller"]),
    ("incline-press", ["incline"]),
    ("lateral-raise", ["lateral-raise"]),
    ("front-raise", ["front-raise", "svend"]),
    ("triceps-pushdown", ["pushdown", "kickback"]),
    ("triceps-extension", ["triceps-extension", "skull-crusher", "jm-press"]),
    ("bench-press", ["bench-press", "chest-press", "floor-press", "decline", "cable-press"]),
    ("overhead-press", ["press"]),
    ("plank", ["plank", "hold", "dead-bug"]),
]


def picture_for(exercise):
    words = f"-{exercise['id']}-"
    for name, keys in PATTERN_RULES:
        if any(f"-{k}-" in words for k in keys):
            return name
    return None


def assign():
    with open(EXERCISES, encoding="utf-8") as f:
        doc = json.load(f)
    missing = []
    for e in doc["exercises"]:
        name = picture_for(e)
        if name is None:
            missing.append(e["id"])
            continue
        # The two members go last, after the text's licence and attribution.
        e.pop("image", None)
        e.pop("imageLicence", None)
        e["image"] = f"{name}.svg"
        e["imageLicence"] = LICENCE
    if missing:
        sys.exit(f"no picture rule matches: {', '.join(missing)}")
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    EXERCISES.write_text(text, encoding="utf-8")
    return doc["exercises"]


def sheet(path, exercises):
    from collections import Counter
    uses = Counter(e["image"] for e in exercises)
    cells = []
    for name in PICTURES:
        svg = (IMAGES / f"{name}.svg").read_text()
        size = len(svg.encode())
        cells.append(f'<figure><div class="l">{svg}</div><div class="d">{svg}</div><div class="s">{svg}</div>'
                     f'<figcaption>{name} {size}B ×{uses[name + ".svg"]}</figcaption></figure>')
    html = ("<!doctype html><meta charset=utf-8><style>body{font:11px sans-serif;margin:6px;display:flex;flex-wrap:wrap;gap:4px}"
            "figure{margin:0;width:232px;text-align:center}figure>div{display:inline-block;padding:3px;vertical-align:bottom}"
            ".l{color:#222;background:#fff;outline:1px solid #ddd}.l svg{width:112px;height:112px}"
            ".d{color:#eee;background:#222}.d svg{width:48px;height:48px}"
            ".s{color:#222;background:#fff}.s svg{width:32px;height:32px}"
            "figcaption{margin-top:1px}</style>" + "".join(cells))
    Path(path).write_text(html, encoding="utf-8")


def accessor(name):
    """EmbedResources' name for a resource file (Sources/EmbedResources/main.swift)."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def write_swift():
    """The server's table of pictures by file name (the embedded bytes have no directory)."""
    rows = "".join(f'        "{n}.svg": PackageResources.{accessor(n + ".svg")},\n' for n in sorted(PICTURES))
    alts = "".join(f'        "{n}.svg": "{PICTURES[n][1]}",\n' for n in sorted(PICTURES))
    SWIFT.write_text(
        "// Generated by scripts/make_exercise_pictograms.py from Resources/strength/images/; do not edit.\n\n"
        "/// The exercise pictures: our own CC0 line drawings, one per movement (docs/STRENGTH.md),\n"
        "/// embedded with the catalogue and served at /static/exercises/NAME.\n"
        "public enum StrengthPictures {\n"
        "    /// SVG bytes by file name (the catalogue's `image`).\n"
        "    public static let files: [String: [UInt8]] = [\n" + rows + "    ]\n\n"
        "    /// What each picture shows, for its `alt` text when the exercise's name is not at hand.\n"
        "    public static let movements: [String: String] = [\n" + alts + "    ]\n"
        "}\n", encoding="utf-8")


def main():
    IMAGES.mkdir(parents=True, exist_ok=True)
    for old in IMAGES.glob("*.svg"):
        if old.stem not in PICTURES:
            old.unlink()
    for name, (fn, _) in PICTURES.items():
        (IMAGES / f"{name}.svg").write_text(fn().svg(), encoding="utf-8")
    write_swift()
    exercises = assign()
    if "--sheet" in sys.argv:
        sheet(sys.argv[sys.argv.index("--sheet") + 1], exercises)
    print(f"{len(PICTURES)} pictures, {len(exercises)} exercises assigned")


if __name__ == "__main__":
    main()
