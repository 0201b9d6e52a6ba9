#!/usr/bin/env python3
"""A whole live match between two headless Chromium sessions (issues 10 and 23): Ann challenges
Bob from his friend page, Bob sees the notification badge rise without reloading and accepts
from the matches page, and both pages play one minute from a chest strap — a scripted
`navigator.bluetooth` stand-in, injected before each page loads, that plays real Heart Rate
Measurement bytes (0x2A37: 8-bit heart rate, skin contact, one RR interval) at the heart rate
the test sets (Ann's high, Bob's low). The stand-in covers what the page does with Web Bluetooth
(requestDevice, getDevices, GATT connect, notifications, battery); the radio, the chooser and
Chromium's own Bluetooth stack are not exercised. A match between friends has no slider (issue
23: no slider win); Bob leaves the page mid-match (the page warns first) and comes back 5 s
later, and the match goes on to its time (a drop is not a forfeit); both result pages show the
outcome (Ann won, Bob lost, the same scores the API gives) and both players' heart-rate graphs
and zone bars. Screenshots of the match, the result and the notifications pages at desktop and
phone widths, with axe-core checks, go to artifacts/browser/.

    python3 Tests/Browser/match_test.py [path/to/heartwork]
"""
import asyncio
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, DESKTOP, PHONE, ROOT, SHOTS, Checks, free_port, screenshot, submit, wait_for_health  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={DESKTOP[0]},{DESKTOP[1]}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("unhandledPromptBehavior", "accept")
    driver = webdriver.Chrome(options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": BLUETOOTH_STANDIN})
    return driver


def sign_in(driver, base, username, password):
    driver.get(base + "/login")
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(password)
    submit(driver, "form button[type=submit]")


# A chest strap as Web Bluetooth shows one, for the page's strap.js: four notifications a second
# of 0x16 <bpm> <RR, uint16 LE in 1/1024 s> (flags: skin contact detected, RR present), the
# heart rate from window.__strapBpm and one RR interval that agrees with it, varying by a few
# ms from beat to beat as a heart's do (a match checks both: docs/MATCHES.md); battery 87 %. After requestDevice, getDevices() returns it
# too (sessionStorage), as Chromium does for a granted device, so a reloaded page reconnects it.
BLUETOOTH_STANDIN = r"""
(() => {
  class Characteristic extends EventTarget {
    constructor(level) { super(); this.level = level; this.value = null; }
    async startNotifications() {
      clearInterval(this.timer);
      this.timer = setInterval(() => {
        const bpm = window.__strapBpm || 150;
        this.beat = (this.beat || 0) + 1;
        const rr = Math.round((60000 / bpm + [0, 6, -4, 9, -7, 3][this.beat % 6]) * 1.024);
        this.value = new DataView(new Uint8Array([0x16, bpm, rr & 0xff, rr >> 8]).buffer);
        this.dispatchEvent(new Event("characteristicvaluechanged"));
      }, 250);
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
    async requestDevice() { sessionStorage.setItem("standin-granted", "1"); return device; },
    async getDevices() { return sessionStorage.getItem("standin-granted") ? [device] : []; },
  }});
})();
"""


def connect_strap(driver, bpm):
    driver.execute_script("window.__strapBpm = arguments[0];", bpm)
    driver.find_element(By.CSS_SELECTOR, "[data-bluetooth]").click()
    WebDriverWait(driver, 10).until(lambda d: "connected" in d.find_element(By.CSS_SELECTOR, "[data-bluetooth-state]").text)


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-match-")
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    ann_browser = bob_browser = None
    failures = []
    try:
        wait_for_health(base, server)
        api = API(base)
        ids, tokens = {}, {}
        for name, full in [("ann", "Ann Runner"), ("bob", "Bob Racer")]:
            ids[name] = api.call("POST", "/api/auth/register", {"username": name, "fullName": full, "email": f"{name}@example.org", "password": "match password"})["id"]
            tokens[name] = api.call("POST", "/api/auth/login", {"username": name, "password": "match password"})["token"]
            api.call("PATCH", "/api/me", {"dateOfBirth": "1994-05-01", "sex": "female" if name == "ann" else "male"}, token=tokens[name])
            api.call("POST", "/api/me/resting-heart-rates", {"bpm": 60, "measuredAt": "2026-01-01T00:00:00Z"}, token=tokens[name])
        # Ann's gateway has heard a strap: the match page offers it (she keeps this page's slider).
        gateway = api.call("POST", "/api/gateways", {"name": "Ann's phone"}, token=tokens["ann"])

        async def one_reading():
            import websockets
            async with websockets.connect(f"ws://127.0.0.1:{port}/api/live/gateway?token={gateway['token']}") as socket_:
                await socket_.send(json.dumps({"type": "reading", "sensor": "C0:FF:EE:00:00:01", "seq": 1, "at": int(time.time() * 1000), "hrm": "06b4"}))
                await socket_.recv()
        asyncio.run(one_reading())
        api.call("POST", "/api/friend-requests", {"userID": ids["bob"]}, token=tokens["ann"])
        api.call("POST", "/api/friend-requests", {"userID": ids["ann"]}, token=tokens["bob"])

        ann_browser, bob_browser = browser(), browser()
        sign_in(ann_browser, base, "ann", "match password")
        sign_in(bob_browser, base, "bob", "match password")
        # Bob was told of Ann's friend request: he reads it, so the badge starts at zero.
        bob_browser.get(base + "/notifications")
        if "wants to be your friend" not in bob_browser.page_source:
            failures.append("Bob's notifications do not list Ann's friend request")
        submit(bob_browser, "form[action='/notifications/read'] button")
        bob_browser.get(base + "/matches")
        bob_checks, ann_checks = Checks(bob_browser), Checks(ann_browser)

        # Ann challenges Bob from his page: one minute.
        ann_browser.get(base + f"/friends/{ids['bob']}")
        Select(ann_browser.find_element(By.ID, "minutes")).select_by_value("1")
        submit(ann_browser, "form[action='/matches'] button")
        match_url = ann_browser.current_url
        match_id = match_url.rstrip("/").split("/")[-1]
        if "Waiting until" not in ann_browser.find_element(By.CSS_SELECTOR, "[data-lobby]").text:
            failures.append("Ann's page does not say it waits for Bob")
        if "C0:FF:EE:00:00:01" not in ann_browser.find_element(By.ID, "strap").text:
            failures.append("Ann's page does not offer the strap her gateway heard")

        # Bob's open page gets the badge and a notice without a reload.
        WebDriverWait(bob_browser, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-unread]").text.strip() not in ("", "0"))
        toast = WebDriverWait(bob_browser, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".toast"))
        if "challenges you" not in toast[0].text:
            failures.append(f"Bob's notice reads {toast[0].text!r}")
        bob_browser.get(base + "/notifications")
        bob_checks.page("40-notifications")
        bob_browser.get(base + "/matches")
        bob_checks.page("41-matches")
        # No slider in a match between friends: each side plays from a strap.
        if ann_browser.find_elements(By.CSS_SELECTOR, "[data-simulated]"):
            failures.append("a match between friends offers the slider")
        connect_strap(ann_browser, 185)
        submit(bob_browser, f"form[action='/matches/{match_id}/accept'] button")
        connect_strap(bob_browser, 110)

        # Both rooms count down, then play; Ann's zone climbs after 15 s.
        for driver in (ann_browser, bob_browser):
            WebDriverWait(driver, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-you-score]").text not in ("", "0")
                                            or d.find_element(By.CSS_SELECTOR, "[data-opponent-score]").text not in ("", "0"))
        WebDriverWait(ann_browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-events] li"))
        # Bob leaves the page mid-match: it warns first; he comes back 5 s later and plays on
        # (his strap reconnects without the chooser). Ann is told he is away, then back.
        warns = bob_browser.execute_script(
            "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented;")
        if not warns:
            failures.append("leaving the match page does not warn first")
        bob_browser.get(base + "/matches")  # the browser's "leave the page?" is accepted (unhandledPromptBehavior)
        WebDriverWait(bob_browser, 10).until(lambda d: "/matches/" not in d.current_url)
        WebDriverWait(ann_browser, 10).until(lambda d: "come back" in d.find_element(By.CSS_SELECTOR, "[data-connection]").text)
        time.sleep(5)
        bob_browser.get(match_url)
        WebDriverWait(bob_browser, 10).until(lambda d: "connected" in d.find_element(By.CSS_SELECTOR, "[data-bluetooth-state]").text)
        bob_browser.execute_script("window.__strapBpm = 110;")
        WebDriverWait(ann_browser, 10).until(lambda d: "is back" in d.find_element(By.CSS_SELECTOR, "[data-connection]").text)
        ann_checks.page("42-match-live")
        print("events heard by Ann:", [e.text for e in ann_browser.find_elements(By.CSS_SELECTOR, "[data-events] li")])


        # One minute later both pages reload to their result.
        for driver in (ann_browser, bob_browser):
            WebDriverWait(driver, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".result .outcome"))
        ann_outcome = ann_browser.find_element(By.CSS_SELECTOR, ".result .outcome").text
        bob_outcome = bob_browser.find_element(By.CSS_SELECTOR, ".result .outcome").text
        print("Ann:", ann_outcome, "| Bob:", bob_outcome)
        stored = api.call("GET", f"/api/matches/{match_id}", token=tokens["ann"])
        result = stored.get("result") or {}
        a, b = result.get("a", {}).get("score"), result.get("b", {}).get("score")
        if stored["state"] != "finished" or result.get("reason") != "time" or result.get("winner") != "a":
            failures.append(f"the stored match is {stored['state']} with {result}")
        if not ann_outcome.startswith(f"You won {a}–{b}"):
            failures.append(f"Ann's result page says {ann_outcome!r}, the API {a}–{b}")
        if not bob_outcome.startswith(f"You lost {b}–{a}"):
            failures.append(f"Bob's result page says {bob_outcome!r}, the API {b}–{a}")
        if stored.get("practice") is not False or result.get("a", {}).get("sources") != ["strap"] or result.get("b", {}).get("sources") != ["strap"]:
            failures.append(f"the match's sources are {result.get('a', {}).get('sources')} / {result.get('b', {}).get('sources')}, practice {stored.get('practice')}")
        if result.get("forfeitedBy"):
            failures.append(f"Bob's 5-s drop forfeited the match: {result}")
        bob_heart = result.get("b", {}).get("heartRate") or []
        if len(bob_heart) != 60 or sum(1 for v in bob_heart if v is None) < 3:
            failures.append(f"Bob's heart rate does not show the seconds he was away: {bob_heart}")
        # Both players see both graphs and both zone bars (seed-000 Fig. 5.26b).
        for driver, who in ((ann_browser, "Ann"), (bob_browser, "Bob")):
            sides = driver.find_elements(By.CSS_SELECTOR, ".match-side")
            if len(sides) != 2 or any(len(side.find_elements(By.CSS_SELECTOR, "svg")) < 2 for side in sides):
                failures.append(f"{who}'s result page shows {len(sides)} sides with graphs")
            if "chest strap (this device)" not in driver.page_source:
                failures.append(f"{who}'s result page does not say where the heart rate came from")
        ann_checks.page("43-match-result")
        bob_checks.page("44-match-result-bob")
        # Ann keeps her side as a workout; its page says which match it came from.
        submit(ann_browser, f"form[action='/matches/{match_id}/workout'] button")
        if "/workouts/" not in ann_browser.current_url or "From a match" not in ann_browser.page_source:
            failures.append(f"saving the match as a workout led to {ann_browser.current_url} without the match")
        ann_checks.page("45-workout-from-match")
        failures += ann_checks.failures + bob_checks.failures
        if failures:
            raise SystemExit("match test failed:\n  " + "\n  ".join(failures))
        print("match test passed")
    finally:
        for driver in (ann_browser, bob_browser):
            if driver:
                driver.quit()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
