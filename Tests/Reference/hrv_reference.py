#!/usr/bin/env python3
"""Golden HRV values for Heartwork's Swift tests.

Generates synthetic RR series (fixed seeds), computes every index exactly as issue #3
defines it with numpy/scipy, cross-checks the time domain and sample entropy against
NeuroKit2, and writes Tests/HeartworkCoreTests/Resources/hrv-reference.json.
The Swift tests read only that JSON; they never run Python.

    pip install numpy scipy neurokit2 pandas
    python3 Tests/Reference/hrv_reference.py
"""
import json
import math
import pathlib
import sys

import numpy as np
import scipy
from scipy.interpolate import CubicSpline
from scipy.signal import welch, lombscargle

OUT = pathlib.Path(__file__).resolve().parents[1] / "HeartworkCoreTests" / "Resources" / "hrv-reference.json"
BIN_MS = 1000.0 / 128
VLF, LF, HF = (0.0033, 0.04), (0.04, 0.15), (0.15, 0.40)


def synthetic(seed, seconds, mean=900.0, rsa=30.0, mayer=40.0, noise=12.0, drift_sd=2.0):
    rng = np.random.default_rng(seed)
    t, drift, out = 0.0, 0.0, []
    phase_rsa, phase_mayer = rng.uniform(0, 2 * np.pi, 2)
    while t < seconds:
        drift = 0.995 * drift + drift_sd * rng.standard_normal()
        rr = (mean + rsa * np.sin(2 * np.pi * 0.25 * t + phase_rsa)
              + mayer * np.sin(2 * np.pi * 0.1 * t + phase_mayer) + drift + noise * rng.standard_normal())
        rr = float(np.clip(rr, 300, 1800))
        rr = round(rr, 3)  # three decimals: compact JSON, exact values on both sides
        out.append(rr)
        t += rr / 1000
    return out


# ---------------------------------------------------------------- time domain
def tinn(rr):
    """Triangular interpolation (Task Force 1996) as Heartwork defines it: bins [k·w, (k+1)·w)
    anchored at 0; N and M over bin positions from one empty bin before the first occupied bin
    to one after the last; sides minimised separately; first minimum wins."""
    k = np.floor(np.asarray(rr) / BIN_MS).astype(int)
    first, last = k.min(), k.max()
    counts = np.bincount(k - first, minlength=last - first + 1)
    extended = np.concatenate([[0], counts, [0]]).astype(float)
    peak = counts.max()
    x = int(np.argmax(counts)) + 1
    best_left = (math.inf, 0)
    for cand in range(0, x):
        err = 0.0
        for pos in range(0, x):
            q = 0.0 if pos <= cand else peak * (pos - cand) / (x - cand)
            err += (extended[pos] - q) ** 2
        if err < best_left[0]:
            best_left = (err, cand)
    best_right = (math.inf, len(extended) - 1)
    for cand in range(x + 1, len(extended)):
        err = 0.0
        for pos in range(x + 1, len(extended)):
            q = 0.0 if pos >= cand else peak * (cand - pos) / (cand - x)
            err += (extended[pos] - q) ** 2
        if err < best_right[0]:
            best_right = (err, cand)
    return (best_right[1] - best_left[1]) * BIN_MS, len(rr) / peak


def time_domain(rr):
    rr = np.asarray(rr, dtype=float)
    d = np.diff(rr)
    n = len(rr)
    width, hti = tinn(rr)
    hr = 60000.0 / rr
    return {
        "meanNN": rr.mean(), "sdnn": rr.std(ddof=1), "rmssd": math.sqrt(np.mean(d ** 2)),
        "sdsd": d.std(ddof=1), "nn50": int(np.sum(np.abs(d) > 50)), "pnn50": 100 * np.sum(np.abs(d) > 50) / n,
        "nn20": int(np.sum(np.abs(d) > 20)), "pnn20": 100 * np.sum(np.abs(d) > 20) / n,
        "meanHR": hr.mean(), "minHR": hr.min(), "maxHR": hr.max(), "medianNN": float(np.median(rr)),
        "cvnn": rr.std(ddof=1) / rr.mean(), "triangularIndex": hti, "tinn": width,
    }


# ----------------------------------------------------------- frequency domain
def band(freqs, psd, df, lo, hi):
    mask = (freqs >= lo) & (freqs < hi)
    power = float(np.sum(psd[mask]) * df)
    peak = float(freqs[mask][np.argmax(psd[mask])]) if mask.any() else None
    return power, peak


def indices_from(freqs, psd, df):
    vlf, vlf_peak = band(freqs, psd, df, *VLF)
    lf, lf_peak = band(freqs, psd, df, *LF)
    hf, hf_peak = band(freqs, psd, df, *HF)
    return {"vlfPower": vlf, "lfPower": lf, "hfPower": hf, "totalPower": vlf + lf + hf,
            "lfHfRatio": lf / hf, "lfNormalized": 100 * lf / (lf + hf), "hfNormalized": 100 * hf / (lf + hf),
            "vlfPeak": vlf_peak, "lfPeak": lf_peak, "hfPeak": hf_peak}


def welch_indices(rr):
    rr = np.asarray(rr, dtype=float)
    t = np.cumsum(rr) / 1000
    grid = np.arange(t[0], t[-1], 0.25)
    x = CubicSpline(t, rr, bc_type="not-a-knot")(grid)
    x = x - x.mean()
    nperseg = min(1024, len(x))
    freqs, psd = welch(x, fs=4.0, window="hann", nperseg=nperseg, noverlap=nperseg // 2,
                       detrend="constant", scaling="density", average="mean")
    return indices_from(freqs, psd, 4.0 / nperseg)


def lomb_indices(rr, oversampling=2.0):
    rr = np.asarray(rr, dtype=float)
    t = np.cumsum(rr) / 1000
    y = rr - rr.mean()
    span = t[-1] - t[0]
    step = 1 / (span * oversampling)
    freqs = np.arange(1, int(0.40 / step) + 1) * step
    omega = 2 * np.pi * freqs
    power = np.empty_like(freqs)
    for k, w in enumerate(omega):
        tau = np.arctan2(np.sum(np.sin(2 * w * t)), np.sum(np.cos(2 * w * t))) / (2 * w)
        c, s = np.cos(w * (t - tau)), np.sin(w * (t - tau))
        power[k] = 0.5 * ((y @ c) ** 2 / (c @ c) + (y @ s) ** 2 / (s @ s))
    # Cross-check the classical periodogram against scipy's implementation.
    reference = lombscargle(t, y, omega, precenter=False, normalize=False)
    assert np.allclose(power, reference, rtol=1e-8), "numpy Lomb–Scargle disagrees with scipy"
    psd = 2 * power * span / len(rr)
    return indices_from(freqs, psd, step)


def fitlab_lfhf(rr):
    rr = np.asarray(rr, dtype=float)
    time = np.cumsum(rr)
    total = time[-1]
    length = int(math.ceil(total / 1000.0) * 4)
    grid = np.arange(length) * (total / length)
    x = CubicSpline(time, rr, bc_type="natural")(grid)
    x = x - x.mean()
    k = np.arange(length)
    x = x * (0.5 * (1 - np.cos(2 * np.pi * k / (length - 1))))
    nfft = 1 << (length - 1).bit_length()
    spectrum = np.fft.fft(np.concatenate([x, np.zeros(nfft - length)]))
    lf = hf = 0.0
    for i in range(nfft // 2):
        f = i / nfft * 4
        p = (spectrum[i].real ** 2 + spectrum[i].imag ** 2) * 8 / 3
        if 0.04 <= f <= 0.15:
            lf += p
        if 0.15 < f <= 0.4:
            hf += p
    return {"lfPower": lf, "hfPower": hf, "lfHfRatio": lf / hf}


# ------------------------------------------------------------------ nonlinear
def sample_entropy(x, m=2, r=None):
    x = np.asarray(x, dtype=float)
    n_templates = len(x) - m
    a = b = 0
    for i in range(n_templates - 1):
        j = np.arange(i + 1, n_templates)
        dist_m = np.max(np.abs(np.stack([x[i + k] - x[j + k] for k in range(m)])), axis=0)
        match = dist_m <= r
        b += int(np.sum(match))
        a += int(np.sum(match & (np.abs(x[i + m] - x[j + m]) <= r)))
    return -math.log(a / b)


def dfa(x, sizes):
    x = np.asarray(x, dtype=float)
    if len(x) < max(sizes):
        return None
    y = np.cumsum(x - x.mean())
    log_n, log_f = [], []
    for n in sizes:
        boxes = len(y) // n
        residuals = 0.0
        k = np.arange(n)
        for b in range(boxes):
            seg = y[b * n:(b + 1) * n]
            coef = np.polyfit(k, seg, 1)
            residuals += np.sum((seg - np.polyval(coef, k)) ** 2)
        log_n.append(math.log(n))
        log_f.append(math.log(math.sqrt(residuals / (boxes * n))))
    return float(np.polyfit(log_n, log_f, 1)[0])


def nonlinear(rr):
    rr = np.asarray(rr, dtype=float)
    d = np.diff(rr)
    sd1 = math.sqrt(np.var(d, ddof=1) / 2)
    sdnn = rr.std(ddof=1)
    sd2 = math.sqrt(2 * sdnn ** 2 - sd1 ** 2)
    return {"sd1": sd1, "sd2": sd2, "sd1sd2Ratio": sd1 / sd2, "ellipseArea": math.pi * sd1 * sd2,
            "sampleEntropy": sample_entropy(rr, 2, 0.2 * sdnn),
            "dfaAlpha1": dfa(rr, range(4, 17)),
            "dfaAlpha2": dfa(rr, range(16, 65)) if len(rr) >= 256 else None}


# -------------------------------------------------------- artifact correction
def inject_artifacts(rr, seed, every=50):
    """Artifacts of each kind at known positions, about one per `every` beats."""
    rng = np.random.default_rng(seed)
    rr = list(rr)
    out, truth, i, kinds = [], [], 0, ["ectopic", "missed", "extra", "long", "short"]
    while i < len(rr):
        if i > 30 and i < len(rr) - 30 and rng.random() < 1 / every:
            kind = kinds[int(rng.integers(len(kinds)))]
            at = len(out)
            if kind == "ectopic":
                p = rng.uniform(0.25, 0.4)
                out += [round(rr[i] * (1 - p), 3), round(rr[i + 1] + rr[i] * p, 3)]
                i += 2
            elif kind == "missed":
                out.append(round(rr[i] + rr[i + 1], 3))
                i += 2
            elif kind == "extra":
                q = rng.uniform(0.3, 0.7)
                out += [round(rr[i] * q, 3), round(rr[i] * (1 - q), 3)]
                i += 1
            else:
                p = rng.uniform(0.3, 0.45) * (1 if kind == "long" else -1)
                out.append(round(rr[i] * (1 + p), 3))
                i += 1
            truth.append({"index": at, "type": kind})
            continue
        out.append(rr[i])
        i += 1
    return out, truth


def kubios_reference(rr, alpha=5.2, c1=0.13, c2=0.17, window=91, medfilt=11, floor=1.0):
    """Lipponen & Tarvainen 2019 as NeuroKit2's _find_artifacts implements it, on RR
    intervals with Heartwork's documented choices (first dRR 0, thresholds ≥ 1 ms, an extra
    beat consumes the next interval), and Heartwork's interval-domain correction."""
    import pandas as pd
    rr = np.asarray(rr, dtype=float)
    n = len(rr)
    drr = np.diff(rr, prepend=rr[0])

    def threshold(x):
        frame = pd.Series(np.abs(x))
        q1 = frame.rolling(window, center=True, min_periods=1).quantile(0.25).values
        q3 = frame.rolling(window, center=True, min_periods=1).quantile(0.75).values
        return np.maximum(alpha * (q3 - q1) / 2, floor)

    th1 = threshold(drr)
    d = drr / th1
    pad = np.pad(d, 2, "reflect")
    med = pd.Series(rr).rolling(medfilt, center=True, min_periods=1).median().values
    mrr = rr - med
    mrr[mrr < 0] *= 2
    th2 = threshold(mrr)
    m = mrr / th2

    def nd(k):
        return pad[k + 2]

    flags, consumed, i = {}, set(), 0
    while i < n - 2:
        if i in consumed or abs(d[i]) <= 1:
            i += 1
            continue
        s12 = max(nd(i - 1), nd(i + 1)) if d[i] > 0 else min(nd(i - 1), nd(i + 1))
        if (d[i] > 1 and s12 < -c1 * d[i] - c2) or (d[i] < -1 and s12 > -c1 * d[i] + c2):
            flags[i] = "ectopic"
            i += 1
            continue
        candidates = [i] + ([i + 1] if abs(nd(i + 1)) < abs(nd(i + 2)) else [])
        for j in candidates:
            if j in consumed or j in flags:
                i += 1
                continue
            s22 = min(nd(j + 1), nd(j + 2)) if nd(j) >= 0 else max(nd(j + 1), nd(j + 2))
            long_, far, short = nd(j) > 1 and s22 < -1, abs(m[j]) > 3, nd(j) < -1 and s22 > 1
            if not (long_ or far or short):
                i += 1
                continue
            missed = abs(rr[j] / 2 - med[j]) < th2[j]
            extra = j + 1 < n and abs(rr[j] + rr[j + 1] - med[j]) < th2[j]
            if short and extra:
                flags[j] = "extra"
                consumed.add(j + 1)
            elif long_ and missed:
                flags[j] = "missed"
            else:
                flags[j] = "long" if rr[j] > med[j] else "short"
            i += 1
    normal = [k for k in range(n) if k not in flags and k not in consumed]
    corrected = []
    for j in range(n):
        if j in consumed:
            continue
        kind = flags.get(j)
        if kind is None:
            corrected.append(rr[j])
        elif kind == "extra":
            corrected.append(rr[j] + rr[j + 1])
        elif kind == "missed":
            corrected += [rr[j] / 2, rr[j] / 2]
        else:
            before = [k for k in normal if k < j]
            after = [k for k in normal if k > j]
            if before and after:
                p, q = before[-1], after[0]
                corrected.append(rr[p] + (rr[q] - rr[p]) * (j - p) / (q - p))
            else:
                corrected.append(rr[before[-1]] if before else rr[after[0]])
    artifacts = [{"index": k, "type": flags[k]} for k in sorted(flags)]
    return artifacts, corrected


# ------------------------------------------------------------ NeuroKit2 check
def neurokit_cross_check(name, rr, time, nonlin):
    try:
        import neurokit2 as nk
    except ImportError:
        print(f"{name}: NeuroKit2 not installed, cross-check skipped", file=sys.stderr)
        return None
    t = np.cumsum(rr) / 1000
    nk_time = nk.hrv_time({"RRI": np.asarray(rr), "RRI_Time": t})
    pairs = {"meanNN": "HRV_MeanNN", "sdnn": "HRV_SDNN", "rmssd": "HRV_RMSSD", "sdsd": "HRV_SDSD",
             "pnn50": "HRV_pNN50", "pnn20": "HRV_pNN20", "medianNN": "HRV_MedianNN", "cvnn": "HRV_CVNN"}
    report = {}
    for ours, theirs in pairs.items():
        value = float(nk_time[theirs].iloc[0])
        assert math.isclose(value, time[ours], rel_tol=1e-9), f"{name}: {ours} {time[ours]} vs NeuroKit2 {value}"
        report[ours] = value
    sampen, _ = nk.entropy_sample(np.asarray(rr), dimension=2, delay=1, tolerance=0.2 * np.std(rr, ddof=1))
    assert math.isclose(sampen, nonlin["sampleEntropy"], rel_tol=1e-9), f"{name}: SampEn {nonlin['sampleEntropy']} vs NeuroKit2 {sampen}"
    report["sampleEntropy"] = float(sampen)
    # Documented differences: NeuroKit2 anchors its histogram with np.arange and fits TINN by
    # its own search, so HTI/TINN are reported for information only.
    report["info_HTI"] = float(nk_time["HRV_HTI"].iloc[0])
    report["info_TINN"] = float(nk_time["HRV_TINN"].iloc[0])
    return report


def main():
    cases = {
        "rest-5min": synthetic(seed=1, seconds=300),
        "short-2min": synthetic(seed=2, seconds=120, mean=780, rsa=45, mayer=20, noise=15),
        "exercise-10min": synthetic(seed=3, seconds=600, mean=450, rsa=6, mayer=5, noise=4, drift_sd=1.5),
        "rest-1h": synthetic(seed=4, seconds=3600, mean=950, rsa=35, mayer=45, noise=14, drift_sd=3.0),
    }
    output = {
        "generatedBy": "Tests/Reference/hrv_reference.py",
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__},
        "series": {},
    }
    for name, rr in cases.items():
        time = time_domain(rr)
        nonlin = nonlinear(rr)
        entry = {
            "rr": rr,
            "timeDomain": time,
            "welch": welch_indices(rr),
            "lomb": lomb_indices(rr),
            "fitlab": fitlab_lfhf(rr),
            "nonlinear": nonlin,
        }
        cross = neurokit_cross_check(name, rr, time, nonlin)
        if cross is not None:
            import neurokit2 as nk
            output["versions"]["neurokit2"] = nk.__version__
            entry["neurokit2"] = cross
        output["series"][name] = entry
        print(f"{name}: {len(rr)} beats, RMSSD {time['rmssd']:.3f}, LF/HF {entry['welch']['lfHfRatio']:.3f}, "
              f"SampEn {nonlin['sampleEntropy']:.4f}, DFA a1 {nonlin['dfaAlpha1']:.4f}")
    output["artifacts"] = {}
    for name, seed, base in [("injected-rest", 11, cases["rest-1h"][:1500]),
                             ("injected-exercise", 12, cases["exercise-10min"])]:
        rr, truth = inject_artifacts(base, seed)
        artifacts, corrected = kubios_reference(rr)
        output["artifacts"][name] = {"rr": rr, "injected": truth, "artifacts": artifacts, "corrected": corrected}
        print(f"{name}: {len(truth)} injected, {len(artifacts)} flagged")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(output, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
