#!/usr/bin/env python3
"""/gateway (issue 23): a browser as a gateway, in headless Chromium through Selenium.

What drives the straps. Debian's Chromium (156) answers `BluetoothEmulation.enable` only on
the browser's own DevTools target, not on a page's, and its emulated peripherals cannot send
GATT notifications, so the heart rate measurements a gateway lives on cannot be played through
it. This test therefore injects a scripted `navigator.bluetooth` stand-in before the page
loads (Page.addScriptToEvaluateOnNewDocument): requestDevice (the chooser picks the strap
the test queued, and checks the page asked for the heart_rate service with battery_service
optional), getDevices (what the site was allowed, kept across reloads as a browser does),
GATT connect (which fails while the test keeps a strap out of reach), notifications on
0x2A37 with the exact bytes the test plays (8-bit with contact and RR, 16-bit without
contact information, 16-bit with energy expended and two RR, contact lost), the battery level
(0x2A19) and advertisements with an RSSI for one strap. Everything above it is the real page:
static/strap.js (parsing, the 5 s × 10 reconnect policy), static/outbox.js (IndexedDB outbox,
the gateway socket, acks, backoff), static/gateway.js, the service worker and the server.

It checks: the message without Web Bluetooth; a revoked gateway (1008, then 401) stops the
page from reconnecting and brings back the naming step; naming the device creates a gateway (POST
/api/gateways with the session) whose token stays in the browser; manifest and service
worker served and registered; per-strap bpm, contact, battery, "last heard" and states
(connected; reconnecting n of 10 — the first pause timed at 5 s, then the test's clock plays
the remaining 5 s pauses at 0.1 s; gave up; Try again); a server killed in the middle and a
page reload while it is down (the page then comes from the service worker, offline) lose
nothing and duplicate nothing: the server's RR intervals (PROTOCOL §7) are exactly the ones
played, in order, and every frame the page sent carries one seq per reading, increasing. (Chromium's
Network.emulateNetworkConditions offline does not touch an open WebSocket, so the cut is the
server itself, killed with SIGKILL and restarted on the same port; before it, the stand-in
drops the acks of four stored readings, as a cut would, so they are sent again.)
Screenshots of /gateway at 1280 and 390 px go to artifacts/browser/gateway-*.png.

    python3 Tests/Browser/gateway_test.py [path/to/heartwork]
"""
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_test import API, ROOT, SHOTS, Checks, free_port, headless_chromium, screenshot, submit, wait_for_health  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# The stand-in. Straps: A (8-bit, contact, RR, battery 81, RSSI -61) and B (16-bit, battery 55,
# no advertisements). The test plays bytes with window.__bt.play(name, hex).
STAND_IN = r"""
(() => {
  const HR = "0000180d-0000-1000-8000-00805f9b34fb", BAT = "0000180f-0000-1000-8000-00805f9b34fb";
  const alias = { heart_rate: HR, battery_service: BAT, heart_rate_measurement: "2a37", battery_level: "2a19" };
  const granted = () => JSON.parse(localStorage.getItem("__bt_granted") || "[]");
  const specs = { A: { id: "c3RyYXAtQS1pZA==", name: "Polar H10 A1B2C3D4", battery: 81, rssi: -61 },
                  B: { id: "c3RyYXAtQi1pZA==", name: "HRM-Pro:123456", battery: 55, rssi: null } };
  // The test's clock: the reconnect policy's 5 s pauses, shortened when asked.
  const realTimeout = window.setTimeout.bind(window);
  window.setTimeout = (fn, ms, ...rest) => realTimeout(fn, ms === 5000 && window.__bt.fast ? 100 : ms, ...rest);
  // Every frame the page sends, kept across reloads.
  const realSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (this.url.includes("/api/live/gateway")) {
      const frames = JSON.parse(localStorage.getItem("__frames") || "[]");
      frames.push(data);
      localStorage.setItem("__frames", JSON.stringify(frames));
    }
    return realSend.call(this, data);
  };
  // Acknowledgements lost on the way (a network cut after the server stored the readings).
  const realAdd = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, ...rest) {
    if (type !== "message" || !this.url.includes("/api/live/gateway")) return realAdd.call(this, type, listener, ...rest);
    return realAdd.call(this, type, (event) => { if (!(window.__bt.dropAcks && event.data.includes('"ack"'))) listener(event); }, ...rest);
  };
  class Characteristic extends EventTarget {
    constructor(uuid, device) { super(); this.uuid = uuid; this.device = device; this.value = null; this.notifying = false; }
    async startNotifications() { this.notifying = true; return this; }
    async readValue() {
      if (!this.device.gatt.connected) throw new DOMException("GATT Server is disconnected.", "NetworkError");
      return new DataView(new Uint8Array([this.device.spec.battery]).buffer);
    }
  }
  class Service {
    constructor(uuid, characteristics) { this.uuid = uuid; this.characteristics = characteristics; }
    async getCharacteristic(name) {
      const c = this.characteristics[alias[name] || name];
      if (!c) throw new DOMException("No characteristic " + name, "NotFoundError");
      return c;
    }
  }
  class Device extends EventTarget {
    constructor(key) {
      super();
      const spec = specs[key];
      this.key = key; this.spec = spec; this.id = spec.id; this.name = spec.name;
      this.measurement = new Characteristic("2a37", this);
      const services = { [HR]: new Service(HR, { "2a37": this.measurement }), [BAT]: new Service(BAT, { "2a19": new Characteristic("2a19", this) }) };
      const device = this;
      this.gatt = {
        connected: false, device,
        async connect() {
          window.__bt.connects.push(key);
          await new Promise((r) => realTimeout(r, 20));
          if (window.__bt.unreachable.has(key)) throw new DOMException("Bluetooth Device is no longer in range.", "NetworkError");
          this.connected = true; return this;
        },
        disconnect() { if (this.connected) { this.connected = false; device.dispatchEvent(new Event("gattserverdisconnected")); } },
        async getPrimaryService(name) {
          if (!this.connected) throw new DOMException("GATT Server is disconnected.", "NetworkError");
          const s = services[alias[name] || name];
          if (!s) throw new DOMException("No service " + name, "NotFoundError");
          return s;
        },
      };
      if (spec.rssi !== null) {
        this.watchAdvertisements = async () => {
          realTimeout(() => { const e = new Event("advertisementreceived"); e.rssi = spec.rssi; device.dispatchEvent(e); }, 10);
        };
      }
    }
    async forget() { localStorage.setItem("__bt_granted", JSON.stringify(granted().filter((k) => k !== this.key))); }
  }
  const devices = {};
  const device = (key) => devices[key] || (devices[key] = new Device(key));
  window.__bt = {
    chooser: [], unreachable: new Set(), connects: [], requests: [], fast: false, dropAcks: false,
    play(key, hex) {
      const d = device(key);
      if (!d.gatt.connected || !d.measurement.notifying) return false;
      d.measurement.value = new DataView(new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16))).buffer);
      d.measurement.dispatchEvent(new Event("characteristicvaluechanged"));
      return true;
    },
    drop(key) { const d = device(key); d.gatt.connected = false; d.dispatchEvent(new Event("gattserverdisconnected")); },
  };
  const bluetooth = {
    async requestDevice(options) {
      window.__bt.requests.push(options);
      const wantsHeartRate = (options.filters || []).some((f) => (f.services || []).includes("heart_rate"));
      if (!wantsHeartRate || !(options.optionalServices || []).includes("battery_service")) throw new TypeError("the page asked for " + JSON.stringify(options));
      const key = window.__bt.chooser.shift();
      if (!key) throw new DOMException("User cancelled the requestDevice() chooser.", "NotFoundError");
      localStorage.setItem("__bt_granted", JSON.stringify([...new Set([...granted(), key])]));
      return device(key);
    },
    async getDevices() { return granted().map(device); },
    async getAvailability() { return true; },
  };
  Object.defineProperty(Navigator.prototype, "bluetooth", { get: () => bluetooth, configurable: true });
})();
"""

NO_BLUETOOTH = "Object.defineProperty(Navigator.prototype, 'bluetooth', { get: () => undefined, configurable: true });"


def hrm(flags, bpm, rr=(), energy=None):
    """A 0x2A37 value as hex (Heart Rate Service 1.0 §3.1)."""
    data = [flags] + ([bpm & 0xFF, bpm >> 8] if flags & 0x01 else [bpm])
    if flags & 0x08:
        data += [energy & 0xFF, energy >> 8]
    for value in rr:
        data += [value & 0xFF, value >> 8]
    return bytes(data).hex()


class Player:
    """What the test plays, per strap, in order: hex and the RR values (1/1024 s)."""

    def __init__(self, driver):
        self.driver = driver
        self.played = {"A": [], "B": []}
        self.counter = 0

    def reading(self, key, bpm=None, contact_lost=False):
        self.counter += 1
        n = self.counter
        if contact_lost:  # 8-bit, contact supported but not detected, 0 bpm, one RR
            rr = [800 + n]
            hexed = hrm(0x14, 0, rr)
        elif key == "A":   # 8-bit, contact detected, one RR (unique per reading)
            rr = [700 + n]
            hexed = hrm(0x16, bpm or 120 + n % 20, rr)
        elif n % 3 == 0:  # 16-bit, energy expended, two RR
            rr = [600 + n, 610 + n]
            hexed = hrm(0x19, bpm or 140 + n % 30, rr, energy=300 + n)
        else:             # 16-bit, no contact information, one RR
            rr = [500 + n]
            hexed = hrm(0x11, bpm or 150 + n % 30, rr)
        if not self.driver.execute_script("return window.__bt.play(arguments[0], arguments[1])", key, hexed):
            raise AssertionError(f"strap {key} is not connected when the test plays {hexed}")
        self.played[key].append((hexed, rr))
        time.sleep(0.05)

    def some(self, count):
        for _ in range(count):
            self.reading("A")
            self.reading("B")


def strap_row(driver, key):
    ident = {"A": "web:c3RyYXAtQS1pZA==", "B": "web:c3RyYXAtQi1pZA=="}[key]
    return driver.find_element(By.CSS_SELECTOR, f"li.strap[data-sensor='{ident}']")


def wait_text(driver, key, selector, predicate, timeout=15, poll=0.05):
    return WebDriverWait(driver, timeout, poll_frequency=poll).until(
        lambda d: (lambda text: text if predicate(text) else False)(strap_row(d, key).find_element(By.CSS_SELECTOR, selector).text))


def link_state(driver):
    element = driver.find_element(By.CSS_SELECTOR, "[data-link]")
    return element.get_attribute("data-state"), int(element.get_attribute("data-pending") or 0), element.text


def start_server(binary, port, data):
    return subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))


def stop(server):
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork"
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    SHOTS.mkdir(parents=True, exist_ok=True)
    started = time.time()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="heartwork-gateway-")
    server = start_server(binary, port, data)
    driver = None
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
            print("FAIL", message)

    try:
        wait_for_health(base, server)
        api = API(base)
        api.call("POST", "/api/auth/register", {"username": "gwen", "fullName": "Gwen Gateway", "email": "gwen@example.org", "password": "gateway password"})
        token = api.call("POST", "/api/auth/login", {"username": "gwen", "password": "gateway password"})["token"]
        test_start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=5)

        # The manifest and the service worker as files.
        with urllib.request.urlopen(base + "/manifest.webmanifest") as response:
            manifest = json.load(response)
            check(response.headers["Content-Type"].startswith("application/manifest+json"), f"manifest served as {response.headers['Content-Type']}")
        check(manifest["name"] == "Heartwork" and manifest["display"] == "standalone" and manifest["start_url"] == "/", f"manifest {manifest}")
        sizes = {icon["sizes"] for icon in manifest["icons"]}
        check({"192x192", "512x512", "any"} <= sizes and any("maskable" in icon.get("purpose", "") for icon in manifest["icons"]), f"icons {sizes}")
        for icon in manifest["icons"]:
            with urllib.request.urlopen(base + icon["src"]) as response:
                body = response.read()
                check(response.headers["Content-Type"] == icon["type"] and len(body) > 200, f"{icon['src']}: {response.headers['Content-Type']}, {len(body)} bytes")
                if icon["type"] == "image/png":
                    width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
                    check(f"{width}x{height}" == icon["sizes"] and body[:8] == b"\x89PNG\r\n\x1a\n", f"{icon['src']} is {width}x{height}")
        with urllib.request.urlopen(base + "/sw.js") as response:
            check("javascript" in response.headers["Content-Type"] and response.headers["Cache-Control"] == "no-cache",
                  f"/sw.js: {response.headers['Content-Type']}, Cache-Control {response.headers['Cache-Control']}")

        driver = headless_chromium()
        driver.get(base + "/login")
        driver.find_element(By.ID, "username").send_keys("gwen")
        driver.find_element(By.ID, "password").send_keys("gateway password")
        submit(driver, "form button[type=submit]")
        check('rel="manifest"' in driver.page_source, "the pages do not link the manifest")

        # 1. A browser without Web Bluetooth: the page says so, and which browsers have it.
        hidden = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_BLUETOOTH})["identifier"]
        driver.get(base + "/gateway")
        message = WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-no-bluetooth]").is_displayed()
                                                 and d.find_element(By.CSS_SELECTOR, "[data-no-bluetooth]").text)
        check(all(word in message for word in ("Chrome", "Edge", "Android", "Safari", "Firefox")), f"the no-Bluetooth message reads {message!r}")
        check(not driver.find_element(By.CSS_SELECTOR, "[data-setup]").is_displayed(), "the setup shows without Web Bluetooth")
        screenshot(driver, "gateway-no-bluetooth-phone", size=(390, 844))
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hidden})

        # 2. With the stand-in: name the device; the gateway exists, its token stays here.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STAND_IN})
        driver.get(base + "/gateway")
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-setup]").is_displayed())
        checks = Checks(driver)
        checks.page("gateway-setup")
        name = driver.find_element(By.ID, "device-name")
        name.clear()
        name.send_keys("Touchline phone")
        driver.find_element(By.CSS_SELECTOR, "[data-setup-form] button").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-streaming]").is_displayed())
        gateways = api.call("GET", "/api/gateways", token=token)["gateways"]
        check([g["name"] for g in gateways] == ["Touchline phone"], f"gateways after naming: {gateways}")
        kept = json.loads(driver.execute_script("return localStorage.getItem('heartwork.gateway:gwen')") or "{}")
        check(kept.get("token", "").startswith("hwg_") and kept.get("id") == gateways[0]["id"], f"the browser keeps {kept}")
        check(kept.get("token", "x") not in driver.page_source, "the gateway token is shown on the page")
        WebDriverWait(driver, 10).until(lambda d: link_state(d)[0] == "open")

        # The service worker registers for the whole site and controls the page.
        scope = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.ready.then(r => { const go = () => done(r.scope);"
            " navigator.serviceWorker.controller ? go() : navigator.serviceWorker.addEventListener('controllerchange', go); });")
        check(scope == base + "/", f"service worker scope {scope}")

        # 3. Two straps, one by one through the chooser.
        player = Player(driver)
        for key in ("A", "B"):
            driver.execute_script("window.__bt.chooser.push(arguments[0])", key)
            driver.find_element(By.CSS_SELECTOR, "[data-add-strap]").click()
            wait_text(driver, key, "[data-state]", lambda t: t == "Connected")
        player.some(6)
        wait_text(driver, "A", "[data-bpm]", lambda t: t.isdigit())
        row_a, row_b = strap_row(driver, "A"), strap_row(driver, "B")
        last_a = int(player.played["A"][-1][0][2:4], 16)
        check(row_a.find_element(By.CSS_SELECTOR, "[data-bpm]").text == str(last_a), f"strap A shows {row_a.find_element(By.CSS_SELECTOR, '[data-bpm]').text}, played {last_a}")
        check(row_a.find_element(By.CSS_SELECTOR, "[data-contact]").text == "Yes", "strap A's contact")
        check(row_a.find_element(By.CSS_SELECTOR, "[data-battery]").text == "81 %", "strap A's battery")
        check(row_b.find_element(By.CSS_SELECTOR, "[data-contact]").text == "Not reported", "strap B's contact (no contact bits)")
        check(row_b.find_element(By.CSS_SELECTOR, "[data-battery]").text == "55 %", "strap B's battery")
        check(row_a.find_element(By.CSS_SELECTOR, "[data-heard]").text == "just now", "strap A's last heard")
        player.reading("A", contact_lost=True)
        wait_text(driver, "A", "[data-contact]", lambda t: t == "No")
        check(strap_row(driver, "A").find_element(By.CSS_SELECTOR, "[data-hint]").is_displayed(), "no hint for a strap off the skin")
        check(strap_row(driver, "A").find_element(By.CSS_SELECTOR, "[data-bpm]").text == "–", "a strap off the skin shows a heart rate")
        player.reading("A")
        WebDriverWait(driver, 10).until(lambda d: link_state(d)[:2] == ("open", 0))

        # 4. A drops and stays out of reach: reconnecting every 5 s (the first pause timed), up to
        # 10 tries, then "gave up" with Try again; its numbers go grey.
        driver.execute_script("window.__bt.unreachable.add('A'); window.__bt.drop('A')")
        wait_text(driver, "A", "[data-state]", lambda t: t == "Reconnecting (try 1 of 10)", timeout=3)
        first = time.time()
        wait_text(driver, "A", "[data-state]", lambda t: t == "Reconnecting (try 2 of 10)", timeout=9)
        pause = time.time() - first
        check(4.5 <= pause <= 6.5, f"the pause between tries was {pause:.1f} s, not 5 s")
        heard = wait_text(driver, "A", "[data-heard]", lambda t: t.endswith("s ago"), timeout=5)
        check("stale" in strap_row(driver, "A").get_attribute("class"), "strap A's numbers are not greyed while it is away")
        print(f"strap A away: {heard!r}; pause between tries {pause:.1f} s")
        driver.execute_script("window.__bt.fast = true")
        wait_text(driver, "A", "[data-state]", lambda t: t == "Gave up after 10 tries", timeout=10)
        check(strap_row(driver, "A").find_element(By.CSS_SELECTOR, "[data-retry]").is_displayed(), "no Try again after giving up")
        tries = driver.execute_script("return window.__bt.connects.filter(k => k === 'A').length")
        check(tries == 11, f"strap A was tried {tries} times (1 connect + 10 tries expected)")
        player.reading("B")
        checks.page("gateway")   # 1280 and 390 px: axe-core, layout, screenshots
        driver.execute_script("window.__bt.unreachable.delete('A')")
        strap_row(driver, "A").find_element(By.CSS_SELECTOR, "[data-retry]").click()
        wait_text(driver, "A", "[data-state]", lambda t: t == "Connected", timeout=10)
        driver.execute_script("window.__bt.fast = false")
        player.some(3)
        WebDriverWait(driver, 10).until(lambda d: link_state(d)[:2] == ("open", 0))

        # 5. The server goes away mid-stream; readings wait on the device; a reload while it is
        # down (the page from the service worker) keeps them; nothing lost when it is back.
        # Four readings reach the server but their acks are lost; then the server is killed
        # (SIGKILL). The page must send those four again and the server keep them once.
        driver.execute_script("window.__bt.dropAcks = true")
        player.some(2)
        time.sleep(1)
        check(link_state(driver)[1] == 4, f"acks lost: {link_state(driver)}")
        server.kill()
        server.wait()
        driver.execute_script("window.__bt.dropAcks = false")
        player.some(4)
        WebDriverWait(driver, 15).until(lambda d: link_state(d)[0] == "waiting")
        state, pending, text = link_state(driver)
        check(pending == 12, f"with the server down: {pending} waiting ({text!r})")
        print("server down:", text)
        driver.refresh()
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-streaming]").is_displayed())
        check(driver.find_element(By.TAG_NAME, "h1").text == "This device as a gateway", "the page did not open offline")
        for key in ("A", "B"):   # granted straps come back without the chooser
            wait_text(driver, key, "[data-state]", lambda t: t == "Connected")
        WebDriverWait(driver, 10).until(lambda d: link_state(d)[1] == pending)
        check(driver.execute_script("return window.__bt.requests.length") == 0, "the chooser was opened after the reload")
        player.some(2)
        screenshot(driver, "gateway-offline-phone", size=(390, 844))
        server = start_server(binary, port, data)
        wait_for_health(base, server)
        WebDriverWait(driver, 30).until(lambda d: link_state(d)[:2] == ("open", 0))
        print("server back:", link_state(driver)[2])

        # 6. The server heard every reading once, in order, with its bytes and RR intervals.
        sensors = api.call("GET", "/api/sensors", token=token)["sensors"]
        by_address = {s["address"]: s for s in sensors}
        check(set(by_address) == {"web:c3RyYXAtQS1pZA==", "web:c3RyYXAtQi1pZA=="}, f"sensors {sorted(by_address)}")
        frames = [json.loads(f) for f in json.loads(driver.execute_script("return localStorage.getItem('__frames')") or "[]")]
        sent = [item for f in frames for item in (f["items"] if f["type"] == "readings" else [f])]
        window = f"from={test_start.strftime('%Y-%m-%dT%H:%M:%SZ')}&to={(datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=5)).strftime('%Y-%m-%dT%H:%M:%SZ')}"
        for key, battery in (("A", 81), ("B", 55)):
            address = "web:" + {"A": "c3RyYXAtQS1pZA==", "B": "c3RyYXAtQi1pZA=="}[key]
            sensor = by_address.get(address)
            if not sensor:
                continue
            check(sensor["battery"] == battery, f"{key}: battery {sensor['battery']}")
            series = api.call("GET", f"/api/sensors/{sensor['id']}/heart-rate?{window}", token=token)
            expected = [round(value * 1000 / 1024, 2) for _, rr in player.played[key] for value in rr]
            stored = [round(value, 2) for value in series["rrIntervals"]]
            check(stored == expected, f"{key}: the server's RR {stored} are not the {len(expected)} played {expected}")
            mine = [item for item in sent if item["sensor"] == address]
            seq_of = {}
            for item in mine:
                check(seq_of.setdefault(item["hrm"], item["seq"]) == item["seq"], f"{key}: {item['hrm']} sent with two seqs")
                if key == "A":
                    check(item.get("rssi") == -61, f"A's frame without its rssi: {item}")
                else:
                    check("rssi" not in item, f"B's frame has an rssi: {item}")
            order = [seq_of.get(h) for h, _ in player.played[key]]
            check(None not in order and order == sorted(order) and len(set(order)) == len(order),
                  f"{key}: seqs in play order {order}")
            resent = len(mine) - len(seq_of)
            check(resent >= 2, f"{key}: the readings whose acks were lost were not sent again ({resent})")
            print(f"strap {key}: {len(player.played[key])} readings played, {len(stored)} RR stored, {len(mine)} sent ({resent} again after the cut), seqs {order[0]}…{order[-1]}")
        check(sum(1 for f in frames if f["type"] == "readings") >= 1, "the catch-up was not sent as a readings frame")
        check(all(isinstance(i["at"], int) and abs(i["at"] / 1000 - time.time()) < 120 for i in sent), "an `at` that is not recent Unix ms")

        # 7. The gateway revoked on the Teams page: its socket is closed (1008) and the page
        # stops trying; after a reload the token is refused (401) and the page asks for a name.
        api.call("DELETE", f"/api/gateways/{gateways[0]['id']}", token=token)
        WebDriverWait(driver, 10).until(lambda d: link_state(d)[0] == "refused")
        text = link_state(driver)[2]
        check("revoked" in text, f"after the revocation the page says {text!r}")
        time.sleep(3)
        check(link_state(driver)[0] == "refused", "the page tried again after a 1008 close")
        driver.refresh()
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-setup]").is_displayed())
        error = driver.find_element(By.CSS_SELECTOR, "[data-setup-error]").text
        check("revoked" in error, f"after a reload with a revoked token the page says {error!r}")
        check(driver.execute_script("return localStorage.getItem('heartwork.gateway:gwen')") is None, "the revoked token is still kept")
        print(f"revoked: {text!r}; after a reload: {error!r}")
        failures += checks.failures
    finally:
        if driver:
            driver.quit()
        stop(server)
    print(f"gateway test in {time.time() - started:.0f} s")
    if failures:
        raise SystemExit("gateway test failed:\n  " + "\n  ".join(failures))
    print("gateway test passed")


if __name__ == "__main__":
    main()
