#!/usr/bin/env python3
"""Nothing typed is lost (issue 28): every form of the web app that keeps what it is given is
filled in a real browser — every visible field, each with a value different from the one it
showed — submitted once, and the page opened again; every value must read back. The table
below must name every visible field of each form: a field added to a form without a line
here fails the test, so a new field cannot be silently thrown away.

Forms left out, and why: sign-in, sign-up and account deletion (their outcome is a session or
no account, covered by browser_test.py), the friend search (a GET), uploads and imports
(their answer is a report, covered by health_test.py and strength_test.py), and the buttons
without fields (accept, remove, revoke, move).

    python3 Tests/Browser/forms_test.py [path/to/heartwork]
"""
import datetime
import pathlib
import subprocess
import sys
import time
import zoneinfo

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, DESKTOP, ROOT, demo_server, headless_chromium, submit  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402

# Every visible, named field of a form, with its type and value (checkboxes: checked).
FIELDS = """
return [...document.querySelector(arguments[0]).elements]
  .filter(e => e.name && !['hidden', 'submit', 'button', 'file'].includes(e.type) && e.offsetParent !== null)
  .map(e => ({name: e.name, type: e.type, value: e.type === 'checkbox' ? (e.checked ? e.value : '') : e.value,
              placeholder: e.getAttribute('placeholder') || ''}));
"""

# Sets one field the way a person would (types into text, picks an option, ticks a box).
SET = """
const [selector, name, value] = arguments;
const fields = [...document.querySelector(selector).elements].filter(e => e.name === name);
for (const field of fields) {
  if (field.type === 'checkbox') {
    field.checked = Array.isArray(value) ? value.includes(field.value) : value === true;
  } else if (field.tagName === 'SELECT') {
    if (![...field.options].some(o => o.value === value)) return `no option ${value} in ${name}`;
    field.value = value;
  } else {
    field.value = value;
  }
  field.dispatchEvent(new Event('input', {bubbles: true}));
  field.dispatchEvent(new Event('change', {bubbles: true}));
}
return fields.length ? null : `no field ${name}`;
"""


def read(driver, selector):
    """{name: value} for the form's fields; checkbox groups as the sorted list of ticked values
    (a single checkbox as true or false)."""
    values, groups = {}, {}
    for field in driver.execute_script(FIELDS, selector):
        if field["type"] == "checkbox":
            groups.setdefault(field["name"], []).append(field["value"])
        else:
            values[field["name"]] = field["value"]
            if field["placeholder"]:
                values[field["name"] + "@placeholder"] = field["placeholder"]
    for name, ticked in groups.items():
        present = [value for value in ticked if value]
        values[name] = sorted(present) if name.endswith("[]") else bool(present)
    return values


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    started = time.time()
    server, base, passwords = demo_server(binary, "heartwork-forms-")
    driver = None
    failures = []
    checked = []
    try:
        api = API(base)
        demo = api.call("POST", "/api/auth/login", {"username": "demo", "password": passwords["demo"]})["token"]
        coach = api.call("POST", "/api/auth/login", {"username": "coach", "password": passwords["coach"]})["token"]
        routine = api.call("POST", "/api/routines", {"name": "Push day", "goal": "MassGain",
                                                     "exercises": ["barbell-bench-press", "dumbbell-lateral-raise", "plank"]}, token=demo)
        team = api.call("GET", "/api/teams", token=coach)["teams"][0]
        players = api.call("GET", f"/api/teams/{team['id']}", token=coach)["players"]
        player = players[0]
        sensors = api.call("GET", "/api/sensors", token=coach)["sensors"]
        worn = {p.get("sensorID") for p in players}
        spare = next((s for s in sensors if s["id"] not in worn), None)

        driver = headless_chromium(DESKTOP)

        def sign_in(username):
            driver.delete_all_cookies()
            driver.get(base + "/login")
            driver.find_element(By.ID, "username").send_keys(username)
            driver.find_element(By.ID, "password").send_keys(passwords[username])
            submit(driver, "form button[type=submit]")

        def roundtrip(name, page, form, typed, expected=None, reread=None, reread_form=None, unchanged=()):
            """Fills every field of `form` on `page` with `typed`, submits once, opens `reread`
            (default: the page again) and compares every field with `expected` (default: typed)."""
            driver.get(base + page)
            if not driver.find_elements(By.CSS_SELECTOR, form):
                failures.append(f"{name}: no {form} on {page}")
                return
            before = read(driver, form)
            shown = {key for key in before if not key.endswith("@placeholder")}
            unknown = sorted(shown - set(typed))
            if unknown:
                failures.append(f"{name}: fields this test does not fill (add them to the table): {', '.join(unknown)}")
            gone = sorted(set(typed) - shown)
            if gone:
                failures.append(f"{name}: the table names fields the form does not show: {', '.join(gone)}")
            same = sorted(key for key in shown & set(typed) if before[key] == typed[key] and key not in unchanged)
            if same:
                failures.append(f"{name}: typed values equal to what was shown prove nothing: {', '.join(same)}")
            for field, value in typed.items():
                problem = driver.execute_script(SET, form, field, value)
                if problem:
                    failures.append(f"{name}: {problem}")
            submit(driver, f"{form} button[type=submit]")
            errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".field-error, .error[role=alert], .error-summary")]
            if errors:
                failures.append(f"{name}: the form answered with errors: {errors}")
            driver.get(base + (reread or page))
            after = read(driver, reread_form or form)
            for field, want in (expected or typed).items():
                if after.get(field) != want:
                    failures.append(f"{name}: {field} reads back {after.get(field)!r}, typed {typed.get(field)!r}, expected {want!r}")
            checked.append(f"{name} ({len(typed)} field{'' if len(typed) == 1 else 's'})")

        sign_in("demo")
        # One form for the profile: the details, today's weight and resting heart rate, units and
        # zone. Units switch to imperial, so height and weight read back in inches and pounds.
        profile = {
            "fullName": "Dana Q. Demo", "email": "dana.q@demo.heartwork.invalid", "status": "Tempo on Tuesdays",
            "dateOfBirth": "1990-07-15", "sex": "male", "height": "182", "maxHeartRateMethod": "measured",
            "measuredMaxHeartRate": "193", "weight": "71.5", "bpm": "49", "units": "imperial", "timeZone": "Europe/Vienna",
        }
        profile_back = dict(profile, height="72", weight="", bpm="")
        profile_back["weight@placeholder"] = "last: 157.6 lb"
        profile_back["bpm@placeholder"] = "last: 49 bpm"
        roundtrip("profile", "/profile", "form[action='/profile']", profile, profile_back)
        roundtrip("settings", "/settings", "form[action='/settings']", {"autoShareWorkouts": False, "maxSharedWorkouts": "35"})
        # The night can be rated from the morning on: just after midnight in the demo's zone,
        # today has no night yet, so yesterday's page holds the form.
        sleep_page = "/today"
        driver.get(base + sleep_page)
        if not driver.find_elements(By.CSS_SELECTOR, "form[action='/today/sleep-quality']"):
            zone = api.call("GET", "/api/me", token=demo).get("timeZone") or "UTC"
            yesterday = (datetime.datetime.now(zoneinfo.ZoneInfo(zone)).date() - datetime.timedelta(days=1)).isoformat()
            sleep_page = f"/today?date={yesterday}"
        # The demo rates some nights itself: type a rating other than the one shown.
        shown = read_fields(driver, base, sleep_page, "form[action='/today/sleep-quality']").get("quality")
        roundtrip("today: sleep quality", sleep_page, "form[action='/today/sleep-quality']", {"quality": "2" if shown == "4" else "4"})
        roundtrip("today: mark", "/today", "form[action='/today/mark']", {"mark": "sick"})
        roundtrip("today: alerts", "/today", "form[action='/today/settings']",
                  {"inactivityAlerts": False, "stepThreshold": "7500", "inactivityTime": "17:30", "anomalyAlerts": False})
        roundtrip("nutrition", "/nutrition", "form[action='/strength/settings']", {"goal": "WeightLoss", "lifestyle": "sedentary"})
        strength = {"goal": "MassGain", "lifestyle": "high-active", "plateStep": "2.5", "webhookUrl": "https://hooks.example.org/heartwork"}
        if "barKg" in read_fields(driver, base, "/strength/settings", "form[action='/strength/settings']"):
            strength["barKg"] = "15"
        roundtrip("strength settings", "/strength/settings", "form[action='/strength/settings']", strength)
        roundtrip("routine", f"/strength/routines/{routine['id']}/edit", f"form[action='/strength/routines/{routine['id']}']",
                  {"name": "Push day, heavier", "goal": "WeightLoss", "description": "Mondays before work",
                   "exercises[]": sorted(["barbell-bench-press", "barbell-back-squat", "side-plank"])})

        sign_in("coach")
        roundtrip("player", f"/players/{player['id']}", f"form[action='/players/{player['id']}']",
                  {"firstName": "Alba T.", "surname": "Torres Vidal", "number": "23", "birthDate": "2001-04-02", "sex": "male", "restingHeartRate": "48",
                   "maximumHeartRate": "197", "weightKilograms": "66.5", "teamID": team["id"],
                   "sensorID": spare["id"] if spare else ""}, unchanged=("teamID",))  # the coach has one team
        if sensors:
            sensor = sensors[-1]
            roundtrip("sensor name", "/teams", f"form[action='/sensors/{sensor['id']}']", {"name": "Bench strap 7"})
        if spare:
            other = players[1]
            roundtrip("strap of a player", f"/teams/{team['id']}", f"form[action='/teams/{team['id']}/players/{other['id']}/sensor']",
                      {"sensorID": ""})
        # Forms that create: the new thing shows what was typed.
        driver.get(base + "/teams")
        for field, value in {"name": "Under 18s"}.items():
            driver.execute_script(SET, "form[action='/teams']", field, value)
        submit(driver, "form[action='/teams'] button[type=submit]")
        if "Under 18s" not in [t["name"] for t in api.call("GET", "/api/teams", token=coach)["teams"]]:
            failures.append("a new team's name was not kept")
        else:
            checked.append("new team (1 field)")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"forms read back: {'; '.join(checked)} in {time.time() - started:.0f} s")
    if failures:
        raise SystemExit(f"forms test failed: {len(failures)} problems\n  " + "\n  ".join(failures))
    print("forms test passed")


def read_fields(driver, base, page, form):
    driver.get(base + page)
    return read(driver, form) if driver.find_elements(By.CSS_SELECTOR, form) else {}


if __name__ == "__main__":
    main()
