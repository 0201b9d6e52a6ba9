"""Helpers shared by the live benchmarks (live_benchmark.py and bus_benchmark.py): the
scenario's strap addresses and heart-rate payloads, process CPU and memory from /proc,
percentiles and the JSON API call. Standard library only."""

import json
import math
import os
import resource
import socket
import urllib.request

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def address(gateway, strap):
    """A BLE-style address naming the gateway and the strap (unique across the run)."""
    return f"C0:{gateway >> 8:02X}:{gateway & 255:02X}:00:{strap >> 8:02X}:{strap & 255:02X}"


def hrm_hex(gateway, strap, variant):
    """0x2A37 payload: flags 0x16 (8-bit HR, contact detected, RR present), HR, one RR interval."""
    bpm = 60 + (strap * 7 + gateway * 3 + variant * 5) % 110
    ticks = round(60.0 / bpm * 1024)
    return f"16{bpm:02x}{ticks & 255:02x}{ticks >> 8:02x}"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def process_cpu(pid):
    """User + system CPU seconds of a process (all its threads); 0 once it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except OSError:
        return 0.0


def own_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(ordered, fraction):
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def call(base, method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, method=method, data=data)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, json.loads(response.read() or b"null")
