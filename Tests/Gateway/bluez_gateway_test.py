#!/usr/bin/env python3
"""`heartwork gateway` end to end against a fake BlueZ (Tests/Gateway/fake_bluez.py) on a
private D-Bus bus (its own dbus-daemon; DBUS_SYSTEM_BUS_ADDRESS points the gateway at it), and
a real `heartwork serve` on a temporary SQLite database:

1. No bus, and a bus without org.bluez: one line on standard error, exit 1.
2. Three straps (8-bit heart rate with RR, 16-bit with RR and energy expended, no skin
   contact and energy expended), one dropping once (Connected false) and coming back after
   more than one reconnect try: every reading the fake sent arrives once, in order, with its
   RR intervals (compared through GET /api/sensors/{id}/heart-rate); the discovery filter
   and battery reads were made; the JSON status lines show the reconnect.
3. The server stopped, the straps send more, SIGTERM: the gateway exits 0 and leaves them in
   its spool; started again (server back), it sends them first and its sequence numbers go
   on (new readings would otherwise collide with stored ones and be lost).

    /usr/bin/python3 Tests/Gateway/bluez_gateway_test.py [.build/debug/heartwork]

Needs Debian's dbus (dbus-daemon), python3-dbus and python3-gi; exits non-zero on failure.
"""
import json
import os
import pathlib
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from common import call, free_port  # noqa: E402  (the Python checks' shared helpers)
HERE = pathlib.Path(__file__).resolve().parent
PYTHON = sys.executable


def start_bus(directory):
    """A private dbus-daemon that lets anyone own any name; its address."""
    config = directory / "bus.conf"
    config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>heartwork-test</type>
  <listen>unix:path={directory}/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="signal"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
  </policy>
</busconfig>
""")
    process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    address = process.stdout.readline().strip()
    if not address:
        raise SystemExit("dbus-daemon did not start")
    return process, address


def start_server(binary, port, data):
    environment = dict(os.environ, HEARTWORK_BCRYPT_COST="4")
    process = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", str(data)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"heartwork serve exited: {process.stderr.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if json.load(response)["status"] == "ok":
                    return process, base
        except OSError:
            time.sleep(0.2)
    raise SystemExit("heartwork serve did not become healthy")


def stop(process, timeout=30):
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit(f"{process.args[:2]} did not stop within {timeout} s of SIGTERM")


# Heart Rate Measurement payloads (Bluetooth Heart Rate Service 1.0 §3.1).
def rr_bytes(ticks):
    return b"".join(tick.to_bytes(2, "little") for tick in ticks)


def hrm8(bpm, ticks, contact=True, energy=None):
    flags = (0x06 if contact else 0x04) | (0x10 if ticks else 0) | (0x08 if energy is not None else 0)
    return bytes([flags, bpm]) + (energy.to_bytes(2, "little") if energy is not None else b"") + rr_bytes(ticks)


def hrm16(bpm, ticks, energy=None):
    flags = 0x01 | 0x06 | (0x10 if ticks else 0) | (0x08 if energy is not None else 0)
    return bytes([flags]) + bpm.to_bytes(2, "little") + (energy.to_bytes(2, "little") if energy is not None else b"") + rr_bytes(ticks)


def ticks(bpm, count=1):
    return [round(61440 / bpm) + 3 * index for index in range(count)]


def payloads(kind, start, count):
    out = []
    for index in range(start, start + count):
        bpm = 70 + (index * 7) % 60
        if kind == "8-bit":
            out.append(hrm8(bpm, ticks(bpm, 1 + index % 2)))
        elif kind == "16-bit":
            out.append(hrm16(bpm + 100 if index % 3 == 0 else bpm, ticks(bpm, 1 + index % 3), energy=index * 5 if index % 2 else None))
        else:  # off the skin now and then; the energy-expended field
            out.append(hrm8(0, [], contact=False) if index % 3 == 1 else hrm8(bpm, ticks(bpm), energy=300 + index))
    return out


STRAPS = [
    {"address": "A0:9E:1A:00:00:01", "name": "Polar H10 0001", "kind": "8-bit", "rssi": -58, "battery": 81},
    {"address": "A0:9E:1A:00:00:02", "name": "Garmin HRM 0002", "kind": "16-bit", "rssi": -71, "battery": 64, "drop_after": 5, "away": 6},
    {"address": "A0:9E:1A:00:00:03", "name": "Wahoo TICKR 0003", "kind": "contact", "rssi": -66, "battery": 47},
]
FIRST, MORE = 14, 4


def expected_rr(hex_payloads):
    """RR intervals in ms from the payloads, decoded independently of the Swift codec."""
    out = []
    for text in hex_payloads:
        data = bytes.fromhex(text)
        flags, offset = data[0], 1
        offset += 2 if flags & 0x01 else 1
        if flags & 0x08:
            offset += 2
        if flags & 0x10:
            while offset + 1 < len(data):
                out.append(int.from_bytes(data[offset:offset + 2], "little") * 1000 / 1024)
                offset += 2
    return out


def read_log(path):
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for(what, predicate, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise SystemExit(f"timed out after {seconds} s waiting for {what}")


def stored(base, token):
    """address → (readingCount, rrIntervals, sensor) from the API."""
    status, listed = call(base, "GET", "/api/sensors", token=token)
    assert status == 200, status
    out = {}
    for sensor in listed["sensors"]:
        status, heard = call(base, "GET", f"/api/sensors/{sensor['id']}/heart-rate", token=token)
        assert status == 200, status
        out[sensor["address"]] = (heard["readingCount"], heard["rrIntervals"], sensor)
    return out


def main():
    binary = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "heartwork").resolve()
    if not binary.exists():
        raise SystemExit(f"{binary} is missing: run swift build first")
    started = time.time()
    work = pathlib.Path(tempfile.mkdtemp(prefix="hw-gateway-"))
    failures = []
    processes = []
    try:
        bus, address = start_bus(work)
        processes.append(bus)
        port = free_port()
        server, base = start_server(binary, port, work / "data")
        processes.append(server)
        name = "pi" + secrets.token_hex(3)
        assert call(base, "POST", "/api/auth/register", {"username": name, "fullName": "Pi Coach", "email": f"{name}@example.org", "password": "gateway password"})[0] == 201
        token = call(base, "POST", "/api/auth/login", {"username": name, "password": "gateway password"})[1]["token"]
        gateway_token = call(base, "POST", "/api/gateways", {"name": "Pitch-side Pi"}, token=token)[1]["token"]
        spool = work / "spool.json"
        arguments = [str(binary), "gateway", "--server", base, "--token", gateway_token, "--spool", str(spool), "--format", "json",
                     "--status-every", "2", "--stop-wait", "2"] + [item for strap in STRAPS for item in ("--strap", strap["address"])]

        # 1. Without BlueZ: one line, exit 1.
        for label, bus_address in (("no bus", f"unix:path={work}/nothing-here"), ("no org.bluez", address)):
            result = subprocess.run(arguments, env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=bus_address), capture_output=True, text=True, timeout=30)
            lines = result.stderr.strip().splitlines()
            print(f"{label}: exit {result.returncode}: {result.stderr.strip()}")
            if result.returncode == 0 or len(lines) != 1 or result.stdout.strip():
                failures.append(f"{label}: expected one line and a non-zero exit, got {result.returncode}: {result.stderr!r} {result.stdout!r}")
        if "org.bluez" not in result.stderr:
            failures.append(f"without BlueZ the line should name org.bluez: {result.stderr!r}")

        # 2. Three straps, one dropping and coming back.
        scenario = {"straps": []}
        for strap in STRAPS:
            spec = {key: strap[key] for key in ("address", "name", "rssi", "battery")}
            spec.update(interval=0.5, payloads=[p.hex() for p in payloads(strap["kind"], 0, FIRST)],
                        more=[p.hex() for p in payloads(strap["kind"], FIRST, MORE)])
            for key in ("drop_after", "away"):
                if key in strap:
                    spec[key] = strap[key]
            scenario["straps"].append(spec)
        scenario["known"] = [STRAPS[0]["address"]]  # one strap BlueZ already knows, two discovered
        (work / "scenario.json").write_text(json.dumps(scenario))
        log = work / "fake.jsonl"
        environment = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        fake = subprocess.Popen([PYTHON, str(HERE / "fake_bluez.py"), str(work / "scenario.json"), str(log)], env=environment)
        processes.append(fake)
        wait_for("the fake BlueZ", lambda: any(entry["event"] == "ready" for entry in read_log(log)), 15)
        status_log = open(work / "status-1.jsonl", "w")
        gateway = subprocess.Popen(arguments, env=environment, stdout=status_log, stderr=open(work / "gateway-1.err", "w"))
        processes.append(gateway)

        def notified(total):
            entries = [entry for entry in read_log(log) if entry["event"] == "notify"]
            return entries if len(entries) >= total else None

        wait_for(f"{FIRST * 3} notifications", lambda: notified(FIRST * 3), 40)
        sent = {strap["address"]: [e["hex"] for e in read_log(log) if e["event"] == "notify" and e["address"] == strap["address"]] for strap in STRAPS}
        wait_for("every reading stored", lambda: all(stored(base, token).get(a, (0,))[0] >= len(hexes) for a, hexes in sent.items()), 20)
        phase_one = time.time() - started
        heard = stored(base, token)
        for address_, hexes in sent.items():
            count, rr, sensor = heard[address_]
            rr_expected = expected_rr(hexes)
            same = len(rr) == len(rr_expected) and all(abs(a - b) < 0.01 for a, b in zip(rr, rr_expected))
            print(f"{address_}: sent {len(hexes)}, stored {count}; RR {len(rr)} of {len(rr_expected)} in order: {same}; battery {sensor.get('battery')}")
            if count != len(hexes):
                failures.append(f"{address_}: {count} readings stored of {len(hexes)} sent")
            if not same:
                failures.append(f"{address_}: RR intervals stored {rr} differ from those sent {rr_expected}")
        batteries = {a: heard[a][2].get("battery") for a in sent}
        if batteries != {strap["address"]: strap["battery"] for strap in STRAPS}:
            failures.append(f"battery levels {batteries}")
        events = read_log(log)
        filters = [e for e in events if e["event"] == "SetDiscoveryFilter"]
        if not filters or filters[0]["uuids"] != ["0000180d-0000-1000-8000-00805f9b34fb"] or filters[0]["transport"] != "le":
            failures.append(f"discovery filter {filters}")
        dropped = STRAPS[1]["address"]
        connects = [e for e in events if e["event"] == "Connect" and e["address"] == dropped]
        drop_at = next(e["t"] for e in events if e["event"] == "drop")
        retries = [round(e["t"] - drop_at, 1) for e in connects if e["t"] > drop_at]
        print(f"{dropped} dropped; reconnect tries {retries} s after the drop (ok: {[e['ok'] for e in connects if e['t'] > drop_at]})")
        if len(retries) < 2 or not 4.5 <= retries[0] <= 6.5 or not 4.5 <= retries[1] - retries[0] <= 7:
            failures.append(f"reconnect tries not every 5 s: {retries}")
        status_log.flush()
        lines = [json.loads(line) for line in (work / "status-1.jsonl").read_text().splitlines()]
        states = [line["state"] for line in lines if line["sensor"] == dropped]
        if "reconnecting" not in states or states[-1] != "streaming":
            failures.append(f"status lines of the dropped strap: {states}")
        print(f"phase 1 (three straps, one drop) done at {phase_one:.1f} s; {len(lines)} status lines, e.g. {json.dumps(lines[-1])}")

        # 3. The server away, more readings, SIGTERM: kept in the spool, sent at the next start.
        time.sleep(1)  # the last acknowledgements reach the gateway
        assert stop(server) == 0
        processes.remove(server)
        fake.send_signal(signal.SIGUSR1)
        wait_for("more notifications", lambda: notified(FIRST * 3 + MORE * 3), 20)
        code = stop(gateway)
        processes.remove(gateway)
        spooled = json.loads(spool.read_text()) if spool.exists() else {}
        print(f"SIGTERM with the server away: exit {code}; spool: {len(spooled.get('readings', []))} readings, "
              f"sequences {[(s['sensor'][-2:], s['next']) for s in spooled.get('sequences', [])]}, clean {spooled.get('clean')}")
        if code != 0:
            failures.append(f"the gateway exited {code} on SIGTERM")
        away = sorted((r["sensor"], r["seq"]) for r in spooled.get("readings", []) if r["seq"] >= FIRST)
        if away != sorted((s["address"], FIRST + i) for s in STRAPS for i in range(MORE)) or not spooled.get("clean"):
            failures.append(f"the spool should hold the {MORE * 3} readings taken while the server was away: {spooled.get('readings')}")
        server, base = start_server(binary, port, work / "data")
        processes.append(server)
        status_log = open(work / "status-2.jsonl", "w")
        # The second start takes its token from HEARTWORK_GATEWAY_TOKEN, as the README's systemd
        # unit does (no token in the process list).
        without_token = [item for index, item in enumerate(arguments) if item != "--token" and (index == 0 or arguments[index - 1] != "--token")]
        if "--token" in without_token or gateway_token in without_token:
            failures.append("the test could not take --token off the command line")
        gateway = subprocess.Popen(without_token, env=dict(environment, HEARTWORK_GATEWAY_TOKEN=gateway_token), stdout=status_log,
                                   stderr=open(work / "gateway-2.err", "w"))
        processes.append(gateway)
        time.sleep(3)
        fake.send_signal(signal.SIGUSR1)  # and more again, numbered after the spooled ones
        wait_for("the last notifications", lambda: notified(FIRST * 3 + MORE * 6), 30)
        sent = {strap["address"]: [e["hex"] for e in read_log(log) if e["event"] == "notify" and e["address"] == strap["address"]] for strap in STRAPS}
        try:
            wait_for("the spool and the new readings stored", lambda: all(stored(base, token).get(a, (0,))[0] >= len(h) for a, h in sent.items()), 20)
        except SystemExit as error:
            failures.append(str(error))
        heard = stored(base, token)
        for address_, hexes in sent.items():
            count, rr, _ = heard[address_]
            same = len(rr) == len(expected_rr(hexes)) and all(abs(a - b) < 0.01 for a, b in zip(rr, expected_rr(hexes)))
            print(f"after the restart {address_}: sent {len(hexes)}, stored {count}, RR in order: {same}")
            if count != len(hexes) or not same:
                failures.append(f"{address_} after the restart: {count} stored of {len(hexes)}, RR same: {same}")
        code = stop(gateway)
        processes.remove(gateway)
        final = json.loads(spool.read_text())
        print(f"second stop: exit {code}; spool {len(final['readings'])} readings, sequences {[(s['sensor'][-2:], s['next']) for s in final['sequences']]}")
        if final["readings"] or code != 0:
            failures.append(f"after a clean run the spool should be empty: {final['readings']}, exit {code}")
        if [s["next"] for s in final["sequences"]] != [len(sent[s["sensor"]]) for s in final["sequences"]]:
            failures.append(f"sequence numbers should go on across the restart: {final['sequences']}")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
    print(f"took {time.time() - started:.1f} s; files in {work}")
    if failures:
        raise SystemExit("gateway test failed:\n  " + "\n  ".join(failures))
    print("gateway test passed")


if __name__ == "__main__":
    main()
