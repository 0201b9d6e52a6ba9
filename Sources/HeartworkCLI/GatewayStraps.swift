import Foundation
import HeartworkFormats

/// One strap's connection as the gateway manages it — pure, times are seconds on a
/// monotonic clock passed in (FitLabTeam seed F14): a strap that is not connected is tried
/// again every 5 s (`retryInterval` after the previous try ended), and given up after 10
/// tries in a row have failed; a strap that connects again (by our try or on its own) starts
/// a fresh count.
struct StrapLink: Sendable, Hashable {
    static let retryInterval = 5.0
    static let maximumTries = 10
    /// How long a connected strap may take to have its services resolved and its
    /// notifications started before that try counts as failed.
    static let setupTimeout = 30.0

    enum State: Sendable, Hashable {
        /// Listed, but BlueZ has not seen it yet.
        case notSeen
        /// Seen and not connected; a try is due at `nextTry`.
        case waiting
        /// A Connect call is under way, or connected and being set up (services, StartNotify).
        case connecting
        /// Notifications started: readings flow.
        case streaming
        case givenUp
    }

    private(set) var state: State = .notSeen
    /// Failed tries since the strap last streamed.
    private(set) var failedTries = 0
    private(set) var nextTry = 0.0
    private(set) var setupStarted = 0.0
    /// Whether the strap ever streamed (a first connection is "connecting", later ones
    /// "reconnecting").
    private(set) var everStreamed = false

    /// BlueZ knows the strap: the first try is due at once.
    mutating func seen(at now: Double) {
        guard state == .notSeen else { return }
        state = .waiting
        nextTry = now
    }

    /// Whether a try should start now.
    func tryDue(at now: Double) -> Bool { state == .waiting && now >= nextTry }

    mutating func tryStarted(at now: Double) {
        state = .connecting
        setupStarted = now
    }

    /// Notifications started.
    mutating func streaming() {
        state = .streaming
        failedTries = 0
        everStreamed = true
    }

    /// A try failed (Connect or StartNotify answered an error, or the set-up timed out).
    mutating func tryFailed(at now: Double) {
        guard state == .connecting else { return }
        failedTries += 1
        if failedTries >= Self.maximumTries {
            state = .givenUp
        } else {
            state = .waiting
            nextTry = now + Self.retryInterval
        }
    }

    /// The strap dropped (Connected became false): the first try comes 5 s later.
    mutating func dropped(at now: Double) {
        switch state {
        case .streaming:
            state = .waiting
            nextTry = now + Self.retryInterval
        case .connecting:
            tryFailed(at: now)
        case .notSeen, .waiting, .givenUp:
            break
        }
    }

    /// Whether a set-up has taken too long.
    func setupTimedOut(at now: Double) -> Bool { state == .connecting && now - setupStarted > Self.setupTimeout }

    /// The state's name in status lines.
    var label: String {
        switch state {
        case .notSeen: "not seen"
        case .waiting: failedTries == 0 && !everStreamed ? "found" : "reconnecting"
        case .connecting: everStreamed || failedTries > 0 ? "reconnecting" : "connecting"
        case .streaming: "streaming"
        case .givenUp: "given up"
        }
    }
}

/// Each sensor's next sequence number, never going backwards, also across restarts and
/// crashes: numbers are handed out from a reservation kept in the state file, and the file
/// is written (`needsSave`) before a number beyond the reservation is used. A clean stop
/// saves the exact next numbers, so a restart resumes where it stopped.
struct SequenceBook: Sendable, Hashable {
    /// How many numbers a sensor reserves at a time (one write of the state file per 256
    /// readings of a strap: about four minutes at 1 Hz).
    static let block = 256

    private(set) var next: [String: Int] = [:]
    private(set) var reserved: [String: Int] = [:]

    init(next: [String: Int] = [:]) {
        self.next = next
        reserved = next
    }

    /// The sequence number for a new reading of `sensor`, and whether the state must be
    /// saved (with `reservations`) before it is used.
    mutating func take(_ sensor: String) -> (sequence: Int, needsSave: Bool) {
        let sequence = next[sensor] ?? 0
        next[sensor] = sequence + 1
        if sequence >= reserved[sensor] ?? 0 {
            reserved[sensor] = sequence + Self.block
            return (sequence, true)
        }
        return (sequence, false)
    }

    /// What to keep in the state file while running: each sensor's reservation.
    var reservations: [String: Int] { reserved }
}
