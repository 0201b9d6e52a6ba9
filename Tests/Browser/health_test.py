#!/usr/bin/env python3
"""Daily health in a real browser (issue 11). The demo account's six months of watch data
(`serve --demo`) on the Today, week and heart-rate history pages; then a new user imports an
Apple Health export through the import page (upload progress, then the import followed to its
end), finds the fixture's known answers on Today (7.5 h in bed, asleep 6.5 h: quality 9,
recovery 84 %), rates the night 8 (RISE's worked example: 75 %) and marks a day sick; then
(issue 25) finds the Intensity view with the run shaded, sets the time slept by hand (recovery
follows, "set by you"), clears it, and sees the week's intensity drawn as a line.
Screenshots at desktop and phone widths with axe-core checks go to artifacts/browser/health-*.png.

    python3 Tests/Browser/health_test.py [path/to/heartwork]
"""
import datetime
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, DESKTOP, PHONE, ROOT, SHOTS, Checks, free_port, submit, wait_for_health  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WATCH = "&lt;&lt;HKDevice: 0x1, name:Apple Watch, manufacturer:Apple Inc., model:Watch&gt;"


def export_xml(days):
    """The Swift tests' HealthExportFixture in Python: per day (UTC) heart rate every 5 minutes
    (55 asleep, 70 awake, 190 at noon, 150 every 5 s in a 17:00–17:45 run), resting 52, SDNN
    45 ms, 3 × 1000 steps, in bed 22:30–06:00 and asleep 23:00–05:30 the night before."""
    def stamp(t):
        return t.strftime("%Y-%m-%d %H:%M:%S +0000")

    def record(kind, start, end, value, unit=None):
        unit_text = f' unit="{unit}"' if unit else ""
        return (f' <Record type="{kind}" sourceName="Test Watch" device="{WATCH}"{unit_text} creationDate="{stamp(end)}" '
                f'startDate="{stamp(start)}" endDate="{stamp(end)}" value="{value}"/>\n')
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2026-11-25 09:00:00 +0000"/>\n']
    for day in days:
        midnight = datetime.datetime.combine(day, datetime.time(0, 0))
        at = lambda seconds: midnight + datetime.timedelta(seconds=seconds)  # noqa: E731
        out.append(record("HKCategoryTypeIdentifierSleepAnalysis", at(-5400), at(6 * 3600), "HKCategoryValueSleepAnalysisInBed"))
        out.append(record("HKCategoryTypeIdentifierSleepAnalysis", at(-3600), at(5.5 * 3600), "HKCategoryValueSleepAnalysisAsleepCore"))
        for second in range(0, 86400, 300):
            if 17 * 3600 <= second < 17 * 3600 + 2700:
                continue
            value = 190 if second == 12 * 3600 else (55 if second < 6 * 3600 else 70)
            out.append(record("HKQuantityTypeIdentifierHeartRate", at(second), at(second), value, "count/min"))
        for second in range(17 * 3600, 17 * 3600 + 2700, 5):
            out.append(record("HKQuantityTypeIdentifierHeartRate", at(second), at(second), 150, "count/min"))
        out.append(record("HKQuantityTypeIdentifierRestingHeartRate", at(0), at(23 * 3600), 52, "count/min"))
        out.append(record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", at(7 * 3600), at(7 * 3600 + 60), 45, "ms"))
        for hour in (9, 13, 19):
            out.append(record("HKQuantityTypeIdentifierStepCount", at(hour * 3600), at(hour * 3600 + 600), 1000, "count"))
        out.append(f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="45" durationUnit="min" totalDistance="5" '
                   f'totalDistanceUnit="km" totalEnergyBurned="400" totalEnergyBurnedUnit="kcal" sourceName="Test Watch" device="{WATCH}" '
                   f'creationDate="{stamp(at(17 * 3600 + 2700))}" startDate="{stamp(at(17 * 3600))}" endDate="{stamp(at(17 * 3600 + 2700))}"/>\n')
    out.append("</HealthData>\n")
    return "".join(out)


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-health-")
    server = subprocess.Popen([str(binary), "serve", "--demo", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    driver = None
    failures = []
    try:
        password = None
        for line in server.stdout:
            if line.strip().startswith("password:") and password is None:
                password = line.split(":", 1)[1].strip()
            if line.startswith("The coach"):
                break
        if not password:
            raise SystemExit("the demo did not print its login")
        wait_for_health(base, server)

        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={DESKTOP[0]},{DESKTOP[1]}"]:
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(options=options)
        driver.set_window_size(*DESKTOP)
        checks = Checks(driver)

        def check(condition, message):
            if not condition:
                failures.append(message)
                print("  FAIL " + message)

        def sign_in(username, secret):
            driver.delete_all_cookies()
            driver.get(base + "/login")
            driver.find_element(By.ID, "username").send_keys(username)
            driver.find_element(By.ID, "password").send_keys(secret)
            submit(driver, "form button[type=submit]")

        # The demo account: six months of watch data.
        sign_in("demo", password)
        driver.get(base + "/today")
        text = driver.find_element(By.TAG_NAME, "main").text
        check("Recovery" in text and "Readiness" in text and "Strain" in text, "Today shows recovery, strain and readiness")
        check("%" in driver.find_element(By.CSS_SELECTOR, ".health-cards .big-number").text, "Today's recovery is a percentage")
        check(len(driver.find_elements(By.CSS_SELECTOR, ".readiness-inputs li")) == 2, "readiness shows its two inputs with their bands")
        inputs = driver.find_element(By.CSS_SELECTOR, ".readiness-inputs").text
        # Issue 41: HRV in milliseconds, as people read it (not "ln SDNN 4.16"), bands in units.
        check("HRV (SDNN)" in inputs and " ms" in inputs and "ln SDNN" not in inputs and "bpm" in inputs, f"readiness in words people read: {inputs}")
        checks.page("health-today")
        driver.get(base + "/health/week")
        check(len(driver.find_elements(By.CSS_SELECTOR, "figure.chart")) == 3, "the week has its three charts")
        check(len(driver.find_elements(By.CSS_SELECTOR, "tbody tr")) == 7, "the week's table has seven days")
        check("weekly average" in driver.page_source, "the week's charts show the weekly average")
        checks.page("health-week")
        for name in ("day", "week", "month"):
            driver.get(base + f"/health/history?range={name}")
            check(len([svg for svg in driver.find_elements(By.CSS_SELECTOR, "#history figure [data-readout]:not([data-readout='[]']) svg") if svg.is_displayed()]) == 1, f"the {name} history has its heart-rate chart")
            checks.page(f"health-history-{name}")

        # A new user imports an export through the page.
        api = API(base)
        api.call("POST", "/api/auth/register", {"username": "hana", "fullName": "Hana Health", "email": "hana@example.org", "password": "health password"})
        sign_in("hana", "health password")
        driver.get(base + "/today")
        check("Import your Apple Health export" in driver.page_source, "a new user is shown where to begin")
        today = datetime.datetime.now(datetime.timezone.utc).date()
        export = pathlib.Path(data) / "export.xml"
        export.write_text(export_xml([today - datetime.timedelta(days=1), today]))
        driver.get(base + "/health/import")
        checks.page("health-import")
        driver.find_element(By.ID, "health-file").send_keys(str(export))
        driver.find_element(By.CSS_SELECTOR, "form[data-health-import] button[type=submit]").click()
        WebDriverWait(driver, 120).until(lambda d: "Done" in d.find_element(By.ID, "health-status").text
                                         or "stopped" in d.find_element(By.ID, "health-status").text)
        status = driver.find_element(By.ID, "health-status").text
        check("1,652 new samples; 2 workouts added" in status, f"the import reports what it added: {status}")
        checks.page("health-import-done")
        # The recomputation runs after the import (the job queue); Today shows the known answers.
        WebDriverWait(driver, 60).until(lambda d: d.get(base + "/today") or "84 %" in d.page_source)
        night = driver.find_element(By.ID, "night").text
        check("7.5 h in bed (22:30–06:00)" in night and "6.5 h asleep" in night and "quality 9/10" in night, f"the night from the export: {night}")
        check("Running" in driver.page_source, "the run is the day's workout")
        driver.find_element(By.CSS_SELECTOR, "#quality option[value='8']").click()
        submit(driver, "form[action='/today/sleep-quality'] button[type=submit]")
        check("75 %" in driver.page_source, "7.5 h in bed rated 8 is 75 % recovery")
        driver.find_element(By.CSS_SELECTOR, "#mark option[value='sick']").click()
        submit(driver, "form[action='/today/mark'] button[type=submit]")
        check("You marked this day sick." in driver.page_source, "the day is marked sick")
        checks.page("health-today-rated")

        # Issue 25 (RISE): the Intensity view — resting, current and highest heart rate, the run shaded by its intensity.
        intensity = driver.find_element(By.ID, "intensity").text
        check("Resting" in intensity and "Highest today" in intensity and "60–80 %" in intensity, f"the Intensity view: {intensity}")
        check(driver.find_element(By.ID, "current-heart-rate").text.endswith("bpm"), "the current heart rate")
        shaded = driver.find_elements(By.CSS_SELECTOR, ".intensity-list li.on-dark")
        check(len(shaded) == 1 and "Running" in shaded[0].text, "the run is shaded dark blue (intensity 6.5)")
        # Time slept, set by hand: 8 h ending a minute ago (at most 17:59, UTC, the export's offset) → 8 h × 8/10 ÷ 8 = 80 %.
        now = datetime.datetime.now(datetime.timezone.utc)
        wake = min(now.hour * 60 + now.minute - 1, 17 * 60 + 59)
        if wake < 1:
            raise SystemExit("run the browser test after 00:02 UTC (a night cannot end in the future)")
        bed = (wake - 480) % 1440
        clock = lambda m: f"{m // 60:02d}:{m % 60:02d}"  # noqa: E731
        driver.find_element(By.CSS_SELECTOR, "details.sleep-time summary").click()
        driver.execute_script("document.getElementById('bedTime').value = arguments[0]; document.getElementById('wakeTime').value = arguments[1];",
                              clock(bed), clock(wake))
        submit(driver, "form[action='/today/sleep-time'] button[type=submit]")
        night = driver.find_element(By.ID, "night").text
        check("8.0 h in bed" in night and "set by you" in night and "7.5 h recorded" in night, f"the night set by hand: {night}")
        check("80 %" in driver.find_element(By.CSS_SELECTOR, "#recovery .big-number").text, "recovery follows the time set")
        checks.page("health-today-time-slept")
        submit(driver, "form[action='/today/sleep-time/clear'] button[type=submit]")
        check("set by you" not in driver.find_element(By.ID, "night").text and "75 %" in driver.page_source, "cleared: the recorded night again")
        driver.get(base + "/health/week")
        line = driver.find_elements(By.CSS_SELECTOR, "figure.chart polyline, figure.chart circle")
        check(len(line) >= 2, "the week draws intensity as a line with its dots")
        checks.page("health-week-intensity")

        # The food page: a pasted label, then a photo (read by Tesseract when the server has it).
        driver.get(base + "/food")
        driver.find_element(By.ID, "label").send_keys("Nutrition Facts\nServing size 1 cup (240mL)\nCalories 250\nTotal Fat 12g\n"
                                                      "Saturated Fat 5g\nTrans Fat 0g\nSodium 470mg\nTotal Sugars 20g\nProtein 8g")
        submit(driver, "form[action='/food'] button[type=submit]")
        result = driver.find_element(By.ID, "food-result").text
        check("Unhealthy" in result and "470 mg" in result and "250 kcal" in result, f"the pasted label is read: {result}")
        checks.page("health-food")
        photo = ROOT / "Tests" / "HeartworkCLITests" / "Fixtures" / "fda-label.png"
        driver.find_element(By.ID, "food-photo").send_keys(str(photo))
        WebDriverWait(driver, 60).until(lambda d: "230 kcal" in d.find_element(By.ID, "food-values").text
                                        or "Tesseract" in d.find_element(By.ID, "food-status").text)
        import shutil
        if shutil.which("tesseract"):
            check("230 kcal" in driver.find_element(By.ID, "food-values").text, "the photo of the FDA label is read")
        else:
            check("tesseract-ocr" in driver.find_element(By.ID, "food-status").text, "without Tesseract the page says what to install")
        checks.page("health-food-photo")
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
        raise SystemExit(f"health test failed: {len(failures)} problems")
    print("health test passed")


if __name__ == "__main__":
    main()
