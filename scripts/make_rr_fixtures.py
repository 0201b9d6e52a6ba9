#!/usr/bin/env python3
"""RR-interval files laid out as other tools export them, for the RR reader's tests:

    python3 scripts/make_rr_fixtures.py

writes into Tests/HeartworkFormatsTests/Resources/rr/ (standard library only; deterministic):

  kubios-export.txt          Kubios HRV Standard 3.x "HRV ANALYSIS RESULTS" text report: header,
                             parameters, results, then "RR INTERVAL DATA and SPECTRUM ESTIMATES"
                             with comma-separated, space-padded columns Time (s) and RR interval
                             (s) beside the spectrum columns (which end before the RR rows do).
  polar-flow.txt             Polar Flow's RR text export: `time rr` per line, both in seconds,
                             one space, no header, trailing zeros dropped, the first row at time
                             0.000 carrying the second row's interval, no final newline.
  elite-hrv.txt              Elite HRV's export: one whole-millisecond interval per line, no
                             header, no final newline.
  polar-sensor-logger.txt    Polar Sensor Logger's `_RR.txt`: header
                             `Phone timestamp;RR-interval [ms]`, then `ISO local time;ms` rows;
                             the phone time is when the Bluetooth notification arrived, so beats
                             delivered together share a timestamp.

and `<name>.expected.json` = {"intervalsMilliseconds": [...]}: the interval column of every data
row, in milliseconds. Where each layout comes from: Resources/rr/README.md. The header values
of the Kubios report (time-domain, spectrum, nonlinear) are computed here from the intervals by
simple methods (linear 4 Hz resampling, Hann periodogram, Yule-Walker AR(16)); only the layout
is Kubios's.
"""
import cmath
import json
import math
import pathlib
import random

OUT = pathlib.Path(__file__).resolve().parents[1] / "Tests" / "HeartworkFormatsTests" / "Resources" / "rr"


def intervals(seed, count, mean, rsa, lf, noise, ectopic=None, trend=lambda i: 0.0):
    """Whole-millisecond RR intervals (600–1100 ms): respiratory sinus arrhythmia (breathing
    every ~4.3 beats), a slower ~0.1 Hz wave, a drift, a `trend` (ms added at beat i), noise,
    and optionally one premature beat followed by its compensatory pause at index `ectopic`."""
    rng = random.Random(seed)
    values, phase_b, phase_l = [], rng.uniform(0, 6.3), rng.uniform(0, 6.3)
    for i in range(count):
        value = (mean + rsa * math.sin(2 * math.pi * i / 4.3 + phase_b) + lf * math.sin(2 * math.pi * i / 11.5 + phase_l)
                 + 35 * math.sin(i / 60) + trend(i) + rng.gauss(0, noise))
        values.append(value)
    if ectopic is not None:
        values[ectopic] = values[ectopic - 1] * 0.72
        values[ectopic + 1] = values[ectopic - 1] * 1.27
    return [int(min(1100, max(600, round(v)))) for v in values]


def write_expected(name, values):
    (OUT / f"{name}.expected.json").write_text(json.dumps({"intervalsMilliseconds": values}) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Polar Flow, Elite HRV, Polar Sensor Logger
# ---------------------------------------------------------------------------------------------

def short_seconds(ms):
    """Seconds as Polar Flow prints them: shortest form with at least one decimal (0.72, 1.0)."""
    return repr(ms / 1000)


def polar_flow(values):
    # The real files start with `0.000 r` where r is the second row's interval; every later row
    # is (previous time + its own interval, interval).
    rows = [f"0.000 {short_seconds(values[1])}"]
    elapsed = 0
    for ms in values[1:]:
        elapsed += ms
        rows.append(f"{repr(round(elapsed / 1000, 3))} {short_seconds(ms)}")
    (OUT / "polar-flow.txt").write_text("\n".join(rows), encoding="utf-8")
    write_expected("polar-flow", [values[1]] + values[1:])


def elite_hrv(values):
    (OUT / "elite-hrv.txt").write_text("\n".join(str(v) for v in values), encoding="utf-8")
    write_expected("elite-hrv", values)


def polar_sensor_logger(values, seed):
    """Beats happen at their own times; the phone hears them in notifications about once a
    second, ~20–120 ms later, and stamps every interval of a notification with its arrival."""
    rng = random.Random(seed)
    start_ms = ((6 * 60 + 58) * 60 + 2) * 1000 + 153  # 06:58:02.153 local time
    beat, rows, pending, next_notification = start_ms, [], [], start_ms + 1000
    for ms in values:
        beat += ms
        pending.append(ms)
        if beat >= next_notification:
            arrival = beat + rng.randint(20, 120)
            for rr in pending:
                rows.append((arrival, rr))
            pending, next_notification = [], next_notification + 1000
    if pending:
        arrival = beat + rng.randint(20, 120)
        rows += [(arrival, rr) for rr in pending]

    def stamp(ms):
        seconds, millis = divmod(ms, 1000)
        minutes, second = divmod(seconds, 60)
        hour, minute = divmod(minutes, 60)
        return f"2026-06-04T{hour:02d}:{minute:02d}:{second:02d}.{millis:03d}"

    text = "Phone timestamp;RR-interval [ms]\n" + "".join(f"{stamp(t)};{rr}\n" for t, rr in rows)
    (OUT / "polar-sensor-logger.txt").write_text(text, encoding="utf-8")
    write_expected("polar-sensor-logger", [rr for _, rr in rows])


# ---------------------------------------------------------------------------------------------
# Kubios HRV Standard 3.x report
# ---------------------------------------------------------------------------------------------

def resample(rr_s, fs=4.0):
    times, t = [], 0.0
    for r in rr_s:
        t += r
        times.append(t)
    grid, x, j = [], [], 0
    g = times[0]
    while g <= times[-1]:
        while times[j + 1] < g:
            j += 1
        a, b = times[j], times[j + 1]
        x.append(rr_s[j] + (rr_s[j + 1] - rr_s[j]) * (g - a) / (b - a))
        grid.append(g)
        g += 1 / fs
    mean = sum(x) / len(x)
    return [v - mean for v in x]


def periodogram(x, freqs, fs=4.0):
    n = len(x)
    w = [0.5 - 0.5 * math.cos(2 * math.pi * k / (n - 1)) for k in range(n)]
    u = sum(v * v for v in w)
    out = []
    for f in freqs:
        s = sum(w[k] * x[k] * cmath.exp(-2j * math.pi * f * k / fs) for k in range(n))
        out.append(2 * abs(s) ** 2 / (fs * u) * 1e6)  # s²/Hz → ms²/Hz, one-sided
    return out


def ar_spectrum(x, freqs, order=16, fs=4.0):
    n = len(x)
    r = [sum(x[k] * x[k + lag] for k in range(n - lag)) / n for lag in range(order + 1)]
    a, error = [0.0] * (order + 1), r[0]
    for m in range(1, order + 1):  # Levinson-Durbin
        k = (r[m] - sum(a[j] * r[m - j] for j in range(1, m))) / error
        a_new = a[:]
        a_new[m] = k
        for j in range(1, m):
            a_new[j] = a[j] - k * a[m - j]
        a, error = a_new, error * (1 - k * k)
    out = []
    for f in freqs:
        d = 1 - sum(a[j] * cmath.exp(-2j * math.pi * f * j / fs) for j in range(1, order + 1))
        out.append(2 * error / fs / abs(d) ** 2 * 1e6)
    return out


def band(freqs, psd, lo, hi):
    df = freqs[1] - freqs[0]
    return sum(p * df for f, p in zip(freqs, psd) if lo <= f < hi)


def sample_entropy(x, m=2, tol=None):
    tol = tol if tol is not None else 0.2 * stdev(x)
    def count(mm):
        c = 0
        for i in range(len(x) - mm):
            for j in range(i + 1, len(x) - mm):
                if all(abs(x[i + k] - x[j + k]) <= tol for k in range(mm)):
                    c += 1
        return c
    b, a = count(m), count(m + 1)
    return -math.log(a / b) if a and b else float("nan")


def approximate_entropy(x, m=2, tol=None):
    tol = tol if tol is not None else 0.2 * stdev(x)
    def phi(mm):
        n = len(x) - mm + 1
        total = 0.0
        for i in range(n):
            c = sum(1 for j in range(n) if all(abs(x[i + k] - x[j + k]) <= tol for k in range(mm)))
            total += math.log(c / n)
        return total / n
    return phi(m) - phi(m + 1)


def dfa(x, scales):
    mean = sum(x) / len(x)
    y, acc = [], 0.0
    for v in x:
        acc += v - mean
        y.append(acc)
    logs = []
    for n in scales:
        f2, boxes = 0.0, len(y) // n
        for b in range(boxes):
            seg = y[b * n:(b + 1) * n]
            t = list(range(n))
            tm, sm = sum(t) / n, sum(seg) / n
            slope = sum((ti - tm) * (si - sm) for ti, si in zip(t, seg)) / sum((ti - tm) ** 2 for ti in t)
            f2 += sum((si - (sm + slope * (ti - tm))) ** 2 for ti, si in zip(t, seg))
        logs.append((math.log10(n), 0.5 * math.log10(f2 / (boxes * n))))
    lm = sum(a for a, _ in logs) / len(logs)
    fm = sum(b for _, b in logs) / len(logs)
    return sum((a - lm) * (b - fm) for a, b in logs) / sum((a - lm) ** 2 for a, _ in logs)


def stdev(x):
    m = sum(x) / len(x)
    return math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1))


def kubios(values):
    rr_s = [v / 1000 for v in values]
    hr = [60000 / v for v in values]
    diffs = [b - a for a, b in zip(values, values[1:])]
    duration = sum(rr_s)
    hms = lambda s: f"{int(s) // 3600:02d}:{int(s) % 3600 // 60:02d}:{int(s) % 60:02d}"
    freqs = [k / 300 for k in range(151)]
    x = resample(rr_s)
    fft, ar = periodogram(x, freqs), ar_spectrum(x, freqs)
    powers = {}
    for label, psd in (("fft", fft), ("ar", ar)):
        vlf, lf, hf = band(freqs, psd, 0, 0.04), band(freqs, psd, 0.04, 0.15), band(freqs, psd, 0.15, 0.4)
        peak = lambda lo, hi: max(((p, f) for f, p in zip(freqs, psd) if lo <= f < hi))[1]
        powers[label] = dict(vlf=vlf, lf=lf, hf=hf, total=vlf + lf + hf,
                             peaks=(peak(0, 0.04), peak(0.04, 0.15), peak(0.15, 0.4)))
    sd1 = math.sqrt(0.5) * stdev(diffs)
    sd2 = math.sqrt(max(0.0, 2 * stdev(values) ** 2 - 0.5 * stdev(diffs) ** 2))
    nn20 = sum(1 for d in diffs if abs(d) > 20)
    bins = {}
    for v in values:
        bins[v // 50] = bins.get(v // 50, 0) + 1
    mode_bin = max(bins.items(), key=lambda kv: (kv[1], -kv[0]))[0]
    amo = 100 * bins[mode_bin] / len(values)
    stress = amo / (2 * (mode_bin * 50 + 25) / 1000 * (max(values) - min(values)) / 1000)

    f = lambda v, d=4: f"{v:12.{d}f}"
    fp, ap = powers["fft"], powers["ar"]
    lines = [
        "HRV ANALYSIS RESULTS - 04-Jun-2026 07:12:40",
        "Kubios HRV Standard",
        "3.1.0.1",
        "released in March 2018",
        "",
        "Analyzed by: Heartwork test fixture",
        "",
        "File name: C:\\Users\\athlete\\Documents\\HRV\\morning_rr.txt",
        "Measurement date: xx/xx/xx xx:xx:xx",
        "File type: asciiRR",
        "Channel label: RR data",
        f"Data length: {hms(duration)} (h:min:s)",
        "Measurement rate: - ",
        "",
        "Parameters",
        " Number of samples: 1",
        " Detrending method: none",
        " Min/Max HR as average of: 1 beats",
        " Threshold for NNxx/pNNxx: 20 ms",
        " Frequency bands",
        "  VLF: 0 - 0.04 Hz",
        "  LF: 0.04 - 0.15 Hz",
        "  HF: 0.15 - 0.4 Hz",
        " Interpolation rate: 4 Hz",
        " Points in frequency-domain: 300 points/Hz",
        " FFT spectrum options",
        "  Window width: 300 s",
        "  Window overlap: 50 %",
        " AR spectrum options",
        "  AR model order: 16",
        "  Use factorization: Yes",
        " Apply detrending for nonlinear analysis: 1",
        " Entropy, embedding dimension: 2",
        " Entropy, tolerance: 0.2 x SD",
        " DFA, short-term fluctuations: 4-12 beats",
        " DFA, long-term fluctuations: 13-64 beats",
        "",
        "RR Interval Samples Selected for Analysis",
        "                              ,    Sample 1,",
        f"  Sample limits (hh:mm:ss):   ,{hms(0)}-{hms(duration)},",
        "  Sample Analysis Type: Single sample",
        "  Artifact correction: none",
        "  Artifacts corrected (%):    ,           -,",
        "",
        "",
        "RESULTS FOR A SINGLE SAMPLE",
        "",
        "Results Overview              ,",
        "  PNS index:                  ,           -,            ,",
        "  SNS index:                  ,           -,            ,",
        f"  Stress index:               ,{f(math.sqrt(stress))},            ,",
        "",
        "Time-Domain Results           ,",
        " Statistical parameters       ,",
        f"  Mean RR  (ms):              ,{f(sum(values) / len(values))},            ,",
        f"  STD RR (ms):                ,{f(stdev(values))},            ,",
        f"  Mean HR (beats/min):        ,{f(60000 / (sum(values) / len(values)))},            ,",
        f"  STD HR (beats/min):         ,{f(stdev(hr))},            ,",
        f"  Min HR (beats/min):         ,{f(min(hr))},            ,",
        f"  Max HR (beats/min):         ,{f(max(hr))},            ,",
        f"  RMSSD (ms):                 ,{f(math.sqrt(sum(d * d for d in diffs) / len(diffs)))},            ,",
        f"  NNxx (beats):               ,{nn20:12d},            ,",
        f"  pNNxx (%):                  ,{f(100 * nn20 / len(diffs))},            ,",
        "  SDANN (ms):                 ,            ,            ,",
        "  SDNN index (ms):            ,            ,            ,",
        " Geometric parameters         ,",
        f"  RR tri index:               ,{f(len(values) / max(bins.values()), 6)},            ,",
        "  TINN (ms):                  ,            ,            ,",
        "",
        "Frequency-Domain Results      ,FFT spectrum, AR spectrum,",
        " Peak frequencies             ,",
        f"  VLF (Hz):                   ,{f(fp['peaks'][0], 6)},{f(ap['peaks'][0], 6)},",
        f"  LF (Hz):                    ,{f(fp['peaks'][1], 6)},{f(ap['peaks'][1], 6)},",
        f"  HF (Hz):                    ,{f(fp['peaks'][2], 6)},{f(ap['peaks'][2], 6)},",
        " Absolute powers              ,",
        f"  VLF (ms^2):                 ,{f(fp['vlf'])},{f(ap['vlf'])},",
        f"  LF (ms^2):                  ,{f(fp['lf'])},{f(ap['lf'])},",
        f"  HF (ms^2):                  ,{f(fp['hf'])},{f(ap['hf'])},",
        f"  VLF (log):                  ,{f(math.log(fp['vlf']))},{f(math.log(ap['vlf']))},",
        f"  LF (log):                   ,{f(math.log(fp['lf']))},{f(math.log(ap['lf']))},",
        f"  HF (log):                   ,{f(math.log(fp['hf']))},{f(math.log(ap['hf']))},",
        " Relative powers              ,",
        f"  VLF (%):                    ,{f(100 * fp['vlf'] / fp['total'])},{f(100 * ap['vlf'] / ap['total'])},",
        f"  LF (%):                     ,{f(100 * fp['lf'] / fp['total'])},{f(100 * ap['lf'] / ap['total'])},",
        f"  HF (%):                     ,{f(100 * fp['hf'] / fp['total'])},{f(100 * ap['hf'] / ap['total'])},",
        " Normalized powers            ,",
        f"  LF (n.u.):                  ,{f(100 * fp['lf'] / (fp['lf'] + fp['hf']))},{f(100 * ap['lf'] / (ap['lf'] + ap['hf']))},",
        f"  HF (n.u.):                  ,{f(100 * fp['hf'] / (fp['lf'] + fp['hf']))},{f(100 * ap['hf'] / (ap['lf'] + ap['hf']))},",
        f" Total power (ms^2):          ,{f(fp['total'])},{f(ap['total'])},",
        f" LF/HF ratio:                 ,{f(fp['lf'] / fp['hf'])},{f(ap['lf'] / ap['hf'])},",
        "",
        "",
        "Nonlinear Results             ,",
        " Poincare plot                ,",
        f"  SD1 (ms):                   ,{f(sd1, 6)},            ,",
        f"  SD2 (ms):                   ,{f(sd2, 6)},            ,",
        f"  SD2/SD1 ratio:              ,{f(sd2 / sd1, 6)},            ,",
        f" Approximate entropy (ApEn):  ,{f(approximate_entropy(values))},            ,",
        f" Sample entropy (SampEn):     ,{f(sample_entropy(values))},            ,",
        " Detrended fluctuation analysis (DFA),",
        f"  alpha 1:                    ,{f(dfa(values, range(4, 13)))},            ,",
        f"  alpha 2:                    ,{f(dfa(values, range(13, 65)))},            ,",
        "",
        "",
        "RR INTERVAL DATA and SPECTRUM ESTIMATES,",
        "                              ,    SAMPLE 1,            ,            ,            ,            ,            ,            ,            ,            ,",
        "                              ,     RR Data,            ,FFT spectrum,            , AR Spectrum,            ,            ,            ,            ,",
        "                              ,        Time, RR interval,   Frequency,         PSD,   Frequency,         PSD,   VLF comp.,    LF comp.,    HF comp.,",
        "                              ,         (s),         (s),        (Hz),   (ms^2/Hz),        (Hz),   (ms^2/Hz),   (ms^2/Hz),   (ms^2/Hz),   (ms^2/Hz),",
    ]
    elapsed = 0
    blank = "            ,"
    for i, ms in enumerate(values):
        elapsed += ms
        row = " " * 30 + "," + f"{elapsed / 1000:12.3f}," + f"{ms / 1000:12.3f},"
        if i < len(freqs):
            fr = freqs[i]
            parts = [ar[i] if fr < 0.04 else 0.0, ar[i] if 0.04 <= fr < 0.15 else 0.0, ar[i] if 0.15 <= fr < 0.4 else 0.0]
            row += f"{fr:12.3f},{fft[i]:12.4f},{fr:12.3f},{ar[i]:12.4f}," + "".join(f"{p:12.4f}," for p in parts)
        else:
            row += blank * 7
        lines.append(row)
    (OUT / "kubios-export.txt").write_text("\n".join(lines) + "\n\n\n", encoding="utf-8")
    write_expected("kubios-export", values)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    # Kubios: a resting recording that settles (RR lengthening as the subject relaxes).
    kubios(intervals(2101, 200, 880, 60, 35, 12, trend=lambda i: 90 * (1 - math.exp(-i / 70))))
    # Polar Flow: an orthostatic test, lying (~1000 ms) then standing up at beat 110 (~720 ms).
    polar_flow(intervals(2102, 201, 980, 50, 30, 12,
                         trend=lambda i: 0.0 if i < 110 else -330 * math.exp(-(i - 110) / 6) - 230 * (1 - math.exp(-(i - 110) / 25))))
    # Elite HRV: a morning reading with one premature beat and its compensatory pause.
    elite_hrv(intervals(2103, 200, 950, 65, 30, 10, ectopic=120))
    # Polar Sensor Logger: the start of a warm-up, RR falling from ~1000 ms towards ~650 ms.
    polar_sensor_logger(intervals(2104, 200, 1000, 45, 25, 12, trend=lambda i: -330 * (1 - math.exp(-i / 80))), seed=2105)
    for name in ("kubios-export", "polar-flow", "elite-hrv", "polar-sensor-logger"):
        values = json.loads((OUT / f"{name}.expected.json").read_text())["intervalsMilliseconds"]
        print(f"{name}: {len(values)} intervals, {min(values)}–{max(values)} ms, mean {sum(values) / len(values):.1f} ms")


if __name__ == "__main__":
    main()
