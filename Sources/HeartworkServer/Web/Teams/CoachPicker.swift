import HeartworkApp
import HeartworkCore
import HeartworkModel

extension CoachPage {
    /// The coach screen's "Who takes part" (FitLabTeam F6) with each player's sensor for this
    /// session (F5). A plain form: a checkbox a player, enabled when the player can be picked
    /// without JavaScript (their own sensor is connected, or another connected sensor can be
    /// chosen for them); coach-picker.js refines it as the coach chooses and the straps are heard.
    struct Picker: Sendable {
        struct SensorChoice: Sendable {
            let id: String
            let name: String
            let connected: Bool
            let selected: Bool
            /// "Bea's own", or nil.
            let note: String?
        }

        struct Pick: Sendable {
            let playerID: String
            let name: String
            /// Nil without one.
            let number: String?
            let initial: String
            let hasPhoto: Bool
            /// The player's own sensor: its id ("" without one) and name, and whether it is heard.
            let ownSensorID: String
            let ownSensor: String
            let hasOwnSensor: Bool
            let ownConnected: Bool
            /// The sensor chosen for this session (own unless one of `options` is selected).
            let connected: Bool
            /// "Connected", "Not connected" or "No sensor": of the sensor chosen.
            let status: String
            /// Why the player cannot be picked as things stand, in words ("" when they can).
            let reason: String
            let pickable: Bool
            let checked: Bool
            let options: [SensorChoice]
        }

        let picks: [Pick]
        let hasPicks: Bool
        /// Shown open when the form came back, or when nobody is picked yet (the reasons show);
        /// else a line, so the tiles keep the screen.
        let open: Bool
        let pickedCount: Int
        let total: Int
        let silentCount: Int
        let hasSilent: Bool
        /// Some player can be picked (the start button works without JavaScript).
        let canStart: Bool
        let connectedWithinSeconds: Int

        /// `form`: what came back with a mistake (the picks and the sensors chosen), else
        /// every player whose own sensor is connected is picked.
        init(_ lineup: TeamLineup, form: (players: [String], sensors: [String: String])?) {
            let names = Dictionary(lineup.sensors.map { ($0.id, $0.name ?? $0.address) }, uniquingKeysWith: { first, _ in first })
            let owners = Dictionary(lineup.players.compactMap { player in player.sensorID.map { ($0, player.name) } }, uniquingKeysWith: { first, _ in first })
            let picked = form.map { Set($0.players) }
            picks = lineup.players.map { player in
                let own = player.sensorID.flatMap { names[$0] != nil ? $0 : nil }
                let ownConnected = own.map { lineup.connected.contains($0) } ?? false
                let swap = form?.sensors[player.id].flatMap { $0.isEmpty || $0 == own ? nil : $0 }.flatMap { names[$0] != nil ? $0 : nil }
                let options = lineup.sensors.filter { $0.id != own }.map { sensor in
                    SensorChoice(
                        id: sensor.id, name: sensor.name ?? sensor.address, connected: lineup.connected.contains(sensor.id), selected: sensor.id == swap,
                        note: owners[sensor.id].map { "\($0)'s own" })
                }
                let wearing = swap ?? own
                let connected = wearing.map { lineup.connected.contains($0) } ?? false
                let spare = options.contains { $0.connected }
                let status = connected ? "Connected" : wearing == nil ? "No sensor" : "Not connected"
                var reason = ""
                if !connected {
                    let seconds = Int(SensorPresence.connectedWithinSeconds)
                    reason =
                        wearing == nil
                        ? "No sensor of their own: " + (spare ? "choose a connected one for this session." : "give them one on the team page.")
                        : "\(names[wearing!] ?? "The sensor") was not heard in the last \(seconds) s: "
                            + (spare ? "put it on, or choose a connected one." : "put it on and reload.")
                }
                let pickable = connected || spare
                return Pick(
                    playerID: player.id, name: player.name, number: player.number, initial: player.initials,
                    hasPhoto: player.hasPhoto, ownSensorID: own ?? "", ownSensor: own.flatMap { names[$0] } ?? "", hasOwnSensor: own != nil,
                    ownConnected: ownConnected, connected: connected, status: status, reason: reason, pickable: pickable,
                    checked: pickable && (picked.map { $0.contains(player.id) } ?? connected), options: options)
            }
            hasPicks = !picks.isEmpty
            pickedCount = picks.filter(\.checked).count
            total = picks.count
            silentCount = picks.filter { !$0.connected }.count
            hasSilent = silentCount > 0
            open = form != nil || pickedCount == 0
            canStart = picks.contains { $0.pickable }
            connectedWithinSeconds = Int(SensorPresence.connectedWithinSeconds)
        }
    }
}
