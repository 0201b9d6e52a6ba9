#!/usr/bin/env python3
"""Drives the Heartwork web app in a real browser (Debian's Chromium, headless, through
Selenium and chromium-driver) through a new user's first minutes: sign up, the start page
with its next steps, a workout uploaded before the profile is complete, the profile (with
mistakes, then right), zones appearing on that earlier workout, a friend's shared workout in
the feed. Every page is checked with axe-core (no serious or critical violations) at desktop
and phone widths, and at both widths has no element wider than the viewport (outside a
container that scrolls sideways) and no overlapping text (layout.js, issue 28). Screenshots go
to artifacts/browser/, the layout findings to artifacts/browser/layout-<script>.json. Exits
non-zero on any failure.

    python3 Tests/Browser/browser_test.py [path/to/heartwork]

Needs selenium and axe-playwright-python (for its copy of axe-core; installed without its
Playwright dependency: pip install --no-deps axe-playwright-python).
"""
import json
import math
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from common import free_port, wait_for_health  # noqa: E402,F401  (shared; the other browser tests import them from here)
SHOTS = ROOT / "artifacts" / "browser"
DESKTOP, PHONE = (1280, 900), (390, 844)
LAYOUT = (pathlib.Path(__file__).resolve().parent / "layout.js").read_text()
# Every layout finding of this run (all Checks instances), written to SHOTS/layout-<script>.json.
LAYOUT_REPORT = {"pages": [], "failures": []}
REPORT_NAME = f"artifacts/browser/layout-{pathlib.Path(sys.argv[0]).stem}.json"
REPORT = ROOT / REPORT_NAME
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
SHOWN = 8  # findings of one kind listed per page and width; the JSON report has them all


def axe_script():
    import axe_playwright_python
    return (pathlib.Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


class API:
    """The JSON API, for a second user the test needs (a friend who shares a workout)."""

    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None, token=None):
        request = urllib.request.Request(self.base + path, method=method, data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return json.loads(text) if text else None


def small_png(size=64):
    """A 64 × 64 PNG, a warm circle on blue: a profile picture for the test's friend."""
    import struct
    import zlib
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 3) ** 2
            rows += bytes((230, 159, 0) if inside else (11, 107, 203))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")


def headless_chromium(size=DESKTOP):
    """Headless Chromium through Debian's chromedriver, at `size`."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={size[0]},{size[1]}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(*size)
    return driver


def demo_logins(server):
    """The demo's two logins from its first lines; the rest of stdout is drained."""
    found = {}
    user = None
    for line in server.stdout:
        text = line.strip()
        if text.startswith("username:"):
            user = text.split(":", 1)[1].strip()
        elif text.startswith("password:") and user:
            found[user] = text.split(":", 1)[1].strip()
        if len(found) == 2:
            break
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    if set(found) != {"demo", "coach"}:
        raise SystemExit(f"the demo did not print both logins: {sorted(found)}")
    return found


def demo_server(binary, prefix):
    """`heartwork serve --demo` on a free port in a fresh data folder, up and answering:
    (the process, its base URL, the demo's logins by username)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(binary), "serve", "--demo", "--port", str(port), "--data-dir", tempfile.mkdtemp(prefix=prefix)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    try:
        passwords = demo_logins(server)
        wait_for_health(base, server)
    except BaseException:
        server.kill()
        raise
    return server, base, passwords


def workout(start, minutes=30, resting=56, track=True):
    """A run: warm-up, steady effort, cool-down; a GPS loop with a hill."""
    seconds = minutes * 60
    heart_rate, bpm = [], 80.0
    for second in range(seconds):
        target = 165 if seconds * 0.17 < second < seconds * 0.83 else (120 if second <= seconds * 0.17 else 110)
        bpm += (target - bpm) / 25 + math.sin(second / 7) * 0.4
        heart_rate.append(round(bpm))
    body = {"sport": "running", "startTime": start, "indoor": not track, "heartRate": heart_rate,
            "rrIntervals": [round(60000 / heart_rate[min(seconds - 1, i // 2)], 2) for i in range(2 * seconds)]}
    if track:
        body["track"] = [{"lat": 48.2088 + 400 * math.sin(s * 3.0 / 400) / 111195, "lon": 16.3726 + 560 * math.cos(s * 3.0 / 400) / 74000,
                          "ele": 180 + 12 * math.sin(s * 3.0 / 400), "t": s} for s in range(0, seconds, 2)]
    return body


def submit(driver, selector, timeout=30):
    """Clicks a button that leaves the page and waits until the next page has replaced it
    (a form answered with errors stays at the same URL, so the URL alone does not tell)."""
    driver.execute_script("window.__leaving = true")
    driver.find_element(By.CSS_SELECTOR, selector).click()
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return window.__leaving !== true && document.readyState === 'complete'"))


def screenshot(driver, name, size=DESKTOP, full_page=True):
    driver.set_window_size(*size)
    if full_page:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(size[0], min(max(height + 120, size[1]), 6000))
    path = SHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(*size)
    print(f"screenshot {path.relative_to(ROOT)}")


class Checks:
    def __init__(self, driver):
        self.driver = driver
        self.axe = axe_script()
        self.failures = []

    def accessibility(self, name):
        """axe-core on the page as it is: serious and critical violations fail the test."""
        self.driver.execute_script(self.axe)
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations)).catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));")
        for violation in result:
            line = f"{name}: {violation['impact']} {violation['id']}: {violation['help']} ({len(violation['nodes'])} elements)"
            print("  axe " + line)
            if violation["impact"] in ("serious", "critical"):
                targets = ", ".join(str(node.get("target")) for node in violation["nodes"][:3])
                self.failures.append(f"{line}: {targets}")

    def no_sideways_scroll(self, name):
        overflow = self.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 1:
            self.failures.append(f"{name}: the page scrolls sideways on a phone by {overflow}px")

    def layout(self, name):
        """At the window's current width: no visible element reaches past the viewport's edge
        (unless it is inside a container that scrolls sideways: those are listed, not failed,
        for a look at their cue) and no two texts overlap, in the page or in one chart's SVG.
        Each finding names the page, the width, the element(s) and their rectangles
        ([x, y, width, height] in CSS px from the page's top left)."""
        driver = self.driver
        driver.execute_script("window.scrollTo({left: 0, top: 0, behavior: 'instant'})")
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done()))")
        result = driver.execute_script(LAYOUT + "\nreturn heartworkLayout();")
        window = driver.get_window_size()["width"]
        width = result["viewport"]
        url = driver.current_url
        path = re.sub(UUID, "…", url.split("//", 1)[-1].split("/", 1)[-1])
        where = f"{name} (/{path}) @ {window} px" + (f" (viewport {width} px)" if width != window else "")
        found = []

        def quote(item):
            return f"{item['element']} \"{item['text']}\" {item['rect']}" if item["text"] else f"{item['element']} {item['rect']}"

        if result["pageOverflow"] > 1:
            found.append(f"overflow: the page scrolls sideways by {result['pageOverflow']} px")
        for item in result["overflow"]:
            edge = f"x {item['left']}–{item['right']}, {item['past']} px past the edge"
            nested = f", with {item['descendants']} overflowing descendants" if item["descendants"] else ""
            cut = f", cut off by {item['clippedBy']}" if item["kind"] == "cut off" else ""
            found.append(f"overflow ({item['kind']}): {item['path']} \"{item['text']}\" {item['rect']} — {edge}{cut}{nested}")
        for pair in result["overlaps"]:
            found.append(f"overlapping text ({pair['by'][0]}×{pair['by'][1]} px): {quote(pair['a'])} text at {pair['aRect']} "
                         f"× {quote(pair['b'])} text at {pair['bRect']} (in {pair['a']['path']} | {pair['b']['path']})")
        for pair in result["svgOverlaps"]:
            found.append(f"overlapping chart labels ({pair['by'][0]}×{pair['by'][1]} px) in {pair['svg']}: "
                         f"\"{pair['a']['text']}\" {pair['aRect']} × \"{pair['b']['text']}\" {pair['bRect']}")
        for item in result["svgCut"]:
            found.append(f"chart label cut off by its drawing's edge: \"{item['text']}\" {item['rect']} outside {item['svg']} {item['svgRect']}")
        small = {}   # one line per chart (or per element outside charts)
        for item in result["smallText"]:
            small.setdefault(item.get("svg") or item["path"], []).append(item)
        for place, items in small.items():
            sizes = sorted(item["size"] for item in items)
            size = f"{sizes[0]}" if sizes[0] == sizes[-1] else f"{sizes[0]}–{sizes[-1]}"
            examples = ", ".join(f"\"{item['text']}\"" for item in items[:4]) + (", …" if len(items) > 4 else "")
            found.append(f"text too small to read: {len(items)} text(s) in {place} drawn at {size} px (under 9 px): {examples}")
        scrolling = {}
        for item in result["scrollers"]:
            line = (f"{re.sub(UUID, '…', item['path'])} scrolls sideways ({item['scrollWidth']} px in {item['clientWidth']} px)")
            scrolling[line] = scrolling.get(line, 0) + 1
        for line, count in scrolling.items():
            print(f"  scroll {where}: {line}" + (f" × {count}" if count > 1 else "") + " — allowed with a visible cue")
        LAYOUT_REPORT["pages"].append({"page": name, "window": window, "url": url, **result})
        repeated = {}   # the same finding many times over (e.g. stacked copies of one element) is one line
        for line in found:
            repeated[line] = repeated.get(line, 0) + 1
        kinds = {}
        for line, count in repeated.items():
            kind = re.sub(r" \(.*", "", line.split(":", 1)[0])
            kinds[kind] = kinds.get(kind, 0) + 1
            if kinds[kind] <= SHOWN:
                text = f"{where}: {line}" + (f" (× {count})" if count > 1 else "")
                self.failures.append(text)
                print(f"  layout {text}")
        for kind, count in kinds.items():
            if count > SHOWN:
                self.failures.append(f"{where}: … and {count - SHOWN} more {kind} findings (see {REPORT_NAME})")
        LAYOUT_REPORT["failures"] += [f"{where}: {line}" for line in found]
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(json.dumps(LAYOUT_REPORT, indent=1, ensure_ascii=False))

    def page(self, name, phone=True):
        """Screenshots at desktop and phone widths, with the accessibility and layout checks."""
        self.driver.set_window_size(*DESKTOP)
        self.layout(name)
        self.accessibility(name)
        screenshot(self.driver, f"{name}-desktop")
        if phone:
            self.driver.set_window_size(*PHONE)
            self.no_sideways_scroll(name)
            self.layout(name)
            self.accessibility(name + " (phone)")
            screenshot(self.driver, f"{name}-phone", size=PHONE)
            self.driver.set_window_size(*DESKTOP)


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-browser-")
    environment = dict(os.environ, HEARTWORK_BCRYPT_COST="4")
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={DESKTOP[0]},{DESKTOP[1]}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = None
    try:
        wait_for_health(base, server)
        api = API(base)
        # A friend-to-be with a shared workout.
        api.call("POST", "/api/auth/register", {"username": "pat", "fullName": "Pat Partner", "email": "pat@example.org", "password": "pat's password"})
        pat = api.call("POST", "/api/auth/login", {"username": "pat", "password": "pat's password"})["token"]
        api.call("PATCH", "/api/me", {"dateOfBirth": "1990-03-03", "sex": "male"}, token=pat)
        api.call("POST", "/api/me/resting-heart-rates", {"bpm": 50}, token=pat)
        shared = api.call("POST", "/api/workouts", workout("2026-11-19T17:00:00Z", minutes=20, track=False), token=pat)["summary"]["id"]
        api.call("PUT", f"/api/workouts/{shared}/share", token=pat)
        # Pat's profile picture (issue 25, HeartMate F26: the friends list shows pictures).
        picture = urllib.request.Request(base + "/api/me/photo", method="PUT", data=small_png(),
                                         headers={"Content-Type": "image/png", "Authorization": f"Bearer {pat}"})
        urllib.request.urlopen(picture, timeout=30).close()
        pat_id = api.call("GET", "/api/me", token=pat)["id"]

        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        wait = WebDriverWait(driver, 20)
        checks = Checks(driver)

        # A page that needs a session answers with the sign-in form.
        driver.get(base + "/workouts")
        assert "Sign in" in driver.find_element(By.TAG_NAME, "h1").text
        checks.page("00-sign-in")

        # Sign up: a mistake first (all fields at once), then right.
        driver.get(base + "/signup")
        driver.find_element(By.ID, "username").send_keys("x")
        driver.find_element(By.ID, "fullName").send_keys("Robin Browser")
        driver.find_element(By.ID, "email").send_keys("robin@")
        driver.find_element(By.ID, "password").send_keys("short")
        submit(driver, "form button[type=submit]")
        errors = driver.find_elements(By.CSS_SELECTOR, ".field-error")
        assert len(errors) == 3, f"three mistakes shown next to their fields, found {len(errors)}"
        assert driver.find_element(By.ID, "fullName").get_attribute("value") == "Robin Browser", "what was typed stays"
        assert driver.find_element(By.ID, "username").get_attribute("aria-invalid") == "true"
        checks.page("01-signup-errors")
        for field, value in [("username", "browser_runner"), ("email", "robin@example.org"), ("password", "correct horse battery")]:
            element = driver.find_element(By.ID, field)
            element.clear()
            element.send_keys(value)
        submit(driver, "form button[type=submit]")
        wait.until(conditions.url_matches(rf"^{base}/$"))

        # The start page: a welcome, what to do next, an empty week.
        body = driver.find_element(By.TAG_NAME, "main").text
        assert "Welcome" in body and "Get started" in body, body[:400]
        assert "Add your date of birth" in body and "No workouts in the last seven days" in body
        checks.page("02-dashboard-new")
        zone = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")

        # A workout before the profile is complete: no zones yet.
        driver.get(base + "/workouts/upload")
        path = pathlib.Path(data) / "morning-run.json"
        path.write_text(json.dumps(workout("2026-11-20T07:30:00Z")))
        driver.find_element(By.ID, "workout-file").send_keys(str(path))
        submit(driver, "#upload-form button")
        wait.until(conditions.url_matches(r".*/workouts/[0-9a-f-]{36}$"))
        workout_url = driver.current_url
        assert "No zones for this workout yet" in driver.page_source
        tiles = driver.find_element(By.CSS_SELECTOR, ".tiles").text
        assert "30:00" in tiles and "km" in tiles and "Climb" in tiles, tiles

        # The profile: mistakes are all shown and what was typed stays; then the right values.
        driver.get(base + "/profile")
        driver.execute_script("arguments[0].value = '1994-05-12'", driver.find_element(By.ID, "dateOfBirth"))
        driver.find_element(By.CSS_SELECTOR, "#sex option[value=female]").click()
        height = driver.find_element(By.ID, "heightMeters")
        height.send_keys("abc")
        email = driver.find_element(By.ID, "email")
        email.clear()
        email.send_keys("not-an-address")
        submit(driver, "form.grid-form button[type=submit]")
        assert len(driver.find_elements(By.CSS_SELECTOR, ".field-error")) == 2, "both mistakes shown"
        assert driver.find_element(By.ID, "heightMeters").get_attribute("value") == "abc"
        assert driver.find_element(By.ID, "email").get_attribute("value") == "not-an-address"
        checks.page("03-profile-errors")
        driver.execute_script("arguments[0].value = '1994-05-12'", driver.find_element(By.ID, "dateOfBirth"))
        height = driver.find_element(By.ID, "heightMeters")
        height.clear()
        height.send_keys("170")
        email = driver.find_element(By.ID, "email")
        email.clear()
        email.send_keys("robin@example.org")
        submit(driver, "form.grid-form button[type=submit]")
        wait.until(conditions.url_matches(r".*/profile$"))
        assert "Profile saved." in driver.page_source
        # Weight and resting heart rate are typed in the same form, and saved with it (issue 28).
        driver.find_element(By.ID, "bpm").send_keys("56")
        for value in ["63.4", "62.9"]:
            driver.find_element(By.ID, "weight").send_keys(value)
            submit(driver, "form.grid-form button[type=submit]")
            wait.until(conditions.url_matches(r".*/profile$"))
            assert "Profile saved." in driver.page_source
        assert "62.9" in driver.find_element(By.ID, "weight-history").text and "56 bpm" in driver.find_element(By.ID, "resting-history").text
        assert "Your zones" in driver.page_source, "zones appear once age and resting heart rate are known"
        selected = driver.find_element(By.CSS_SELECTOR, "#timeZone option:checked").get_attribute("value")
        assert selected == zone, f"the browser's time zone {zone} was kept at sign-up, found {selected!r}"
        driver.execute_script("window.scrollTo({left: 0, top: 0, behavior: 'instant'})")
        checks.page("04-profile")

        # The earlier workout now has zones, with their bounds in bpm, and a chart readout.
        driver.get(workout_url)
        assert "No zones for this workout yet" not in driver.page_source
        assert "Time in zones" in driver.page_source and "bpm" in driver.find_element(By.CSS_SELECTOR, ".zone-legend").text
        # Time charts come drawn twice, wide and narrow; the width of the page shows one of them.
        charts = [chart for chart in driver.find_elements(By.CSS_SELECTOR, "figure.chart svg") if chart.is_displayed()]
        assert len(charts) == 6, f"heart rate, zones, speed, elevation, route and Poincaré charts expected, found {len(charts)}"
        titles = [chart.get_attribute("aria-labelledby") for chart in charts]
        assert len(set(titles)) == len(titles), f"every chart has its own accessible name: {titles}"
        assert "RMSSD" in driver.page_source, "HRV of the workout's RR intervals"
        chart = charts[0]
        ActionChains(driver).move_to_element_with_offset(chart, 60, 0).perform()
        readout = driver.find_element(By.CSS_SELECTOR, "figure.chart .readout").text
        assert "bpm" in readout, f"the readout shows the value under the pointer: {readout!r}"
        checks.page("05-workout")

        # Friends: find Pat, ask; Pat accepts; the start page shows Pat's shared workout.
        driver.get(base + "/friends?q=pat")
        submit(driver, "form[action='/friends/requests'] button")
        wait.until(conditions.url_matches(r".*/friends$"))
        assert "Friend request sent." in driver.page_source
        incoming = api.call("GET", "/api/friend-requests/incoming", token=pat)["requests"]
        api.call("POST", f"/api/friend-requests/{incoming[0]['id']}/accept", token=pat)
        driver.get(base + "/friends")
        # Pat's picture beside the name, loaded (a friend may see it), inside the phone's width.
        picture = driver.find_element(By.CSS_SELECTOR, f".people a.who[href='/friends/{pat_id}'] .avatar img")
        assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", picture), "Pat's picture loads"
        checks.page("06-friends")
        # Pat's profile: the picture and the workout Pat shares (F30).
        driver.get(base + f"/friends/{pat_id}")
        assert driver.find_elements(By.CSS_SELECTOR, f"table.workouts a[href='/workouts/{shared}']"), "Pat's shared workout is on Pat's profile"
        checks.page("06b-friend-profile")
        driver.get(base + "/")
        feed = driver.find_element(By.CSS_SELECTOR, ".feed").text
        assert "Pat Partner" in feed, feed
        assert "Get started" not in driver.page_source, "every next step is done"
        checks.page("07-dashboard")

        # The list: a table on a desktop, cards on a phone.
        driver.get(base + "/workouts")
        assert len(driver.find_elements(By.CSS_SELECTOR, "table.workouts tbody tr")) == 1
        checks.page("08-workouts")

        # Several files at once (issue 13): a FIT ride and a Strava GPX walk from the format
        # tests' fixtures, and a file that is not an activity; a line per file.
        fixtures = ROOT / "Tests/HeartworkFormatsTests/Resources"
        notes = pathlib.Path(data) / "notes.gpx"
        notes.write_text("<gpx version='1.1'><trk><trkseg></trkseg></trk></gpx>")
        driver.get(base + "/workouts/upload")
        driver.find_element(By.ID, "workout-file").send_keys(
            "\n".join(str(p) for p in [fixtures / "fit/ride.fit", fixtures / "gpx/strava.gpx", notes]))
        driver.find_element(By.CSS_SELECTOR, "#upload-form button").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#upload-results li")) == 3)
        WebDriverWait(driver, 60).until(lambda d: "3" in d.find_element(By.ID, "upload-status").text or
                                        all(li.text.strip() for li in d.find_elements(By.CSS_SELECTOR, "#upload-results li")))
        results = driver.find_element(By.ID, "upload-results").text
        assert results.count("ride.fit") == 1 and "strava.gpx" in results and "notes.gpx" in results, results
        assert "no heart rate" in results, f"the failed file says why: {results}"
        checks.page("10-upload-several")
        driver.find_element(By.CSS_SELECTOR, "#upload-results a[href^='/workouts/']").click()
        wait.until(conditions.url_matches(r".*/workouts/[0-9a-f-]{36}$"))
        downloads = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a[href*='/export?format=']")]
        assert any("format=fit" in href for href in downloads) and any("format=gpx" in href for href in downloads), downloads
        checks.page("11-workout-downloads", phone=True)

        # A folder (issue 41: the README promised it; only the CLI had it): its activity files,
        # sub-folders too, uploaded; the rest left alone and counted. A Strong log chosen as a
        # workout is pointed to its import, not sent.
        folder = pathlib.Path(data) / "watch-folder"
        (folder / "2026" / "november").mkdir(parents=True, exist_ok=True)
        (folder / "2026" / "november" / "evening-run.json").write_text(json.dumps(workout("2026-11-21T18:00:00Z")))
        (folder / "strava.gpx").write_bytes((fixtures / "gpx/strava.gpx").read_bytes())
        (folder / "README.txt").write_text("not a workout")
        strong = pathlib.Path(data) / "strong.csv"
        strong.write_text("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n")
        driver.get(base + "/workouts/upload")
        page = driver.find_element(By.TAG_NAME, "main").text
        assert "Strength → Import" in page and "Health → Import" in page, page[:600]
        driver.find_element(By.ID, "workout-folder").send_keys(str(folder))
        WebDriverWait(driver, 60).until(lambda d: "left alone" in d.find_element(By.ID, "upload-status").text)
        results = driver.find_element(By.ID, "upload-results").text
        status_text = driver.find_element(By.ID, "upload-status").text
        assert "evening-run.json" in results and "strava.gpx" in results and "README.txt" not in results, results
        assert "already here" in results and "1 imported" in status_text and "1 other file in the folder left alone" in status_text, status_text
        checks.page("10b-upload-folder")
        driver.find_element(By.ID, "workout-file").send_keys(str(strong))
        driver.find_element(By.CSS_SELECTOR, "#upload-form button").click()
        WebDriverWait(driver, 30).until(lambda d: "strong.csv" in d.find_element(By.ID, "upload-results").text)
        pointer = driver.find_element(By.CSS_SELECTOR, "#upload-results li.error a")
        assert pointer.get_attribute("href").endswith("/strength/import") and "Strong or Hevy" in pointer.text, pointer.text

        # Settings: the whole account as a ZIP, and deletion needs the password.
        driver.get(base + "/settings")
        archive = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/settings/export').then(async r => done([r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength]))"
            ".catch(e => done([0, String(e), 0]));")
        assert archive[0] == 200 and archive[1] == "application/zip" and archive[2] > 1000, archive
        driver.find_element(By.ID, "deletePassword").send_keys("not my password")
        driver.execute_script("window.confirm = () => true")
        submit(driver, "form[action='/settings/delete'] button")
        assert "The password is wrong." in driver.page_source
        assert driver.find_element(By.ID, "deletePassword").get_attribute("aria-invalid") == "true"
        checks.page("12-settings-data")

        # A missing page keeps the signed-in header.
        driver.get(base + "/workouts/00000000-0000-0000-0000-000000000000")
        assert "Page not found" in driver.find_element(By.TAG_NAME, "h1").text
        assert driver.find_elements(By.CSS_SELECTOR, "header nav.wide a[href='/friends']"), "the header keeps the menu"
        checks.page("09-not-found")

        # Sign out says so.
        submit(driver, "header nav.wide form[action='/logout'] button")
        wait.until(conditions.url_contains("/login"))
        assert "You are signed out." in driver.page_source

        # Sign in with the e-mail (issue 25, iHeart Monitor's login), in another letter case;
        # a wrong password says only that one of the two is wrong.
        assert driver.find_element(By.CSS_SELECTOR, "label[for=username]").text == "Username or e-mail"
        driver.find_element(By.ID, "username").send_keys("Robin@Example.org")
        driver.find_element(By.ID, "password").send_keys("not the password")
        submit(driver, "form button[type=submit]")
        assert "Wrong username, e-mail or password" in driver.find_element(By.ID, "login-error").text
        assert driver.find_element(By.ID, "username").get_attribute("value") == "Robin@Example.org", "what was typed stays"
        checks.page("13-sign-in-email-wrong")
        driver.find_element(By.ID, "password").send_keys("correct horse battery")
        submit(driver, "form button[type=submit]")
        driver.get(base + "/profile")
        assert "Shared with your friends" in driver.page_source and "Sign in" not in driver.find_element(By.TAG_NAME, "h1").text
        submit(driver, "header nav.wide form[action='/logout'] button")
        wait.until(conditions.url_contains("/login"))

        # Delete the account for good: signed in again, the right password this time.
        driver.find_element(By.ID, "username").send_keys("browser_runner")
        driver.find_element(By.ID, "password").send_keys("correct horse battery")
        submit(driver, "form button[type=submit]")
        driver.get(base + "/settings")
        driver.find_element(By.ID, "deletePassword").send_keys("correct horse battery")
        driver.execute_script("window.confirm = () => true")
        submit(driver, "form[action='/settings/delete'] button")
        wait.until(conditions.url_contains("/login"))
        assert "Your account and everything in it were deleted." in driver.page_source
        try:
            api.call("POST", "/api/auth/login", {"username": "browser_runner", "password": "correct horse battery"})
            raise SystemExit("the deleted account can still sign in")
        except urllib.error.HTTPError as error:
            assert error.code == 401, error.code

        if checks.failures:
            raise SystemExit("browser test failed:\n  " + "\n  ".join(checks.failures))
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
