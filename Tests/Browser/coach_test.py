#!/usr/bin/env python3
"""The coach's big screen in a real browser (issue 9): headless Chromium through Selenium
watches 30 live tiles change while `heartwork simulate gateway` streams 30 straps over the
gateway protocol; checks the tiles fit and are readable on a 1080p screen, that a session
starts, adds up TRIMP, stops and saves, that the page reconnects by itself (no reload) when
the server goes away and comes back, and that the web forms for teams, players and sensors
work. axe-core and the layout checks (nothing wider than the viewport, no overlapping text) on
every page at desktop and phone widths; screenshots to artifacts/browser/.

    python3 Tests/Browser/coach_test.py [path/to/heartwork]
"""
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
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

BIG = (1920, 1080)
STRAPS = 30
# Issue 25 (fitlab): the pages this helper touched, at phone and desktop width, for a look.
FITLAB_SHOTS = pathlib.Path("/tmp/shots/fitlab")


def fitlab_shot(driver, name):
    FITLAB_SHOTS.mkdir(parents=True, exist_ok=True)
    for width, size in (("390", PHONE), ("1280", DESKTOP)):
        driver.set_window_size(*size)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(size[0], min(max(height + 120, size[1]), 6000))
        driver.save_screenshot(str(FITLAB_SHOTS / f"{name}-{width}.png"))
    driver.set_window_size(*DESKTOP)


def start_server(binary, port, data):
    environment = dict(os.environ, HEARTWORK_BCRYPT_COST="4")
    return subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit("a process did not stop within 30 s of SIGTERM")


def tiles(driver):
    return {tile.get_attribute("data-sensor"): tile.find_element(By.CSS_SELECTOR, "[data-bpm]").text
            for tile in driver.find_elements(By.CSS_SELECTOR, ".player-tile")}


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-coach-")
    server = start_server(binary, port, data)
    simulator = None
    driver = None
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={BIG[0]},{BIG[1]}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    try:
        wait_for_health(base, server)
        api = API(base)
        api.call("POST", "/api/auth/register", {"username": "casey", "fullName": "Casey Coach", "email": "casey@example.org", "password": "coach password"})
        token = api.call("POST", "/api/auth/login", {"username": "casey", "password": "coach password"})["token"]
        gateway = api.call("POST", "/api/gateways", {"name": "Pitch-side"}, token=token)
        simulator = subprocess.Popen([str(binary), "simulate", "gateway", "--server", base, "--token", gateway["token"],
                                      "--sensors", str(STRAPS), "--minutes", "4"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while len(api.call("GET", "/api/sensors", token=token)["sensors"]) < STRAPS:
            if time.time() > deadline:
                raise SystemExit("the simulator's straps did not appear as sensors")
            time.sleep(0.5)
        sensors = api.call("GET", "/api/sensors", token=token)["sensors"]

        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_window_size(*DESKTOP)
        wait = WebDriverWait(driver, 20)
        checks = Checks(driver)
        driver.get(base + "/login")
        driver.find_element(By.ID, "username").send_keys("casey")
        driver.find_element(By.ID, "password").send_keys("coach password")
        submit(driver, "form button[type=submit]")

        # The web forms: a team, then a player with a mistake, then right, with a sensor.
        driver.get(base + "/teams")
        driver.find_element(By.ID, "team-name").send_keys("Under 21")
        submit(driver, "form[action='/teams'] button")
        team_url = driver.current_url
        team = re.search(r"/teams/([0-9a-f-]+)$", team_url).group(1)
        assert "Team created." in driver.page_source
        driver.get(base + "/teams")
        driver.find_element(By.CSS_SELECTOR, "details.add summary").click()
        driver.find_element(By.ID, "player-name").send_keys("Robin Keeper")
        driver.find_element(By.ID, "player-rest").send_keys("400")
        submit(driver, "form[action='/players'] button")
        assert "A resting heart rate is 25–150 bpm." in driver.page_source, "the mistake is shown"
        assert driver.find_element(By.ID, "player-name").get_attribute("value") == "Robin Keeper", "what was typed stays"
        field = driver.find_element(By.ID, "player-rest")
        field.clear()
        field.send_keys("52")
        Select(driver.find_element(By.ID, "player-team")).select_by_visible_text("Under 21")
        Select(driver.find_element(By.ID, "player-sensor")).select_by_index(1)
        submit(driver, "form[action='/players'] button")
        assert driver.current_url.endswith(f"/teams/{team}") and "Player added." in driver.page_source
        # The other 29 through the API, each with a strap.
        worn = {p["sensorID"] for p in api.call("GET", "/api/players", token=token)["players"]}
        free = [s for s in sensors if s["id"] not in worn]
        for index, sensor in enumerate(free[:STRAPS - 1]):
            api.call("POST", "/api/players", {"name": f"Player {index + 2}", "number": str(index + 2), "teamID": team, "sensorID": sensor["id"],
                                              "restingHeartRate": 50 + index % 10, "maximumHeartRate": 185 + index % 12,
                                              "sex": "female" if index % 2 else "male"}, token=token)
        driver.get(base + f"/teams/{team}")
        checks.page("20-team")
        driver.get(base + "/teams")
        checks.page("21-teams")

        # The big screen: 30 tiles on one 1080p screen, numbers a room can read, changing live.
        driver.set_window_size(*BIG)
        driver.get(base + f"/teams/{team}/live")
        driver.execute_script("window.__samePage = true")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").text == "Live")
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".player-tile:not(.stale)")) >= STRAPS - 3)
        assert len(driver.find_elements(By.CSS_SELECTOR, ".player-tile")) == STRAPS
        layout = driver.execute_script("""
            const tiles = [...document.querySelectorAll('.player-tile')];
            return {bottom: Math.max(...tiles.map(t => t.getBoundingClientRect().bottom)), height: window.innerHeight,
                    font: parseFloat(getComputedStyle(document.querySelector('.player-tile .bpm')).fontSize)};""")
        if layout["bottom"] > layout["height"]:
            driver.save_screenshot(str(SHOTS / "22-coach-screen-overflow.png"))
        assert layout["bottom"] <= layout["height"], f"30 tiles fit a 1080p screen: {layout}"
        assert layout["font"] >= 56, f"heart rates readable across a room: {layout}"
        before = tiles(driver)
        time.sleep(4)
        after = tiles(driver)
        changed = sum(1 for sensor, bpm in after.items() if bpm != before.get(sensor))
        assert changed >= STRAPS // 2, f"tiles change as readings arrive ({changed} of {STRAPS} changed)"
        assert all(re.fullmatch(r"\d+|–", bpm) for bpm in after.values()), after
        checks.layout("22-coach")
        screenshot(driver, "22-coach-1080p", size=BIG, full_page=False)
        checks.accessibility("22-coach")

        # A session: its context chosen first (FitLabTeam F8, issue 25), then start now; TRIMP
        # adds up, the clock runs.
        driver.find_element(By.CSS_SELECTOR, "details.session-context summary").click()
        Select(driver.find_element(By.ID, "context-time")).select_by_value("2h")
        Select(driver.find_element(By.ID, "context-moment")).select_by_value("After")
        Select(driver.find_element(By.ID, "context-situation")).select_by_value("Training")
        Select(driver.find_element(By.ID, "context-state")).select_by_value("Moving")
        fitlab_shot(driver, "coach-context")
        driver.set_window_size(*BIG)
        submit(driver, "form[action$='/sessions'] button")
        driver.execute_script("window.__samePage = true")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").text == "Live")
        time.sleep(5)
        trimp = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "[data-trimp]")]
        assert sum(1 for text in trimp if text.startswith("TRIMP ")) >= STRAPS - 3, trimp
        assert re.match(r"0:0\d", driver.find_element(By.CSS_SELECTOR, "[data-clock]").text), driver.find_element(By.CSS_SELECTOR, "[data-clock]").text

        # A network drop: the server goes away and comes back; the page reconnects by itself.
        stop(server)
        WebDriverWait(driver, 20).until(lambda d: "Connection lost" in d.find_element(By.CSS_SELECTOR, "[data-connection]").text)
        screenshot(driver, "23-coach-connection-lost", size=BIG, full_page=False)
        server = start_server(binary, port, data)
        wait_for_health(base, server)
        WebDriverWait(driver, 40).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").text == "Live")
        assert driver.execute_script("return window.__samePage === true"), "reconnected without reloading the page"
        WebDriverWait(driver, 40).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".player-tile:not(.stale)")) >= STRAPS - 3)
        screenshot(driver, "24-coach-recording", size=BIG, full_page=False)
        driver.set_window_size(*DESKTOP)
        checks.layout("24-coach")
        driver.set_window_size(*PHONE)
        checks.no_sideways_scroll("24-coach (phone)")
        checks.layout("24-coach")
        checks.accessibility("24-coach (phone)")
        screenshot(driver, "24-coach-phone", size=PHONE)
        driver.set_window_size(*BIG)

        # Stop, save, review.
        submit(driver, "form[action$='/stop'] button")
        submit(driver, "form[action$='/save'] button")
        assert "/team-sessions/" in driver.current_url and "Session saved." in driver.page_source
        rows = driver.find_elements(By.CSS_SELECTOR, "table.team-table tbody tr")
        assert len(rows) == STRAPS, f"the whole team side by side ({len(rows)} rows)"
        assert driver.find_elements(By.XPATH, "//*[name()='svg']/*[name()='title'][contains(., 'every player')]"), "the team's heart-rate chart"
        driver.set_window_size(*DESKTOP)
        checks.page("25-review")
        submit(driver, "form[action$='/reviewed'] button")
        assert "Mark as not reviewed" in driver.page_source

        # Issue 25: the context is shown and edited in review; the correction is chosen there.
        review_url = driver.current_url
        assert "2 h · After · Training · Moving" in driver.find_element(By.CSS_SELECTOR, "[data-context]").text
        driver.find_element(By.CSS_SELECTOR, "details.session-settings summary").click()
        Select(driver.find_element(By.ID, "context-situation")).select_by_value("Championship")
        submit(driver, "form[action$='/context'] button")
        assert "Session context saved." in driver.page_source
        assert driver.find_element(By.CSS_SELECTOR, "[data-context]").text == "2 h · After · Championship · Moving"
        driver.find_element(By.CSS_SELECTOR, "details.session-settings summary").click()
        Select(driver.find_element(By.ID, "correction")).select_by_value("fitlab")
        submit(driver, "form[action$='/correction'] button")
        assert "FitLab" in driver.find_element(By.CSS_SELECTOR, "[data-correction]").text
        assert "corrected with the FitLab (the seed's own corrector) method" in driver.page_source
        driver.find_element(By.CSS_SELECTOR, "details.session-settings summary").click()
        checks.page("26-review-context")
        fitlab_shot(driver, "review-context")

        # The team page lists the context and filters the sessions by it.
        driver.get(base + f"/teams/{team}")
        assert "2 h · After · Championship · Moving" in driver.page_source
        Select(driver.find_element(By.ID, "filter-situation")).select_by_value("Injury")
        submit(driver, "form.session-filter button")
        assert "No session has this context." in driver.page_source and "situation=Injury" in driver.current_url
        Select(driver.find_element(By.ID, "filter-situation")).select_by_value("Championship")
        submit(driver, "form.session-filter button")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#sessions tbody tr")) == 1
        checks.page("27-team-filter")
        fitlab_shot(driver, "team-filter")

        # Sensors (F2): connected or not, and a delete that asks about the readings and says
        # which was done.
        driver.get(base + "/teams#sensors")
        statuses = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "[data-sensor-status]")]
        assert len(statuses) == STRAPS and set(statuses) <= {"● Connected", "○ Not connected"} and "● Connected" in statuses, statuses
        driver.execute_script("document.querySelector('details.sensor-delete').open = true")
        checks.page("28-sensors")
        fitlab_shot(driver, "sensors")
        driver.get(base + "/teams#sensors")
        driver.execute_script("document.querySelector('details.sensor-delete').open = true")
        submit(driver, "details.sensor-delete form button")
        assert "choose whether to keep" in driver.page_source, "the choice is asked for"
        driver.find_element(By.CSS_SELECTOR, "details.sensor-delete[open] input[value=keep]").click()
        submit(driver, "details.sensor-delete[open] form button")
        assert "Its readings were kept" in driver.page_source
        assert len(driver.find_elements(By.CSS_SELECTOR, "[data-sensor-status]")) == STRAPS - 1
        fitlab_shot(driver, "sensor-deleted")
        driver.get(review_url)
        assert len(driver.find_elements(By.CSS_SELECTOR, "table.team-table tbody tr")) == STRAPS, "the session keeps its readings"

        if checks.failures:
            raise SystemExit("coach test failed:\n  " + "\n  ".join(checks.failures))
        print("coach test passed")
    finally:
        if driver is not None:
            driver.quit()
        if simulator is not None and simulator.poll() is None:
            simulator.kill()
        status = stop(server)
        if status != 0:
            sys.stderr.write(server.stderr.read().decode()[-4000:])
            raise SystemExit(f"the server exited with status {status} after SIGTERM")


if __name__ == "__main__":
    main()
