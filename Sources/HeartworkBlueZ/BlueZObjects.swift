import HeartworkFormats

/// BlueZ's names (doc/org.bluez.*.rst in BlueZ's sources).
public enum BlueZ {
    public static let service = "org.bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// A 16-bit SIG UUID in BlueZ's spelling: 0000180d-0000-1000-8000-00805f9b34fb.
    public static func uuid(_ short: UInt16) -> String {
        let hex = String(short, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }

    public static let heartRateService = uuid(0x180D)
    public static let heartRateMeasurement = uuid(0x2A37)
    public static let batteryLevel = uuid(0x2A19)
}

/// A device as BlueZ describes it (org.bluez.Device1).
public struct BlueZDevice: Sendable, Hashable {
    public var path: String
    public var address: String
    public var name: String?
    public var uuids: [String]
    public var rssi: Int?
    public var connected: Bool
    public var servicesResolved: Bool
    public var adapter: String?

    public var isHeartRateStrap: Bool { uuids.contains { $0.lowercased() == BlueZ.heartRateService } }
}

/// BlueZ's objects as the gateway knows them: path → interface → properties, filled from
/// `GetManagedObjects` and kept current with InterfacesAdded, InterfacesRemoved and
/// PropertiesChanged. Pure: the signals are applied, not received, here.
public struct BlueZObjects: Sendable {
    public private(set) var objects: [String: [String: [String: DBusValue]]] = [:]

    public init() {}

    /// From `GetManagedObjects`' `a{oa{sa{sv}}}`.
    public init(managedObjects: DBusValue) {
        for (path, interfaces) in managedObjects.dictionary ?? [:] {
            objects[path] = Self.interfaces(interfaces)
        }
    }

    static func interfaces(_ value: DBusValue) -> [String: [String: DBusValue]] {
        (value.dictionary ?? [:]).mapValues { ($0.dictionary ?? [:]).mapValues(\.unwrapped) }
    }

    /// What a signal changed.
    public enum Change: Sendable, Hashable {
        case added(path: String, interfaces: [String])
        case removed(path: String, interfaces: [String])
        case properties(path: String, interface: String, changed: [String: DBusValue], invalidated: [String])
    }

    /// Applies an ObjectManager or Properties signal; other messages change nothing (nil).
    public mutating func apply(_ message: DBusMessage) -> Change? {
        guard message.kind == .signal, let path = message.path else { return nil }
        switch (message.interface, message.member) {
        case (BlueZ.objectManager, "InterfacesAdded"):
            guard message.body.count == 2, let object = message.body[0].string else { return nil }
            let added = Self.interfaces(message.body[1])
            objects[object, default: [:]].merge(added) { $1 }
            return .added(path: object, interfaces: added.keys.sorted())
        case (BlueZ.objectManager, "InterfacesRemoved"):
            guard message.body.count == 2, let object = message.body[0].string, let names = message.body[1].stringArray else { return nil }
            for name in names { objects[object]?[name] = nil }
            if objects[object]?.isEmpty == true { objects[object] = nil }
            return .removed(path: object, interfaces: names)
        case (BlueZ.properties, "PropertiesChanged"):
            guard message.body.count >= 2, let interface = message.body[0].string, let changed = message.body[1].dictionary else { return nil }
            let invalidated = message.body.count > 2 ? message.body[2].stringArray ?? [] : []
            let values = changed.mapValues(\.unwrapped)
            // Properties of an object we do not know yet are kept too (BlueZ announces it
            // first, but a late GetManagedObjects may race a signal).
            objects[path, default: [:]][interface, default: [:]].merge(values) { $1 }
            for name in invalidated { objects[path]?[interface]?[name] = nil }
            return .properties(path: path, interface: interface, changed: values, invalidated: invalidated)
        default:
            return nil
        }
    }

    public func properties(_ path: String, _ interface: String) -> [String: DBusValue]? { objects[path]?[interface] }

    /// The adapters' paths (org.bluez.Adapter1), sorted.
    public var adapters: [String] { objects.filter { $0.value[BlueZ.adapter] != nil }.keys.sorted() }

    public func device(at path: String) -> BlueZDevice? {
        guard let values = properties(path, BlueZ.device), let address = values["Address"]?.string else { return nil }
        return BlueZDevice(
            path: path, address: address.uppercased(), name: values["Alias"]?.string ?? values["Name"]?.string,
            uuids: values["UUIDs"]?.stringArray ?? [], rssi: values["RSSI"]?.integer, connected: values["Connected"]?.bool ?? false,
            servicesResolved: values["ServicesResolved"]?.bool ?? false, adapter: values["Adapter"]?.string)
    }

    /// The devices of an adapter (by their Adapter property, else their path), by address.
    public func devices(of adapter: String) -> [BlueZDevice] {
        objects.keys.compactMap { device(at: $0) }
            .filter { $0.adapter == adapter || ($0.adapter == nil && $0.path.hasPrefix(adapter + "/")) }
            .sorted { $0.address < $1.address }
    }

    /// The path of a device's characteristic with this UUID (through its service's Device
    /// property, else the path), when BlueZ has resolved it.
    public func characteristic(_ uuid: String, of device: String) -> String? {
        objects.keys.sorted().first { path in
            guard let values = properties(path, BlueZ.gattCharacteristic), values["UUID"]?.string?.lowercased() == uuid else { return false }
            if let service = values["Service"]?.string, let owner = self.properties(service, BlueZ.gattService)?["Device"]?.string {
                return owner == device
            }
            return path.hasPrefix(device + "/")
        }
    }
}
