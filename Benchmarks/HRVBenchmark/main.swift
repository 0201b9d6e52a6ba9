// HRV benchmarks (issue #3). Release mode only:
//
//     swift run -c release heartwork-benchmarks
//
// Measures, in one run on the same synthetic data:
//   1. one hour (~4,700 beats), everything (Kubios correction, time, frequency, nonlinear);
//   2. 24 hours (~100,000 beats), whole-recording time + frequency domain plus the 5-minute
//      windowed table, and the peak memory of a process doing only that;
//   3. Heartwork against NeuroKit2 (hrv_time, hrv_frequency, entropy_sample, fractal_dfa)
//      on the one-hour series, printing each ratio.
// Figures are medians of repeated runs. Nothing here is a test: targets are reported, not asserted.
import Foundation
import HeartworkCore

#if canImport(Glibc)
import Glibc
#endif

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Median wall time of `repeats` runs after one warm-up, in seconds.
func measure(repeats: Int, _ body: () -> Void) -> Double {
    body()
    var samples = [Double]()
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return median(samples)
}

func recording(hours: Double, meanRR: Double, seed: UInt64) -> [Double] {
    var model = SyntheticRRModel()
    model.meanMilliseconds = meanRR
    let clean = model.generate(beats: Int(hours * 3_600_000 / meanRR), seed: seed)
    var random = SplitMix64(seed: seed &+ 1)
    return ArtifactInjector.inject(into: clean, everyBeats: 100, using: &random).0
}

func dayAnalysis(_ rr: [Double]) -> Int {
    let options = HRVOptions(correction: .kubios, spectrum: .welch, includesNonlinear: false)
    guard let result = try? HRVAnalysis.analyze(rr, options: options) else { return 0 }
    let windows = HRVAnalysis.windows(result.correction.corrected, windowSeconds: 300, options: HRVOptions())
    return windows.count
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

let arguments = CommandLine.arguments
if arguments.count > 1 && arguments[1] == "--day-only" {
    // Child process for the memory figure: generate the day, analyse it, report peak RSS.
    let day = recording(hours: 24, meanRR: 864, seed: 24)
    let windows = dayAnalysis(day)
    print("{\"windows\": \(windows), \"peakMegabytes\": \(peakResidentMegabytes())}")
    exit(0)
}

let hour = recording(hours: 1, meanRR: 766, seed: 1)
if arguments.count > 1 && arguments[1] == "--profile" {
    let rr = KubiosArtifactCorrector.correct(hour).corrected
    let resampled = FrequencyDomainAnalysis.resampled(rr)!
    print("spline+resample", measure(repeats: 51) { _ = FrequencyDomainAnalysis.resampled(rr) } * 1e3, "ms")
    let times = FrequencyDomainAnalysis.beatTimes(rr)
    print("beat times", measure(repeats: 51) { _ = FrequencyDomainAnalysis.beatTimes(rr) } * 1e3, "ms")
    print("spline init", measure(repeats: 51) { _ = CubicSpline(x: times, y: rr) } * 1e3, "ms")
    let spline = CubicSpline(x: times, y: rr)!
    let grid = (0..<14000).map { times[0] + Double($0) / 4 }
    print("spline eval", measure(repeats: 51) { _ = spline.evaluate(ascending: grid) } * 1e3, "ms")
    print("welch", measure(repeats: 51) { _ = WelchPeriodogram.estimate(resampled, samplingRate: 4, segmentLength: 1024) } * 1e3, "ms")
    print("fft plan", measure(repeats: 51) { _ = FFT(size: 1024) } * 1e3, "ms")
    let plan = FFT(size: 1024)
    let a = [Double](repeating: 1, count: 1024)
    print(
        "fft",
        measure(repeats: 51) {
            var re = a
            var im = a
            plan.forward(real: &re, imaginary: &im)
        } * 1e3, "ms")
    print("kubios", measure(repeats: 21) { _ = KubiosArtifactCorrector.correct(hour) } * 1e3, "ms")
    print("time", measure(repeats: 21) { _ = TimeDomainIndices(rrMilliseconds: rr) } * 1e3, "ms")
    print("nonlinear", measure(repeats: 21) { _ = NonlinearIndices(rrMilliseconds: rr) } * 1e3, "ms")
    let sd = Statistics.sampleStandardDeviation(rr)
    print("sampen", measure(repeats: 21) { _ = SampleEntropy.compute(rr, dimension: 2, tolerance: 0.2 * sd) } * 1e3, "ms")
    exit(0)
}
let day = recording(hours: 24, meanRR: 864, seed: 24)
print("Heartwork HRV benchmarks (release build)")
print("one hour: \(hour.count) beats; 24 hours: \(day.count) beats")
print("")

let hourAll = measure(repeats: 21) {
    _ = try? HRVAnalysis.analyze(hour, options: HRVOptions())
}
print(String(format: "1 h, everything (correction, time, frequency, nonlinear): %7.2f ms   target ≤ 20 ms", hourAll * 1000))

var windowCount = 0
let dayAll = measure(repeats: 5) { windowCount = dayAnalysis(day) }
print(String(format: "24 h, time + frequency + %d 5-min windows:          %7.2f ms   target ≤ 1000 ms", windowCount, dayAll * 1000))

let child = Process()
child.executableURL = URL(fileURLWithPath: arguments[0])
child.arguments = ["--day-only"]
let pipe = Pipe()
child.standardOutput = pipe
try child.run()
let childOutput = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
child.waitUntilExit()
if let data = childOutput.data(using: .utf8),
    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let megabytes = object["peakMegabytes"] as? Double
{
    print(String(format: "24 h, peak resident memory of the whole process:       %7.1f MB   target ≤ 100 MB", megabytes))
}
print("")

// Components, one hour, against NeuroKit2.
let corrected = KubiosArtifactCorrector.correct(hour).corrected
let sdnn = Statistics.sampleStandardDeviation(corrected)
let ours: [(name: String, seconds: Double)] = [
    ("hrv_time", measure(repeats: 51) { _ = TimeDomainIndices(rrMilliseconds: corrected) }),
    ("hrv_frequency", measure(repeats: 51) { _ = FrequencyDomainAnalysis.indices(corrected, method: .welch) }),
    ("entropy_sample", measure(repeats: 21) { _ = SampleEntropy.compute(corrected, dimension: 2, tolerance: 0.2 * sdnn) }),
    ("fractal_dfa", measure(repeats: 51) { _ = DetrendedFluctuation.alpha(corrected, boxSizes: Array(4...16)) }),
]

let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let dataFile = FileManager.default.temporaryDirectory.appendingPathComponent("heartwork-benchmark-hour.txt")
try corrected.map { String($0) }.joined(separator: "\n").write(to: dataFile, atomically: true, encoding: .utf8)
let python = Process()
python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
python.arguments = ["python3", directory.appendingPathComponent("neurokit_baseline.py").path, dataFile.path, "5"]
let pythonPipe = Pipe()
python.standardOutput = pythonPipe
python.standardError = FileHandle.standardError
try python.run()
let pythonOutput = pythonPipe.fileHandleForReading.readDataToEndOfFile()
python.waitUntilExit()
guard python.terminationStatus == 0,
    let baseline = try? JSONSerialization.jsonObject(with: pythonOutput) as? [String: Any]
else {
    print("NeuroKit2 baseline unavailable (pip install neurokit2 pandas); Heartwork figures only:")
    for entry in ours { print("  \(entry.name.padding(toLength: 15, withPad: " ", startingAt: 0))" + String(format: " %9.3f ms", entry.seconds * 1000)) }
    exit(0)
}
print("Against NeuroKit2 \(baseline["neurokit2"] ?? "?") on the same \(corrected.count) beats (median wall time):")
print("  function         Heartwork      NeuroKit2      ratio   target")
for entry in ours {
    let theirs = (baseline[entry.name] as? Double) ?? .nan
    let name = entry.name.padding(toLength: 15, withPad: " ", startingAt: 0)
    print("  \(name)" + String(format: " %9.3f ms  %10.3f ms  %7.0f×   ≥ 20×", entry.seconds * 1000, theirs * 1000, theirs / entry.seconds))
}
