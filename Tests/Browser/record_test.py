#!/usr/bin/env python3
"""Recording a workout live at /record (issue 23) in headless Chromium: a scripted
`navigator.bluetooth` stand-in, injected before the page loads, plays real Heart Rate
Measurement bytes (0x2A37: flags 0x16 — 8-bit heart rate, skin contact detected, RR present —
the bpm, and one RR interval in 1/1024 s matching that bpm) once a second, climbing from 100 to
178 bpm; Chromium's location is set outdoors (`Emulation.setGeolocationOverride`) and moved
every few seconds. The page records, is reloaded in the middle (the recording goes on from
IndexedDB, the strap reconnects without the chooser), loses the network for ~8 s
(`Network.emulateNetworkConditions` offline: the chunks wait in the browser, then go), and is
ended with the confirmation, after a pause of 4 s. The workout then exists with every second the page recorded,
once: its heart-rate seconds are exactly the samples the server stored, each the bpm the strap
played at that second, its RR intervals are the strap's, and it has a route. Screenshots of
/record at 1280 and 390 px, set up and recording, with axe-core checks, go to artifacts/browser/.

    python3 Tests/Browser/record_test.py [path/to/heartwork]
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, DESKTOP, PHONE, ROOT, SHOTS, Checks, free_port, screenshot, submit, wait_for_health  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# The strap: one notification a second, bpm = 100 + (seconds since the page's first connect
# in this tab, kept in sessionStorage so a reload goes on climbing) up to 178. Every reading's
# bpm is recorded in window.__played (by Unix second) for the test to compare.
BLUETOOTH_STANDIN = r"""
(() => {
  function bpmAt(ms) {
    const origin = Number(sessionStorage.getItem("standin-origin") || ms);
    return Math.min(178, 100 + Math.floor((ms - origin) / 1000));
  }
  class Characteristic extends EventTarget {
    constructor(level) { super(); this.level = level; this.value = null; }
    async startNotifications() {
      clearInterval(this.timer);
      this.timer = setInterval(() => {
        const now = Date.now();
        const bpm = bpmAt(now);
        const rr = Math.round(60 * 1024 / bpm);
        this.value = new DataView(new Uint8Array([0x16, bpm, rr & 0xff, rr >> 8]).buffer);
        this.dispatchEvent(new Event("characteristicvaluechanged"));
      }, 1000);
      return this;
    }
    async readValue() { return new DataView(new Uint8Array([this.level]).buffer); }
  }
  class Device extends EventTarget {
    constructor() {
      super();
      this.id = "standin-strap-1";
      this.name = "Polar H10 STANDIN";
      const heartRate = new Characteristic(0), battery = new Characteristic(87);
      const server = {
        connected: false,
        async getPrimaryService(name) {
          if (name === "heart_rate") return { getCharacteristic: async () => heartRate };
          if (name === "battery_service") return { getCharacteristic: async () => battery };
          throw new DOMException("no such service", "NotFoundError");
        },
      };
      this.gatt = {
        get connected() { return server.connected; },
        async connect() { server.connected = true; return server; },
        disconnect() { server.connected = false; clearInterval(heartRate.timer); },
      };
    }
  }
  const device = new Device();
  Object.defineProperty(navigator, "bluetooth", { value: {
    async requestDevice() {
      sessionStorage.setItem("standin-granted", "1");
      if (!sessionStorage.getItem("standin-origin")) sessionStorage.setItem("standin-origin", String(Date.now()));
      return device;
    },
    async getDevices() { return sessionStorage.getItem("standin-granted") ? [device] : []; },
  }});
})();
"""


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={DESKTOP[0]},{DESKTOP[1]}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("unhandledPromptBehavior", "accept")
    driver = webdriver.Chrome(options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": BLUETOOTH_STANDIN})
    return driver


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    started = time.time()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-record-")
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    driver = None
    failures = []
    try:
        wait_for_health(base, server)
        api = API(base)
        api.call("POST", "/api/auth/register", {"username": "rita", "fullName": "Rita Recorder", "email": "rita@example.org", "password": "record password"})
        token = api.call("POST", "/api/auth/login", {"username": "rita", "password": "record password"})["token"]
        api.call("PATCH", "/api/me", {"dateOfBirth": "1990-03-01", "sex": "female"}, token=token)
        api.call("POST", "/api/me/resting-heart-rates", {"bpm": 60, "measuredAt": "2026-01-01T00:00:00Z"}, token=token)
        api.call("POST", "/api/me/weights", {"kilograms": 62, "measuredAt": "2026-01-01T00:00:00Z"}, token=token)

        driver = browser()
        checks = Checks(driver)
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
        latitude = 48.2000

        def move(step):
            driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude + step * 0.0002, "longitude": 16.37, "accuracy": 5})

        move(0)
        driver.get(base + "/login")
        driver.find_element(By.ID, "username").send_keys("rita")
        driver.find_element(By.ID, "password").send_keys("record password")
        submit(driver, "form button[type=submit]")
        driver.get(base + "/record")
        checks.page("60-record-setup")

        driver.find_element(By.CSS_SELECTOR, "input[name=place][value=outdoor]").click()
        driver.find_element(By.CSS_SELECTOR, "[data-start]").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-live]").is_displayed())
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-bpm]").text not in ("", "–"))

        def recording_id():
            return driver.execute_async_script("""
              const done = arguments[arguments.length - 1];
              const user = document.querySelector('meta[name="heartwork-user"]').content;
              const open = indexedDB.open("heartwork-record:" + user, 1);
              open.onsuccess = () => { const r = open.result.transaction("recordings").objectStore("recordings").getAll();
                r.onsuccess = () => done(r.result.length ? r.result[0].id : null); };""")

        for step in range(1, 6):
            time.sleep(2)
            move(step)
        # A reload in the middle: the recording goes on where it was.
        before = driver.find_element(By.CSS_SELECTOR, "[data-elapsed]").text
        rid = recording_id()
        driver.refresh()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-live]").is_displayed())
        WebDriverWait(driver, 10).until(lambda d: "Connected" in d.find_element(By.CSS_SELECTOR, "[data-strap-status]").text)
        if recording_id() != rid:
            failures.append("after the reload the page recorded under another id")
        after = driver.find_element(By.CSS_SELECTOR, "[data-elapsed]").text
        if after in ("0:00", "0:01"):
            failures.append(f"after the reload the clock started over ({before} → {after})")
        for step in range(6, 9):
            time.sleep(2)
            move(step)
        # The network goes for 8 s: nothing is lost, nothing is sent twice.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        for step in range(9, 13):
            time.sleep(2)
            move(step)
        offline_text = driver.find_element(By.CSS_SELECTOR, "[data-sync]").text
        if "device" not in offline_text:
            failures.append(f"offline, the page says {offline_text!r}")
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        for step in range(13, 15):
            time.sleep(2)
            move(step)
        # A pause of 4 s: no samples, and the clock stands still.
        driver.find_element(By.CSS_SELECTOR, "[data-pause]").click()
        paused_at = driver.find_element(By.CSS_SELECTOR, "[data-elapsed]").text
        if driver.find_element(By.CSS_SELECTOR, "[data-state]").text != "Paused":
            failures.append("the page does not say it is paused")
        time.sleep(4)
        if driver.find_element(By.CSS_SELECTOR, "[data-elapsed]").text != paused_at:
            failures.append("the clock ran during the pause")
        driver.find_element(By.CSS_SELECTOR, "[data-pause]").click()
        for step in range(15, 18):
            time.sleep(2)
            move(step)
        if driver.find_element(By.CSS_SELECTOR, "[data-zone]").text in ("", "–"):
            failures.append("no zone is shown")
        if driver.find_element(By.CSS_SELECTOR, "[data-kcal]").text in ("", "–"):
            failures.append("no calories are shown")
        if driver.find_element(By.CSS_SELECTOR, "[data-distance]").text in ("", "0.00"):
            failures.append("no distance outdoors")
        checks.page("61-record-live")

        # End, with the confirmation ("Keep going" first keeps recording).
        driver.find_element(By.CSS_SELECTOR, "[data-end]").click()
        driver.find_element(By.CSS_SELECTOR, "[data-confirm-cancel]").click()
        if not driver.find_element(By.CSS_SELECTOR, "[data-live]").is_displayed():
            failures.append("Keep going did not keep going")
        time.sleep(1.5)
        recorded = api.call("GET", f"/api/recordings/{rid}", token=token)
        driver.find_element(By.CSS_SELECTOR, "[data-end]").click()
        screenshot(driver, "62-record-end-confirm-phone", PHONE)
        driver.set_window_size(*DESKTOP)
        driver.find_element(By.CSS_SELECTOR, "[data-confirm-end]").click()
        WebDriverWait(driver, 30).until(lambda d: "/workouts/" in d.current_url)
        workout_id = driver.current_url.rstrip("/").split("/")[-1]
        finished = api.call("GET", f"/api/recordings/{rid}", token=token)
        workout = api.call("GET", f"/api/workouts/{workout_id}", token=token)
        heart_rate = workout["heartRate"]
        seconds = [bpm for bpm in heart_rate if bpm is not None]
        elapsed = len(heart_rate)
        print(f"recording {rid}: {finished['chunks']} chunks were stored, {finished['samples']} samples "
              f"({recorded['samples']} before the end); the workout has {elapsed} s, {len(seconds)} with a heart rate, "
              f"{len(workout['rrIntervals'])} RR intervals, {len(workout['track'])} track points")
        if finished.get("workoutID") != workout_id:
            failures.append(f"the recording names workout {finished.get('workoutID')}, the page went to {workout_id}")
        # Every sample the page sent is one second of the workout, and no second twice (a
        # sample without a reading — the first second, before the strap's first notification —
        # is an empty second).
        # (a sample without a reading: the first second, and those while the strap reconnects
        # after the reload.) No second twice: never more samples than seconds.
        if not finished["samples"] - 4 <= len(seconds) <= finished["samples"]:
            failures.append(f"{len(seconds)} seconds with a heart rate for {finished['samples']} samples stored")
        gaps = [i for i, bpm in enumerate(heart_rate) if bpm is None]
        if not elapsed - 8 <= finished["samples"] <= elapsed - 3:
            failures.append(f"{finished['samples']} samples stored for a workout of {elapsed} s with a 4-s pause (empty seconds {gaps})")
        if finished["samples"] < recorded["samples"]:
            failures.append(f"the end stored fewer samples ({finished['samples']}) than were stored before it ({recorded['samples']})")
        # Seconds lost: only those while the page was reloading (at most 3) and the first
        # second or two before the first reading.
        if len(seconds) < elapsed - 11:
            failures.append(f"only {len(seconds)} of {elapsed} seconds have a heart rate")
        if elapsed < 30:
            failures.append(f"the workout is {elapsed} s long; the page recorded for more than 30 s")
        # The strap climbs one bpm a second: each recorded second is its neighbour + 1 (or
        # the same when a reading fell in the next second), never a repeat of a far one.
        jumps = [(i, a, b) for i, (a, b) in enumerate(zip(heart_rate, heart_rate[1:])) if a is not None and b is not None and not 0 <= b - a <= 2]
        if jumps:
            failures.append(f"seconds out of order or duplicated: {jumps[:5]}")
        # One beat a second from the strap: as many RR intervals as seconds with a reading
        # (none from before the start or from the pause).
        if abs(len(workout["rrIntervals"]) - len(seconds)) > 3:
            failures.append(f"{len(workout['rrIntervals'])} RR intervals for {len(seconds)} seconds with a reading")
        if len(workout["track"]) < 10:
            failures.append(f"only {len(workout['track'])} track points outdoors")
        summary = workout.get("summary", workout)
        if not (summary.get("kilocalories") or 0) > 0:
            failures.append(f"no calories in the workout: {summary.get('kilocalories')}")
        if api.call("GET", "/api/recordings", token=token)["recordings"]:
            failures.append("the finished recording is still listed as unfinished")
        # Signing out removes the offline copies of /gateway and /record (they are this user's
        # pages), so the next person on this device never sees them.
        driver.get(base + "/record")
        WebDriverWait(driver, 10).until(lambda d: d.execute_async_script(
            "const done = arguments[0]; caches.match('/record').then((page) => done(page !== undefined));"))
        driver.execute_script("document.querySelector(\"form[action='/logout']\").requestSubmit();")
        WebDriverWait(driver, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "meta[name='heartwork-user']"))
        try:
            WebDriverWait(driver, 10).until(lambda d: d.execute_async_script(
                "const done = arguments[0]; caches.match('/record').then((page) => done(page === undefined));"))
        except Exception:
            failures.append("the offline copies of the signed-in pages outlive the sign-out")
        failures = checks.failures + failures
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"record test in {time.time() - started:.0f} s")
    if failures:
        raise SystemExit("record test failed:\n  " + "\n  ".join(failures))
    print("record test passed")


if __name__ == "__main__":
    main()
