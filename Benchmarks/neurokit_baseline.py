#!/usr/bin/env python3
"""Times NeuroKit2 on the same RR series Heartwork's benchmark uses, and prints JSON.

Called by `swift run -c release heartwork-benchmarks` with the path of an RR file (ms, one
per line). Each function gets the same inputs and definitions as Heartwork's equivalent:
time domain; Welch spectrum on a 4 Hz interpolation; sample entropy m = 2, r = 0.2·SDNN;
DFA over 4–16 beats without overlap.
"""
import json
import statistics
import sys
import time
import warnings

import numpy as np
import neurokit2 as nk

warnings.filterwarnings("ignore")


def timed(function, repeats):
    function()  # warm-up: imports, caches
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main():
    rr = np.loadtxt(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    data = {"RRI": rr, "RRI_Time": np.cumsum(rr) / 1000}
    tolerance = 0.2 * np.std(rr, ddof=1)
    results = {
        "neurokit2": nk.__version__,
        "beats": int(len(rr)),
        "hrv_time": timed(lambda: nk.hrv_time(data), repeats),
        "hrv_frequency": timed(lambda: nk.hrv_frequency(data, psd_method="welch", interpolation_rate=4), repeats),
        "entropy_sample": timed(lambda: nk.entropy_sample(rr, dimension=2, tolerance=tolerance), repeats),
        "fractal_dfa": timed(lambda: nk.fractal_dfa(rr, scale=np.arange(4, 17), overlap=False), repeats),
    }
    print(json.dumps(results))


if __name__ == "__main__":
    main()
