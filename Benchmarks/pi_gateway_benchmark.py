#!/usr/bin/env python3
"""What `heartwork gateway` costs on a Raspberry Pi-like load: 20 straps at 1 Hz from a fake
BlueZ (Tests/Gateway/fake_bluez.py on a private dbus-daemon) forwarded to a local
`heartwork serve`, measured for `--seconds` (60) once every strap streams. Reports the
gateway process's CPU as % of one core (utime + stime from /proc/PID/stat over the window,
divided by the window's wall time) and its memory (VmRSS at the end, VmHWM: the peak), and
checks that every notification sent in the window was stored.

    /usr/bin/python3 Benchmarks/pi_gateway_benchmark.py [.build/release/heartwork] [--straps 20] [--seconds 60]

Needs Debian's dbus, python3-dbus and python3-gi (as Tests/Gateway/bluez_gateway_test.py).
Aims (issue 23): under 5 % of one core and under 30 MB. Not a test: it prints figures and
whether the aims were met.
"""
import argparse
import json
import os
import pathlib
import secrets
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Gateway"))
import bluez_gateway_test as harness  # noqa: E402


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the command: state is field 3, utime field 14, stime field 15 (proc(5)).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid):
    values = {}
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            values[key] = int(rest.split()[0]) / 1024
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=str(ROOT / ".build" / "release" / "heartwork"))
    parser.add_argument("--straps", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.binary).resolve()
    work = pathlib.Path(tempfile.mkdtemp(prefix="hw-pi-bench-"))
    processes = []
    try:
        bus, address = harness.start_bus(work)
        processes.append(bus)
        server, base = harness.start_server(binary, harness.free_port(), work / "data")
        processes.append(server)
        name = "bench" + secrets.token_hex(3)
        harness.call(base, "POST", "/api/auth/register", {"username": name, "fullName": "Bench", "email": f"{name}@example.org", "password": "benchmark password"})
        token = harness.call(base, "POST", "/api/auth/login", {"username": name, "password": "benchmark password"})[1]["token"]
        gateway_token = harness.call(base, "POST", "/api/gateways", {"name": "Bench Pi"}, token=token)[1]["token"]
        count = int(arguments.seconds) + 120
        straps = [{"address": f"C0:FF:EE:00:00:{index:02X}", "name": f"Strap {index}", "rssi": -50 - index, "battery": 90, "interval": 1.0,
                   "payloads": [p.hex() for p in harness.payloads(("8-bit", "16-bit", "contact")[index % 3], 0, count)]}
                  for index in range(arguments.straps)]
        (work / "scenario.json").write_text(json.dumps({"straps": straps}))
        log = work / "fake.jsonl"
        environment = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        fake = subprocess.Popen([sys.executable, str(ROOT / "Tests" / "Gateway" / "fake_bluez.py"), str(work / "scenario.json"), str(log)], env=environment)
        processes.append(fake)
        harness.wait_for("the fake BlueZ", lambda: any(e["event"] == "ready" for e in harness.read_log(log)), 15)
        gateway = subprocess.Popen([str(binary), "gateway", "--server", base, "--token", gateway_token, "--all", "--spool", str(work / "spool.json"),
                                    "--status-every", "30"], env=environment, stdout=subprocess.DEVNULL, stderr=open(work / "gateway.err", "w"))
        processes.append(gateway)

        def streaming():
            return len({e["address"] for e in harness.read_log(log) if e["event"] == "notify"}) == arguments.straps

        harness.wait_for(f"all {arguments.straps} straps streaming", streaming, 60)
        time.sleep(2)
        sent_before = sum(1 for e in harness.read_log(log) if e["event"] == "notify")
        cpu_before, wall_before = cpu_seconds(gateway.pid), time.monotonic()
        time.sleep(arguments.seconds)
        cpu_after, wall_after = cpu_seconds(gateway.pid), time.monotonic()
        sent = sum(1 for e in harness.read_log(log) if e["event"] == "notify")
        mem = memory(gateway.pid)
        fake_cpu = cpu_seconds(fake.pid)
        time.sleep(3)
        stored = harness.stored(base, token)
        total_stored = sum(value[0] for value in stored.values())
        total_sent = sum(1 for e in harness.read_log(log) if e["event"] == "notify")
        percent = 100 * (cpu_after - cpu_before) / (wall_after - wall_before)
        print(f"binary: {binary}")
        print(f"{arguments.straps} straps at 1 Hz for {wall_after - wall_before:.1f} s: {sent - sent_before} notifications in the window")
        print(f"gateway CPU: {percent:.2f} % of one core ({cpu_after - cpu_before:.2f} s of CPU)")
        print(f"gateway memory: VmRSS {mem.get('VmRSS', 0):.1f} MB, VmHWM (peak) {mem.get('VmHWM', 0):.1f} MB "
              f"(RssAnon {mem.get('RssAnon', 0):.1f} MB: the process's own; RssFile {mem.get('RssFile', 0):.1f} MB: pages of the binary and libraries)")
        print(f"(the fake BlueZ, Python, used {fake_cpu:.1f} s of CPU in all)")
        print(f"stored {total_stored} of {total_sent} notifications sent (the server reads the last 10 minutes)")
        print(f"aims: CPU under 5 % {'met' if percent < 5 else 'NOT met'}; memory under 30 MB {'met' if mem.get('VmHWM', 99) < 30 else 'NOT met'}")
        harness.stop(gateway)
        processes.remove(gateway)
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    main()
