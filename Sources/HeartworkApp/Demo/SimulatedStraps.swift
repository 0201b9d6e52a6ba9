import Foundation
import HeartworkCore
import HeartworkFormats

/// Simulated chest straps as a gateway hears them: real 0x2A37 bytes (8-bit heart rate,
/// sensor contact, up to nine RR intervals a notification) from the synthetic RR model, each
/// strap at its own heart rate, with occasional artifacts, batteries that drain, and straps
/// that lose skin contact or drop out for a few seconds and come back. The RR series repeats
/// once used up, so a strap streams for as long as it is asked to. Sequence numbers start at
/// `sequenceBase` (the simulator and the demo use the time in tenths of a second, so a
/// restarted simulator's readings are new readings, not resends of old ones).
public struct SimulatedStraps: Sendable {
    public struct Strap: Sendable {
        public let address: String
        var rr: [Double]
        var beat = 0
        var elapsedMilliseconds = 0.0
        var sequence = 0
        var battery: Double
        var silentTicks = 0
        var looseTicks = 0
    }

    public private(set) var straps: [Strap]
    private var random: SplitMix64
    public let tickMilliseconds: Double

    /// How the straps' addresses are made.
    public enum Addresses: Sendable {
        /// `C0:DE:00:00:00:00` on: the demo team's straps.
        case numbered
        /// From the seed, every one of them with `C0:DE:` then a byte from 0x80 (so never one of
        /// the demo's): another seed, other straps (`heartwork simulate gateway --seed`).
        case fromSeed
    }

    public init(count: Int, minutes: Double, rate: Double, seed: UInt64, sequenceBase: Int = 0, addresses: Addresses = .numbered) {
        random = SplitMix64(seed: seed)
        tickMilliseconds = 1000 / rate
        var straps = [Strap]()
        var addressRandom = SplitMix64(seed: seed ^ 0xADD2_E55E_5EED)
        var taken = Set<UInt32>()
        for index in 0..<count {
            var model = SyntheticRRModel()
            // From an easy 67 bpm to a hard 160 bpm, spread over the squad.
            model.meanMilliseconds = 375 + Double((index * 7919) % 520)
            let beats = Int(minutes * 60_000 / model.meanMilliseconds) + 32
            var rr = model.generate(beats: beats, seed: seed &+ UInt64(index))
            var artifacts = SplitMix64(seed: seed ^ UInt64(index) ^ 0x5EED)
            rr = ArtifactInjector.inject(into: rr, everyBeats: 150, using: &artifacts).0
            var number = UInt32(truncatingIfNeeded: index)
            if case .fromSeed = addresses {
                repeat { number = UInt32(truncatingIfNeeded: addressRandom.next()) | 0x8000_0000 } while !taken.insert(number).inserted
            }
            let address = String(format: "C0:DE:%02X:%02X:%02X:%02X", (number >> 24) & 0xFF, (number >> 16) & 0xFF, (number >> 8) & 0xFF, number & 0xFF)
            straps.append(Strap(address: address, rr: rr, sequence: sequenceBase, battery: 60 + Double((index * 37) % 41)))
        }
        self.straps = straps
    }

    /// The readings of one tick, one per strap that is heard, each with the beats that fell
    /// in the tick.
    public mutating func tick(atMilliseconds now: Int) -> [GatewayReading] {
        var readings = [GatewayReading]()
        for index in straps.indices {
            var strap = straps[index]
            defer { straps[index] = strap }
            var beats = [Double]()
            strap.elapsedMilliseconds += tickMilliseconds
            var consumed = 0.0
            while strap.beat < strap.rr.count, consumed + strap.rr[strap.beat] <= strap.elapsedMilliseconds {
                consumed += strap.rr[strap.beat]
                beats.append(strap.rr[strap.beat])
                strap.beat += 1
            }
            strap.elapsedMilliseconds -= consumed
            if strap.beat >= strap.rr.count { strap.beat = 0 }
            strap.battery = max(0, strap.battery - tickMilliseconds / 60_000 * 0.2)
            // About once in 20 minutes a strap drops out for 3–8 s; about once in 10 it slips off the skin.
            let ticksPerMinute = 60_000 / tickMilliseconds
            if strap.silentTicks == 0, Double.random(in: 0..<1, using: &random) < 1 / (20 * ticksPerMinute) {
                strap.silentTicks = Int(Double(Int.random(in: 3...8, using: &random)) * ticksPerMinute / 60)
            }
            if strap.looseTicks == 0, Double.random(in: 0..<1, using: &random) < 1 / (10 * ticksPerMinute) {
                strap.looseTicks = Int(Double(Int.random(in: 2...5, using: &random)) * ticksPerMinute / 60)
            }
            if strap.silentTicks > 0 {
                strap.silentTicks -= 1
                continue
            }
            let loose = strap.looseTicks > 0
            if loose { strap.looseTicks -= 1 }
            let recent = beats.isEmpty ? [strap.rr[max(0, min(strap.beat, strap.rr.count - 1))]] : beats
            let bpm = loose ? 0 : Int((60_000 / (recent.reduce(0, +) / Double(recent.count))).rounded())
            let ticks = loose ? [] : beats.suffix(HeartRateMeasurement.maximumRRIntervalCount).compactMap(RRIntervalUnit.ticks(fromMilliseconds:))
            let measurement = HeartRateMeasurement(beatsPerMinute: UInt16(clamping: bpm), sensorContact: loose ? .notDetected : .detected, rrIntervalTicks: ticks)
            readings.append(
                GatewayReading(
                    sensor: strap.address, sequence: strap.sequence, atMilliseconds: now, measurement: measurement,
                    battery: Int(strap.battery.rounded(.up)), rssi: -45 - Int.random(in: 0...35, using: &random)))
            strap.sequence += 1
        }
        return readings
    }
}
