#!/usr/bin/env python3
"""Every page of the web app at 1280 px and 390 px (issue 28). `heartwork serve --demo` seeds
an athlete with six months of workouts, watch data, friends and strength sessions, and a coach
with a team, a live simulated gateway and a saved session; this walks every page the router
serves (signed out, as the athlete, as the coach), and at both widths checks that no element
is wider than the viewport (outside a container that scrolls sideways), that no text overlaps
other text (in the page and in each chart's SVG) and axe-core (no serious or critical
violations). The list of pages is checked against the router's GET routes in
Sources/HeartworkServer/Web/*.swift, so a new page without a visit here fails. Screenshots go
to artifacts/browser/pages-*.png, every finding to artifacts/browser/layout-pages_test.json.

    python3 Tests/Browser/pages_test.py [path/to/heartwork]
"""
import pathlib
import re
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, DESKTOP, LAYOUT, LAYOUT_REPORT, PHONE, REPORT_NAME, ROOT, SHOTS, UUID, Checks, demo_server, headless_chromium, submit  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# GET routes that are not pages: files and downloads.
NOT_PAGES = {"static/:file", "settings/export", "manifest.webmanifest", "sw.js"}


def routes():
    """The web router's GET paths, e.g. "friends/:userID"."""
    found = set()
    for source in (ROOT / "Sources" / "HeartworkServer" / "Web").glob("*.swift"):
        found.update(re.findall(r'(?:router|signedIn)\.get\("([^"]*)"\)', source.read_text()))
    return {route.strip("/") for route in found} - NOT_PAGES


def matches(route, path):
    pattern = "/".join("[^/]+" if part.startswith(":") else re.escape(part) for part in route.split("/")) if route else ""
    return re.fullmatch(pattern, path.strip("/")) is not None


def self_test(driver):
    """The checks find what layout-fixture.html plants, and nothing it hides or allows."""
    driver.set_window_size(*PHONE)
    driver.get((pathlib.Path(__file__).resolve().parent / "layout-fixture.html").as_uri())
    result = driver.execute_script(LAYOUT + "\nreturn heartworkLayout();")
    found = {
        "overflow": sorted(item["element"] for item in result["overflow"]),
        "kinds": sorted(item["kind"] for item in result["overflow"]),
        "scrollers": [item["element"] for item in result["scrollers"]],
        "overlaps": sorted(sorted([pair["a"]["element"], pair["b"]["element"]]) for pair in result["overlaps"]),
        "svgOverlaps": [sorted([pair["a"]["text"], pair["b"]["text"]]) for pair in result["svgOverlaps"]],
        "svgCut": [item["text"] for item in result["svgCut"]],
        "smallText": [item["text"] for item in result["smallText"]],
    }
    expected = {
        "overflow": ["div#cut", "div#wide"], "kinds": ["cut off", "wider than the viewport"], "scrollers": ["div#scroller"],
        "overlaps": [["input#field", "span#label"], ["span#a", "span#b"]], "svgOverlaps": [["10:00", "12:00"]], "svgCut": ["Time (min)"], "smallText": ["Heart rate"],
    }
    wrong = {key: (found[key], expected[key]) for key in expected if found[key] != expected[key]}
    if wrong:
        raise SystemExit("layout.js does not find what layout-fixture.html plants (found, expected): " + repr(wrong))
    driver.set_window_size(*DESKTOP)


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    started = time.time()
    server, base, passwords = demo_server(binary, "heartwork-pages-")
    driver = None
    failures = []
    visited = []
    try:
        api = API(base)
        token = api.call("POST", "/api/auth/login", {"username": "demo", "password": passwords["demo"]})["token"]

        driver = headless_chromium(DESKTOP)
        self_test(driver)
        checks = Checks(driver)

        def visit(name, path=None):
            """Opens path (or stays on the page the flow left) and checks it at both widths."""
            if path is not None:
                driver.get(base + path)
            current = urllib.parse.urlparse(driver.current_url)
            if current.path in ("/login",) and path not in ("/login", None):
                failures.append(f"pages-{name}: {path} answered with the sign-in page")
            visited.append(current.path)
            checks.page(f"pages-{name}")

        def sign_in(username):
            driver.delete_all_cookies()
            driver.get(base + "/login")
            driver.find_element(By.ID, "username").send_keys(username)
            driver.find_element(By.ID, "password").send_keys(passwords[username])
            submit(driver, "form button[type=submit]")

        def first_link(path, selector):
            driver.get(base + path)
            links = driver.find_elements(By.CSS_SELECTOR, selector)
            if not links:
                failures.append(f"{path} has no link matching {selector}")
                return None
            return urllib.parse.urlparse(links[0].get_attribute("href")).path

        # Signed out.
        visit("home", "/")
        visit("sign-in", "/login")
        visit("signup", "/signup")
        visit("not-found-signed-out", "/no-such-page")

        # The athlete: six months of everything.
        sign_in("demo")
        visit("dashboard", "/")
        visit("workouts", "/workouts")
        workout = first_link("/workouts", f"main a[href^='/workouts/']:not([href$='upload'])")
        if workout:
            visit("workout", workout)
        visit("upload", "/workouts/upload")
        visit("record", "/record")
        visit("friends", "/friends")
        visit("friends-search", "/friends?q=sam")
        friends = api.call("GET", "/api/friends", token=token)["friends"]
        friend = next(f for f in friends if f["username"] == "alex")
        visit("friend", f"/friends/{friend['id']}")
        # A challenge from the friend's page: the match's lobby, then the list with it.
        Select(driver.find_element(By.ID, "minutes")).select_by_value("1")
        submit(driver, "form[action='/matches'] button")
        if not re.search(rf"/matches/{UUID}$", driver.current_url):
            failures.append(f"challenging a friend led to {driver.current_url}")
        visit("match-lobby")
        visit("matches", "/matches")
        visit("notifications", "/notifications")
        visit("profile", "/profile")
        visit("settings", "/settings")
        visit("today", "/today")
        visit("health-week", "/health/week")
        for name in ("day", "week", "month"):
            visit(f"health-history-{name}", f"/health/history?range={name}")
        visit("health-import", "/health/import")
        visit("food", "/food")
        visit("nutrition", "/nutrition")
        visit("strength", "/strength")
        visit("strength-disclaimer", "/strength/disclaimer")
        visit("strength-exercises", "/strength/exercises")
        visit("strength-exercise", "/strength/exercises/barbell-bench-press")
        visit("strength-routine-new", "/strength/routines/new")
        visit("strength-routine-builtin", "/strength/routines/full-body-maintenance")
        routine = api.call("POST", "/api/routines", {"name": "Demo's own push day", "goal": "MassGain",
                                                     "exercises": ["barbell-bench-press", "dumbbell-lateral-raise", "plank"]}, token=token)
        visit("strength-routine-edit", f"/strength/routines/{routine['id']}/edit")
        finished = api.call("GET", "/api/strength/sessions", token=token)["sessions"][0]
        visit("strength-session-finished", f"/strength/sessions/{finished['id']}")
        running = api.call("POST", "/api/strength/sessions", {"routine": routine["id"]}, token=token)
        visit("strength-session-running", f"/strength/sessions/{running['id']}")
        visit("strength-history", "/strength/history")
        visit("strength-settings", "/strength/settings")
        visit("strength-import", "/strength/import")
        visit("strength-goals", "/strength/goals")
        visit("teams-empty", "/teams")
        visit("gateway", "/gateway")
        visit("not-found", "/workouts/00000000-0000-0000-0000-000000000000")

        # The coach: a team of twelve, a live gateway, a saved session.
        sign_in("coach")
        visit("coach-dashboard", "/")
        visit("teams", "/teams")
        team = first_link("/teams", f"main a[href^='/teams/']:not([href$='/live'])")
        if team:
            visit("team", team)
            visit("team-live", team + "/live")
        review = first_link(team or "/teams", "main a[href^='/team-sessions/']")
        if review:
            visit("team-session", review)
        player = first_link(team or "/teams", "main a[href^='/players/']")
        if player:
            visit("player", player)

        missing = sorted(route or "/" for route in routes() if not any(matches(route, path) for path in visited))
        if missing:
            failures.append("pages the router serves that this test does not visit: " + ", ".join(missing))
        failures = checks.failures + failures
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    scrolling = {}
    for page in LAYOUT_REPORT["pages"]:
        for item in page["scrollers"]:
            key = f"{re.sub(UUID, '…', item['path'])} ({item['scrollWidth']} px in {item['clientWidth']} px)"
            scrolling.setdefault(key, set()).add(f"{page['page'].removeprefix('pages-')} @ {page['window']}")
    if scrolling:
        print("Containers that scroll sideways (allowed with a visible cue that there is more; look at the screenshots):")
        for key, where in sorted(scrolling.items()):
            print(f"  {key}: {', '.join(sorted(where))}")
    print(f"{len(visited)} pages at 1280 and 390 px in {time.time() - started:.0f} s; every finding in {REPORT_NAME}")
    if failures:
        raise SystemExit(f"pages test failed: {len(failures)} problems\n  " + "\n  ".join(failures))
    print("pages test passed")


if __name__ == "__main__":
    main()
