#!/usr/bin/env python3
"""Phone sync in a real browser (issue 24). A new user creates a sync token on the settings
page (the token shown once, with the address and the header to paste into Health Auto
Export), then Health Auto Export's REST automation is played by this script: it posts the
app's JSON format (help.healthyapps.dev/en/health-auto-export/export-format) for the last
20 hours with that token, the way the app would. After one reload Today says when the data
arrived and from where and shows the day; the heart-rate history shows the last 24 hours.
A resend of the same window adds nothing. Gadgetbridge's database (the committed fixture made
from its DDL) goes through the import page. Revoking the token on the page stops it.

What stands in for the phone: this script's HTTP client, sending the documented format. The
app itself (its scheduling, its HealthKit queries) is not run here.

    python3 Tests/Browser/sync_test.py [path/to/heartwork]
"""
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, ROOT, SHOTS, Checks, free_port, headless_chromium, submit, wait_for_health  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def stamp(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S +0000")


def payload(now):
    """The last 20 hours as Health Auto Export sends them: heart rate a minute (Min/Avg/Max),
    hourly steps, resting heart rate, HRV, and the night's sleep in the aggregated form."""
    start = now.replace(second=0, microsecond=0) - datetime.timedelta(hours=20)
    heart = []
    for minute in range(20 * 60):
        at = start + datetime.timedelta(minutes=minute)
        bpm = 58 + (minute % 30)
        heart.append({"date": stamp(at), "Min": bpm - 3, "Avg": bpm, "Max": bpm + 4, "source": "Sam’s Apple Watch"})
    steps = [{"qty": 400, "date": stamp(start + datetime.timedelta(hours=h))} for h in range(20)]
    night_end = start + datetime.timedelta(hours=7)
    return {"data": {
        "metrics": [
            {"name": "heart_rate", "units": "count/min", "data": heart},
            {"name": "step_count", "units": "count", "data": steps},
            {"name": "resting_heart_rate", "units": "count/min", "data": [{"qty": 54, "date": stamp(start)}]},
            {"name": "heart_rate_variability", "units": "ms", "data": [{"qty": 51, "date": stamp(start + datetime.timedelta(hours=3))}]},
            {"name": "sleep_analysis", "units": "hr", "data": [{
                "date": start.strftime("%Y-%m-%d"), "core": 4.5, "deep": 1, "rem": 1.5, "asleep": 0, "totalSleep": 7,
                "sleepStart": stamp(night_end - datetime.timedelta(hours=7)), "sleepEnd": stamp(night_end),
                "inBedStart": stamp(night_end - datetime.timedelta(hours=7, minutes=20)), "inBedEnd": stamp(night_end),
                "inBed": 7.33}]},
            {"name": "blood_oxygen_saturation", "units": "%", "data": [{"qty": 97, "date": stamp(start)}]},
        ],
        "workouts": [],
    }}


def post(base, token, body):
    request = urllib.request.Request(base + "/api/sync/health-auto-export", method="POST", data=json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", tempfile.mkdtemp(prefix="heartwork-sync-")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    driver = None
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
            print("  FAIL " + message)

    try:
        wait_for_health(base, server)
        API(base).call("POST", "/api/auth/register", {"username": "sam", "fullName": "Sam Sync", "email": "sam@example.org", "password": "sync password"})
        driver = headless_chromium()
        checks = Checks(driver)
        driver.get(base + "/login")
        driver.find_element(By.ID, "username").send_keys("sam")
        driver.find_element(By.ID, "password").send_keys("sync password")
        submit(driver, "form button[type=submit]")

        driver.get(base + "/today")
        check("set up phone sync" in driver.page_source, "a new user's Today points to phone sync")

        # The settings page: the steps, then a token shown once with the header to paste.
        driver.get(base + "/settings#sync")
        check(base + "/api/sync/health-auto-export" in driver.find_element(By.ID, "sync-url").text, "the settings page shows the address to paste")
        driver.find_element(By.ID, "syncTokenName").send_keys("Sam’s iPhone")
        submit(driver, "form[action='/settings/sync-tokens'] button[type=submit]")
        token = driver.find_element(By.ID, "new-sync-token").text.strip()
        check(token.startswith("hws_"), f"the new token is shown: {token!r}")
        check(f"Bearer {token}" in driver.find_element(By.ID, "sync").text, "the header to paste carries the token")
        check("Sam’s iPhone" in driver.find_element(By.ID, "sync").text, "the token is listed by its name")
        checks.page("sync-settings-token")

        # The app's automation sends the last 20 hours.
        now = datetime.datetime.now(datetime.timezone.utc)
        status, answer = post(base, token, payload(now))
        check(status == 200, f"the sync is taken: {status} {answer}")
        added = answer.get("added", {})
        check(added.get("samples") == 1200 + 20 + 1 + 1 + 4, f"what was added: {added}")
        check(any(item["why"] == "blood_oxygen_saturation: Heartwork does not use this metric" for item in answer.get("leftOut", [])),
              f"an unused metric is counted: {answer.get('leftOut')}")
        status, again = post(base, token, payload(now))
        check(status == 200 and again["added"]["samples"] == 0 and again["already"]["samples"] == 1226, f"a resend adds nothing: {again}")

        # Today follows within seconds (the recomputation is queued): one reload shows it.
        def arrived(d):
            d.get(base + "/today")
            return "Last sync" in d.page_source and "Heart rate" in d.page_source
        WebDriverWait(driver, 60, poll_frequency=1).until(arrived)
        line = driver.find_element(By.ID, "last-arrival").text
        check("Health Auto Export (Sam’s iPhone)" in line and "1,226 samples already here" in line, f"Today says when and from where (the resend last): {line}")
        checks.page("sync-today")

        # The heart-rate history: the last 24 hours, up to now.
        driver.get(base + "/health/history?range=day")
        page = driver.find_element(By.TAG_NAME, "main").text
        check("24 hours" in page or "24 h" in page, f"the history's day is the last 24 hours: {page[:300]}")
        check(len([svg for svg in driver.find_elements(By.CSS_SELECTOR, "figure [data-readout]:not([data-readout='[]']) svg") if svg.is_displayed()]) == 1,
              "the last 24 hours have their heart-rate chart")
        checks.page("sync-history-24h")

        # Android: Gadgetbridge's exported database through the import page (told apart by its
        # first bytes, whatever its name), the same job as an Apple Health export.
        fixture = ROOT / "Tests" / "HeartworkServerTests" / "Resources" / "gadgetbridge" / "gadgetbridge.db"
        expected = json.loads(fixture.with_name("gadgetbridge.expected.json").read_text())
        driver.get(base + "/health/import")
        check("Gadgetbridge" in driver.find_element(By.TAG_NAME, "h1").text, "the import page names Gadgetbridge")
        driver.find_element(By.ID, "health-file").send_keys(str(fixture))
        driver.find_element(By.CSS_SELECTOR, "form[data-health-import] button[type=submit]").click()
        WebDriverWait(driver, 120).until(lambda d: "Done" in d.find_element(By.ID, "health-status").text
                                         or "stopped" in d.find_element(By.ID, "health-status").text
                                         or "refused" in d.find_element(By.ID, "health-status").text)
        status_text = driver.find_element(By.ID, "health-status").text
        check(f"{expected['samplesTotal']:,} new samples" in status_text, f"the Gadgetbridge import reports what it added: {status_text}")
        checks.page("sync-gadgetbridge-import")

        # Revoked on the page: the app's next send is refused.
        driver.get(base + "/settings")
        driver.execute_script("window.confirm = () => true")
        submit(driver, "form[action$='/revoke'] button[type=submit]")
        check("Sync token revoked" in driver.page_source, "the page says the token is revoked")
        status, _ = post(base, token, payload(now))
        check(status == 401, f"a revoked token is refused: {status}")
        failures.extend(checks.failures)
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    if failures:
        print("\n".join(failures))
        raise SystemExit(f"sync test failed: {len(failures)} problems")
    print("sync test passed")


if __name__ == "__main__":
    main()
