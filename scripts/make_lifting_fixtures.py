#!/usr/bin/env python3
"""Makes the Strong and Hevy export fixtures of Tests/HeartworkFormatsTests/Resources/lifting/
(issue 25): a weightlifter's history with exercise names exactly as Strong and Hevy write them,
in their export headers (classic Strong, Strong with Weight (kg)/(lbs) and semicolons, Hevy in kg
and lbs), plus two names the catalogue lacks. Seeded: the same files every run.

    python3 scripts/make_lifting_fixtures.py
"""
import random, datetime
random.seed(25)
import os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "HeartworkFormatsTests", "Resources", "lifting") + "/"
# A weightlifter's week: snatch day, clean & jerk day, strength day, plus gym accessories.
DAYS = [
 ("Snatch Day", [("Snatch (Barbell)", 60, 2, 6), ("Power Snatch", 55, 2, 4), ("Hang Snatch", 50, 2, 3), ("Snatch Pull (Barbell)", 85, 3, 4),
                 ("Overhead Squat (Barbell)", 50, 3, 3), ("Front Squat (Barbell)", 100, 3, 4), ("Good Morning (Barbell)", 50, 8, 3), ("Plank", 0, 0, 2)]),
 ("Clean & Jerk Day", [("Clean and Jerk (Barbell)", 80, 1, 6), ("Power Clean", 75, 2, 4), ("Hang Clean", 70, 2, 3), ("Clean Pull", 110, 3, 4),
                       ("Split Jerk (Barbell)", 85, 2, 3), ("Push Press", 70, 3, 3), ("Squat (Barbell)", 120, 5, 4), ("Hanging Leg Raise", 0, 12, 3)]),
 ("Strength Day", [("Bench Press (Barbell)", 80, 5, 5), ("Deadlift (Barbell)", 150, 3, 4), ("Overhead Press (Barbell)", 50, 6, 4),
                   ("Romanian Deadlift (Barbell)", 100, 8, 3), ("Lat Pulldown (Cable)", 60, 10, 3), ("Bent Over Row (Barbell)", 70, 8, 3),
                   ("Bicep Curl (Dumbbell)", 14, 12, 3), ("Triceps Pushdown (Cable - Straight Bar)", 30, 12, 3), ("Lateral Raise (Dumbbell)", 8, 15, 3)]),
 ("Legs & Pull", [("Squat (Barbell)", 110, 8, 4), ("Leg Press", 180, 10, 3), ("Lying Leg Curl (Machine)", 40, 12, 3), ("Leg Extension (Machine)", 50, 12, 3),
                  ("Standing Calf Raise (Machine)", 80, 15, 3), ("Pull Up", 0, 8, 3), ("Seated Row (Cable)", 60, 10, 3), ("Hammer Curl (Dumbbell)", 16, 10, 3),
                  ("Face Pull (Cable)", 25, 15, 3), ("Hip Thrust (Barbell)", 100, 10, 3)]),
]
# Names the catalogue lacks (a lifter's own variants): they must become custom exercises.
ODD = [("Snatch Grip Push Press", 60, 3, 2), ("Tempo Squat (Barbell)", 90, 4, 2)]

def sessions(count, start):
    t = start
    for n in range(count):
        name, exs = DAYS[n % len(DAYS)]
        exs = list(exs)
        if n % 9 == 4: exs.insert(3, ODD[(n // 9) % 2])
        week = n // 4
        yield n, name, t, exs, week
        t += datetime.timedelta(days=random.choice([1, 2, 2, 3]), minutes=random.randint(-40, 40))

def weight_for(base, week):
    return round((base * (1 + 0.01 * week)) / 2.5) * 2.5 if base else 0

def fmt_strong_dur(m): return f"{m // 60}h {m % 60}m" if m >= 60 else f"{m}m"

def strong(path, count, start, unit="kg", sep=",", decimal=".", header_unit=False, rest_timer=True):
    w_col = {"kg": "Weight (kg)", "lbs": "Weight (lbs)"}[unit] if header_unit else "Weight"
    d_col = "Distance (meters)" if header_unit else "Distance"
    head = ["Date", "Workout Name", "Duration", "Exercise Name", "Set Order", w_col, "Reps", d_col, "Seconds", "Notes", "Workout Notes", "RPE"]
    lines = [sep.join(head)]
    rows = 0
    def num(x):
        s = f"{x:.1f}"
        return s.replace(".", decimal)
    for n, name, t, exs, week in sessions(count, start):
        dur = fmt_strong_dur(random.randint(55, 95))
        note = "Felt quick off the floor" if n % 5 == 0 else ""
        for ex, base, reps, sets in exs:
            order = []
            if base >= 60 and ex not in ("Leg Press",): order.append(("W", base * 0.5, reps + 2))
            for i in range(sets): order.append((str(i + 1), base, reps))
            for so, b, r in order:
                w = weight_for(b, week)
                if unit == "lbs": w = round(w * 2.20462 / 5) * 5
                secs = 0.0
                if ex == "Plank": r, secs = 0, float(45 + 5 * week)
                rpe = f"{random.choice([7, 7.5, 8, 8.5, 9])}".replace(".", decimal) if so != "W" and n % 3 == 0 else ""
                fields = [t.strftime("%Y-%m-%d %H:%M:%S"), f'"{name}"', dur, f'"{ex}"', so, num(w), num(r), "0", num(secs), '""', f'"{note}"', rpe]
                lines.append(sep.join(fields)); rows += 1
            if rest_timer and ex.startswith("Snatch (") :
                lines.append(sep.join([t.strftime("%Y-%m-%d %H:%M:%S"), f'"{name}"', dur, '"Rest Timer"', "Rest Timer", "0", "0", "0", num(120), '""', f'"{note}"', ""]))
    open(OUT + path, "w").write("\n".join(lines) + "\n")
    return rows

def hevy(path, count, start, unit="kg"):
    head = ["title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes", "set_index", "set_type",
            "weight_kg" if unit == "kg" else "weight_lbs", "reps", "distance_km", "duration_seconds", "rpe"]
    lines = [",".join(f'"{h}"' for h in head)]
    rows = 0
    for n, name, t, exs, week in sessions(count, start):
        end = t + datetime.timedelta(minutes=random.randint(55, 95))
        st, en = t.strftime("%-d %b %Y, %H:%M"), end.strftime("%-d %b %Y, %H:%M")
        for ex, base, reps, sets in exs:
            # Hevy's own names for a few (its library words them differently from Strong).
            hx = {"Triceps Pushdown (Cable - Straight Bar)": "Triceps Pushdown", "Seated Row (Cable)": "Seated Cable Row - V Grip (Cable)",
                  "Standing Calf Raise (Machine)": "Calf Raise (Standing)" if False else "Standing Calf Raise (Machine)",
                  "Leg Press": "Leg Press (Machine)", "Face Pull (Cable)": "Face Pull", "Clean and Jerk (Barbell)": "Clean and Jerk",
                  "Snatch (Barbell)": "Snatch", "Split Jerk (Barbell)": "Split Jerk"}.get(ex, ex)
            idx = 0
            plan = []
            if base >= 60: plan.append(("warmup", base * 0.5, reps + 2))
            plan += [("normal", base, reps)] * sets
            if ex.startswith("Bicep Curl"): plan.append(("dropset", base * 0.7, reps))
            for kind, b, r in plan:
                w = weight_for(b, week)
                if unit == "lbs": w = round(w * 2.20462 / 5) * 5
                dur = ""
                if ex == "Plank": r, dur = "", str(45 + 5 * week)
                rpe = str(random.choice([7, 8, 8.5, 9])) if kind == "normal" and n % 4 == 1 else ""
                fields = [f'"{name}"', f'"{st}"', f'"{en}"', '""', f'"{hx}"', "", '""', str(idx), f'"{kind}"', f"{w:g}" if w else "", str(r), "", dur, rpe]
                lines.append(",".join(fields)); rows += 1; idx += 1
    open(OUT + path, "w").write("\n".join(lines) + "\n")
    return rows

print("strong", strong("strong-weightlifting.csv", 16, datetime.datetime(2024, 1, 8, 7, 2, 11)))
print("strong-kg", strong("strong-weight-kg-semicolon.csv", 8, datetime.datetime(2024, 4, 2, 18, 30, 5), sep=";", decimal=",", header_unit=True, rest_timer=True))
print("strong-lbs", strong("strong-weight-lbs.csv", 8, datetime.datetime(2024, 6, 3, 6, 45, 0), unit="lbs", header_unit=True))
print("hevy", hevy("hevy-weightlifting.csv", 14, datetime.datetime(2023, 8, 19, 9, 1)))
print("hevy-lbs", hevy("hevy-weight-lbs.csv", 6, datetime.datetime(2023, 11, 2, 17, 15), unit="lbs"))
