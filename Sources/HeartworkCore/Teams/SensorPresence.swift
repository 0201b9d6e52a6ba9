import Foundation

/// Whether a strap is connected (FitLabTeam F2: the sensors list shows the straps "already
/// sending data to the system" in green, the others in red): heard within the last
/// `connectedWithinSeconds`. The seed's straps notify once a second; 10 s leaves room for a
/// gateway's reconnect and a frame's trip without calling a strap that just spoke silent.
public enum SensorPresence {
    public static let connectedWithinSeconds = 10.0

    /// Heard at `lastAt`, no more than 10 s before `now` (a time a little ahead of `now`, from a
    /// gateway's clock, counts as heard now).
    public static func isConnected(lastAt: Date?, now: Date) -> Bool {
        guard let lastAt else { return false }
        return now.timeIntervalSince(lastAt) <= connectedWithinSeconds
    }
}
