import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

extension MatchService {
    /// How long a strap's last reading stands for its heart rate; older, the second counts as
    /// lost contact (the 5-s hold of PRODUCT.md).
    static let strapHoldSeconds = 5

    /// Plays a player's side from their own strap, heard by one of their gateways (the match
    /// follows their sensor): at the middle of each second of the match, the strap's latest
    /// heart rate goes to the room as that second's reading — 0 (lost contact) when the strap
    /// reports no skin contact or was not heard for 5 s. Runs until the match's time is up or
    /// the task is cancelled (the player's socket closed).
    public func follow(
        sensorID: String, of user: UserRecord, into room: any MatchRoomHandle, side: Competitor,
        startMilliseconds: Int64, durationSeconds: Int, secondMilliseconds: Int
    ) async {
        let (watchID, events) = await live.watch(user)
        let latest = StrapState()
        let listener = Task {
            for await batch in events {
                if let reading = batch.last(where: { $0.sensor.id == sensorID })?.reading { await latest.take(reading) }
            }
        }
        defer { listener.cancel() }
        let length = Int64(max(1, secondMilliseconds))
        // Joined (or joined again after a dropped connection) mid-match: from the current second.
        let first = Int(min(Int64(durationSeconds), max(0, (Date().millisecondsSince1970 - startMilliseconds) / length)))
        for second in first..<durationSeconds {
            let due = startMilliseconds + Int64(second) * length + length / 2
            let wait = due - Date().millisecondsSince1970
            if wait > 0 {
                do { try await Task.sleep(for: .milliseconds(wait)) } catch { break }
            }
            let (bpm, rr) = await latest.beatsPerMinute(at: Date().millisecondsSince1970, hold: Int64(Self.strapHoldSeconds) * length)
            await room.reading(side, second: second, beatsPerMinute: bpm, rrMilliseconds: rr, source: .gateway)
        }
        await live.stopWatching(user, id: watchID)
    }
}

/// A strap's latest reading, as the match sees it.
actor StrapState {
    private var reading: SensorReading?
    private var heardAt: Int64 = 0

    private var rrTaken = false

    func take(_ reading: SensorReading) {
        self.reading = reading
        rrTaken = false
        heardAt = Date().millisecondsSince1970
    }

    /// The heart rate, and the RR intervals of the reading it came with (once: a reading held
    /// over a second without one brings no RR twice).
    func beatsPerMinute(at now: Int64, hold: Int64) -> (Double, [Double]) {
        guard let reading, now - heardAt <= hold, reading.contact != .notDetected,
            MatchRules.beatsPerMinute.contains(Double(reading.beatsPerMinute))
        else { return (0, []) }
        defer { rrTaken = true }
        return (Double(reading.beatsPerMinute), rrTaken ? [] : reading.rrIntervalsMilliseconds)
    }
}
