"""Helpers shared by the live benchmarks (live_benchmark.py and bus_benchmark.py): the
scenario's strap addresses and heart-rate payloads, process CPU and memory from /proc,
percentiles and the JSON API call. Standard library only."""

import math
import os
import pathlib
import resource
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests"))
import common  # noqa: E402  (the Python checks' shared helpers)
from common import free_port  # noqa: E402,F401

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def address(gateway, strap):
    """A BLE-style address naming the gateway and the strap (unique across the run)."""
    return f"C0:{gateway >> 8:02X}:{gateway & 255:02X}:00:{strap >> 8:02X}:{strap & 255:02X}"


def hrm_hex(gateway, strap, variant):
    """0x2A37 payload: flags 0x16 (8-bit HR, contact detected, RR present), HR, one RR interval."""
    bpm = 60 + (strap * 7 + gateway * 3 + variant * 5) % 110
    ticks = round(60.0 / bpm * 1024)
    return f"16{bpm:02x}{ticks & 255:02x}{ticks >> 8:02x}"


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
    """The shared JSON call with the benchmarks' argument order; an error status raises."""
    status, answer = common.call(base, method, path, body=body, token=token, timeout=60)
    if status >= 400:
        raise RuntimeError(f"{method} {path}: {status} {answer}")
    return status, answer
