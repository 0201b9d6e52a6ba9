import HeartworkFormats

/// The BlueZ calls the gateway makes, over a `DBusConnection`.
public struct BlueZClient: Sendable {
    public let connection: DBusConnection
    /// BlueZ's unique name on the bus: only its signals are believed (another local client
    /// could send us a made-up PropertiesChanged with heart-rate bytes).
    public let owner: String

    public init(connection: DBusConnection, owner: String) {
        self.connection = connection
        self.owner = owner
    }

    /// Connects to the system bus and checks that BlueZ owns `org.bluez` there; the error
    /// says which, in one line.
    public static func systemBus(environment: [String: String]) async throws -> BlueZClient {
        let addresses: [DBusAddress]
        do {
            addresses = try DBusConnection.systemBusAddresses(environment: environment)
        } catch {
            throw BlueZUnavailable("DBUS_SYSTEM_BUS_ADDRESS is not usable: \(error)")
        }
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: addresses)
        } catch {
            throw BlueZUnavailable("no D-Bus system bus (\(error)); is dbus running?")
        }
        guard try await connection.nameHasOwner(BlueZ.service), let owner = try? await connection.nameOwner(BlueZ.service) else {
            connection.shutdown()
            throw BlueZUnavailable("BlueZ is not on the system bus at \(connection.address) (org.bluez has no owner); is bluetoothd running?")
        }
        return BlueZClient(connection: connection, owner: owner)
    }

    func call(_ path: String, _ interface: String, _ member: String, _ body: [DBusValue] = [], timeout: Duration = .seconds(30)) async throws -> DBusMessage {
        try await connection.call(.methodCall(destination: BlueZ.service, path: path, interface: interface, member: member, body: body), timeout: timeout)
    }

    /// Subscribes to BlueZ's object and property signals.
    public func watch() async throws {
        try await connection.addMatch("type='signal',sender='\(BlueZ.service)',interface='\(BlueZ.objectManager)'")
        try await connection.addMatch("type='signal',sender='\(BlueZ.service)',interface='\(BlueZ.properties)',member='PropertiesChanged'")
    }

    public func managedObjects() async throws -> BlueZObjects {
        let reply = try await call("/", BlueZ.objectManager, "GetManagedObjects")
        return BlueZObjects(managedObjects: reply.body.first ?? .array(element: "{oa{sa{sv}}}", []))
    }

    /// Low-energy discovery of heart-rate straps only.
    public func startDiscovery(adapter: String) async throws {
        _ = try await call(adapter, BlueZ.adapter, "SetDiscoveryFilter", [.properties(["UUIDs": .strings([BlueZ.heartRateService]), "Transport": .string("le")])])
        _ = try await call(adapter, BlueZ.adapter, "StartDiscovery")
    }

    public func stopDiscovery(adapter: String) async throws {
        _ = try await call(adapter, BlueZ.adapter, "StopDiscovery")
    }

    public func connect(device: String) async throws {
        _ = try await call(device, BlueZ.device, "Connect", timeout: .seconds(40))
    }

    public func disconnect(device: String) async throws {
        _ = try await call(device, BlueZ.device, "Disconnect")
    }

    public func startNotify(characteristic: String) async throws {
        _ = try await call(characteristic, BlueZ.gattCharacteristic, "StartNotify")
    }

    public func readValue(characteristic: String) async throws -> [UInt8] {
        try await call(characteristic, BlueZ.gattCharacteristic, "ReadValue", [.properties([])]).body.first?.byteArray ?? []
    }
}

/// BlueZ cannot be reached: the reason, in one line.
public struct BlueZUnavailable: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
