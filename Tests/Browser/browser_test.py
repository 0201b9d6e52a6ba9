#!/usr/bin/env python3
"""Drives the Heartwork web app in a real browser (Debian's Chromium, headless, through
Selenium and chromium-driver): signs up, fills the profile, uploads a workout, opens its
detail page, and saves screenshots to artifacts/browser/. Exits non-zero on any failure.

    python3 Tests/Browser/browser_test.py [path/to/heartwork]
"""
import json
import math
import os
import pathlib
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "browser"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_health(base, process, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited early with status {process.returncode}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if json.load(response)["status"] == "ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the server did not become healthy")


def workout_file(directory):
    """A 30-minute outdoor run: warm-up, steady effort, cool-down; a GPS loop."""
    resting, seconds = 56, 1800
    heart_rate, bpm = [], 80.0
    for second in range(seconds):
        target = 165 if 300 < second < 1500 else (120 if second <= 300 else 110)
        bpm += (target - bpm) / 25 + math.sin(second / 7) * 0.4
        heart_rate.append(round(bpm))
    track = []
    for second in range(0, seconds, 2):
        angle = second * 3.0 / 400
        track.append({"lat": 48.2088 + 400 * math.sin(angle) / 111195, "lon": 16.3726 + 560 * math.cos(angle) / 74000,
                      "ele": 180 + 5 * math.sin(angle), "t": second})
    rr = [round(60000 / heart_rate[min(seconds - 1, i // 2)], 2) for i in range(2 * seconds)]
    body = {"sport": "running", "startTime": "2026-11-20T07:30:00Z", "indoor": False,
            "heartRate": heart_rate, "rrIntervals": rr, "track": track}
    path = pathlib.Path(directory) / "morning-run.json"
    path.write_text(json.dumps(body))
    return path


def screenshot(driver, name, full_page=True):
    if full_page:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        width = driver.execute_script("return window.innerWidth")
        driver.set_window_size(max(width, 360), min(max(height + 120, 600), 6000))
    path = SHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    print(f"screenshot {path.relative_to(ROOT)}")


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-browser-")
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = None
    try:
        wait_for_health(base, server)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        wait = WebDriverWait(driver, 20)

        # A page that needs a session answers with the sign-in form.
        driver.get(base + "/workouts")
        assert "Sign in" in driver.find_element(By.TAG_NAME, "h1").text

        # Sign up.
        driver.get(base + "/signup")
        driver.find_element(By.ID, "username").send_keys("browser_runner")
        driver.find_element(By.ID, "fullName").send_keys("Robin Browser")
        driver.find_element(By.ID, "email").send_keys("robin@example.org")
        driver.find_element(By.ID, "password").send_keys("correct horse battery")
        screenshot(driver, "01-signup", full_page=False)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(conditions.url_contains("/profile"))
        assert driver.find_element(By.TAG_NAME, "h1").text == "Robin Browser"

        # Profile: birth date and sex, then a resting heart rate and a weight.
        birth = driver.find_element(By.ID, "dateOfBirth")
        driver.execute_script("arguments[0].value = '1994-05-12'", birth)
        driver.find_element(By.CSS_SELECTOR, "#sex option[value=female]").click()
        driver.find_element(By.CSS_SELECTOR, "form.grid-form button[type=submit]").click()
        wait.until(conditions.url_matches(r".*/profile$"))
        driver.find_element(By.ID, "bpm").send_keys("56")
        driver.find_element(By.CSS_SELECTOR, "#resting-history form button").click()
        wait.until(conditions.url_contains("#resting-history"))
        for value in ["63.4", "62.9"]:
            driver.find_element(By.ID, "weight").send_keys(value)
            driver.find_element(By.CSS_SELECTOR, "#weight-history form button").click()
            wait.until(conditions.url_contains("#weight-history"))
        assert "Your zones" in driver.page_source, "zones appear once age and resting heart rate are known"
        assert driver.find_elements(By.CSS_SELECTOR, "#weight-history svg"), "the weight chart is drawn"
        driver.execute_script("window.scrollTo(0, 0)")
        screenshot(driver, "02-profile")

        # Upload a workout through the page's file input.
        driver.set_window_size(1280, 900)
        driver.get(base + "/workouts/upload")
        driver.find_element(By.ID, "workout-file").send_keys(str(workout_file(data)))
        screenshot(driver, "03-upload", full_page=False)
        driver.find_element(By.CSS_SELECTOR, "#upload-form button").click()
        wait.until(conditions.url_matches(r".*/workouts/[0-9a-f-]{36}$"))
        tiles = driver.find_element(By.CSS_SELECTOR, ".tiles").text
        assert "30:00" in tiles, tiles
        assert "km" in tiles, tiles
        charts = driver.find_elements(By.CSS_SELECTOR, "figure.chart svg")
        assert len(charts) == 3, f"heart rate, zones and route charts expected, found {len(charts)}"
        screenshot(driver, "04-workout-detail")

        # The list shows it; a phone-sized window still reads well.
        driver.set_window_size(1280, 900)
        driver.get(base + "/workouts")
        assert len(driver.find_elements(By.CSS_SELECTOR, "table.workouts tbody tr")) == 1
        screenshot(driver, "05-workouts", full_page=False)
        workout_url = driver.find_element(By.CSS_SELECTOR, "table.workouts a").get_attribute("href")
        driver.set_window_size(390, 844)
        driver.get(workout_url)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"the page scrolls sideways on a phone by {overflow}px"
        screenshot(driver, "06-workout-phone")
        driver.set_window_size(1280, 900)
        driver.get(base + "/friends")
        screenshot(driver, "07-friends", full_page=False)
        print("browser test passed")
    finally:
        if driver is not None:
            driver.quit()
        server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            raise SystemExit("the server did not stop within 30 s of SIGTERM")
        if status != 0:
            sys.stderr.write(server.stderr.read().decode()[-4000:])
            raise SystemExit(f"the server exited with status {status} after SIGTERM")


if __name__ == "__main__":
    main()
