import Foundation
import HeartworkFormats
import Testing

/// The D-Bus wire format (D-Bus Specification 0.41, "Marshaling"). The golden messages in
/// `Resources/dbus-golden.json` were written by GLib's GDBus (`Gio.DBusMessage.to_blob`, an
/// independent implementation) through `Tests/Reference/dbus_golden.py`; these tests need
/// neither Python nor a bus.
@Suite("D-Bus codec")
struct DBusCodecTests {
    static let golden: [String: [UInt8]] = {
        guard let url = Bundle.module.url(forResource: "dbus-golden", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: String]
        else { return [:] }
        return object.mapValues { (try? HexBytes.parse($0)) ?? [] }
    }()

    static func golden(_ name: String) throws -> [UInt8] {
        try #require(golden[name].flatMap { $0.isEmpty ? nil : $0 }, "missing golden message \(name)")
    }

    /// The body's bytes: everything after the header fields' padding to 8.
    static func body(of bytes: [UInt8]) throws -> [UInt8] {
        let length = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        return Array(bytes.suffix(length))
    }

    @Test(arguments: ["hello", "addMatch", "setDiscoveryFilter", "readValue", "propertiesChanged", "deviceChanged", "managedObjects", "error", "everyType"])
    func everyGoldenMessageReadsAndWritesBackToTheSameBytes(name: String) throws {
        let bytes = try Self.golden(name)
        #expect(try DBusMessage.length(ofMessageStarting: bytes) == bytes.count)
        let message = try DBusMessage.decode(bytes)
        #expect(message.encoded() == bytes)
    }

    /// Our own method calls (fields in our order) carry the same body bytes and the same
    /// fields as GDBus's.
    @Test func ourMethodCallsMatchGDBus() throws {
        let filter = DBusMessage.methodCall(
            destination: "org.bluez", path: "/org/bluez/hci0", interface: "org.bluez.Adapter1", member: "SetDiscoveryFilter",
            body: [.properties(["UUIDs": .strings(["0000180d-0000-1000-8000-00805f9b34fb"]), "Transport": .string("le")])], serial: 3)
        let gdbus = try DBusMessage.decode(try Self.golden("setDiscoveryFilter"))
        // GDBus writes dictionary entries in its hash order: compare as dictionaries, bytes
        // with the same order.
        #expect(gdbus.body.first?.dictionary == filter.body.first?.dictionary)
        let sameOrder = DBusMessage.methodCall(
            destination: "org.bluez", path: "/org/bluez/hci0", interface: "org.bluez.Adapter1", member: "SetDiscoveryFilter", body: gdbus.body, serial: 3)
        #expect(try Self.body(of: sameOrder.encoded()) == Self.body(of: try Self.golden("setDiscoveryFilter")))
        let decoded = try DBusMessage.decode(sameOrder.encoded())
        #expect(decoded.path == "/org/bluez/hci0" && decoded.interface == "org.bluez.Adapter1" && decoded.member == "SetDiscoveryFilter")
        #expect(decoded.destination == "org.bluez" && decoded.serial == 3 && decoded.kind == .methodCall)

        let read = DBusMessage.methodCall(
            destination: "org.bluez", path: "/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c/char000d", interface: "org.bluez.GattCharacteristic1",
            member: "ReadValue", body: [.properties([])], serial: 4)
        #expect(try Self.body(of: read.encoded()) == Self.body(of: try Self.golden("readValue")))
        #expect(try Self.body(of: read.encoded()) == [0, 0, 0, 0, 0, 0, 0, 0], "an empty a{sv}: length 0, then padding to the entries' 8")

        let hello = DBusMessage.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello", serial: 1)
        let goldenHello = try DBusMessage.decode(try Self.golden("hello"))
        #expect(hello.encoded().count == goldenHello.encoded().count)
        #expect(Dictionary(uniqueKeysWithValues: hello.fields.map { ($0.code, $0.value) }) == Dictionary(uniqueKeysWithValues: goldenHello.fields.map { ($0.code, $0.value) }))
    }

    @Test func aNotificationGivesTheCharacteristicsValue() throws {
        let message = try DBusMessage.decode(try Self.golden("propertiesChanged"))
        #expect(message.kind == .signal && message.sender == ":1.5" && message.serial == 7)
        #expect(message.interface == "org.freedesktop.DBus.Properties" && message.member == "PropertiesChanged")
        #expect(message.path == "/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c/char000d")
        #expect(message.signature == "sa{sv}as")
        #expect(message.body[0].string == "org.bluez.GattCharacteristic1")
        #expect(message.body[1].dictionary?["Value"]?.byteArray == [0x16, 0x48, 0x00, 0x04])
        #expect(message.body[2].stringArray == [])

        let device = try DBusMessage.decode(try Self.golden("deviceChanged"))
        let changed = try #require(device.body[1].dictionary)
        #expect(changed["Connected"]?.bool == false && changed["RSSI"]?.integer == -60)
        #expect(device.body[2].stringArray == ["ServicesResolved"])
    }

    @Test func managedObjectsOfEveryTypeBlueZUses() throws {
        let message = try DBusMessage.decode(try Self.golden("managedObjects"))
        #expect(message.kind == .methodReturn && message.replySerial == 5 && message.destination == ":1.42")
        #expect(message.signature == "a{oa{sa{sv}}}")
        let objects = try #require(message.body.first?.dictionary)
        #expect(objects.count == 3)
        let device = try #require(objects["/org/bluez/hci0/dev_A0_9E_1A_12_34_56"]?.dictionary?["org.bluez.Device1"]?.dictionary)
        #expect(device["Address"]?.string == "A0:9E:1A:12:34:56" && device["Name"]?.string == "Polar H10 1234")
        #expect(device["UUIDs"]?.stringArray == ["0000180d-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb"])
        #expect(device["RSSI"]?.unwrapped == .int16(-61) && device["Connected"]?.bool == true)
        #expect(device["Adapter"]?.unwrapped == .objectPath("/org/bluez/hci0"))
        #expect(device["Class"]?.unwrapped == .uint32(0x24_0404) && device["Appearance"]?.unwrapped == .uint16(833))
        #expect(device["ManufacturerData"]?.dictionary == nil, "a{qv} has number keys")
        #expect(device["ManufacturerData"]?.elements == [.dictEntry(.uint16(107), .variant(.bytes([1, 2])))])
        let characteristic = try #require(objects["/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c/char000d"]?.dictionary?["org.bluez.GattCharacteristic1"]?.dictionary)
        #expect(characteristic["UUID"]?.string == "00002a37-0000-1000-8000-00805f9b34fb")
        #expect(characteristic["Value"]?.byteArray == [])
        #expect(characteristic["Handle"]?.integer == 13)
    }

    @Test func anErrorReply() throws {
        let message = try DBusMessage.decode(try Self.golden("error"))
        #expect(message.kind == .error && message.errorName == "org.bluez.Error.Failed" && message.replySerial == 6)
        #expect(message.errorText == "Operation already in progress")
    }

    /// Every basic type in one struct: each aligned from the message's start.
    @Test func everyBasicTypeAligned() throws {
        let message = try DBusMessage.decode(try Self.golden("everyType"))
        #expect(message.signature == "ybnqiuxtdsogv")
        #expect(
            message.body == [
                .byte(0xFE), .boolean(true), .int16(-2), .uint16(65534), .int32(-70000), .uint32(4_000_000_000), .int64(-5_000_000_000),
                .uint64(18_000_000_000_000_000_000), .double(1.5), .string("héllo"), .objectPath("/a/b"), .signature("a{sv}"),
                .variant(.structure([.byte(7), .int64(-1)])),
            ])
        var writer = DBusWriter()
        for value in message.body { writer.write(value) }
        #expect(writer.bytes == (try Self.body(of: try Self.golden("everyType"))))
    }

    /// By the specification's rules, worked by hand: a uint32 after a byte is padded to 4, an
    /// int64 to 8; an array of int64 pads after its length to the first element.
    @Test func alignmentByTheSpecification() {
        var writer = DBusWriter()
        writer.write(.byte(1))
        writer.write(.uint32(0x0403_0201))
        writer.write(.array(element: "x", [.int64(5)]))
        #expect(writer.bytes == [1, 0, 0, 0, 1, 2, 3, 4, 8, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0])
        var string = DBusWriter()
        string.write(.string("foo"))
        #expect(string.bytes == [3, 0, 0, 0, 0x66, 0x6F, 0x6F, 0])
        var signature = DBusWriter()
        signature.write(.variant(.uint32(1)))
        #expect(signature.bytes == [1, 0x75, 0, 0, 1, 0, 0, 0])
    }

    @Test func truncatedAndCorruptMessagesAreRefusedWithTheirByte() throws {
        let bytes = try Self.golden("propertiesChanged")
        for cut in [0, 10, 16, 100, bytes.count - 1] {
            #expect(throws: DBusError.self) { try DBusMessage.decode(Array(bytes.prefix(cut))) }
        }
        var badOrder = bytes
        badOrder[0] = UInt8(ascii: "x")
        #expect(throws: DBusError.self) { try DBusMessage.decode(badOrder) }
        // A boolean of 2.
        #expect(Self.readError([2, 0, 0, 0], "b") == DBusError("byte 0: a boolean is 0 or 1, not 2"))
        // An array longer than what is left.
        #expect(Self.readError([0xFF, 0, 0, 0, 1], "ay") != nil)
        // A string without its NUL.
        #expect(Self.readError([3, 0, 0, 0, 0x66, 0x6F, 0x6F, 0x6F], "s") == DBusError("byte 7: a string is not NUL-terminated"))
        // Padding that is not zero: a uint32 after a byte.
        #expect(Self.readError([1, 9, 0, 0, 1, 0, 0, 0], "(yu)") == DBusError("byte 1: padding is not zero"))
        // Nested variants past 64 levels.
        var deep: [UInt8] = []
        for _ in 0..<70 { deep += [1, UInt8(ascii: "v"), 0] }
        #expect(Self.readError(deep, "v") != nil)
    }

    static func readError(_ bytes: [UInt8], _ signature: String) -> DBusError? {
        var reader = DBusReader(bytes)
        do {
            _ = try reader.read(signature)
            return nil
        } catch {
            return error
        }
    }

    @Test func signatures() throws {
        #expect(try DBusSignature.split("sa{sv}as") == ["s", "a{sv}", "as"])
        #expect(try DBusSignature.split("a{oa{sa{sv}}}") == ["a{oa{sa{sv}}}"])
        #expect(try DBusSignature.split("(yv)ay") == ["(yv)", "ay"])
        for bad in ["a", "a{vs}", "a{s}", "()", "(s", "z", "{sv}x"] {
            #expect(throws: DBusError.self, "\(bad)") { try DBusSignature.split(bad) }
        }
    }

    @Test func authenticationLines() throws {
        // uid 1000 → "1000" → hex of each ASCII digit: 31303030 (the specification's example).
        #expect(DBusAuthentication.authExternal(uid: 1000) == [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        #expect(DBusAuthentication.authExternal(uid: 0) == [0] + Array("AUTH EXTERNAL 30\r\n".utf8))
        #expect(try DBusAuthentication.readOK("OK 1234deadbeef\r\n") == "1234deadbeef")
        #expect(throws: DBusError.self) { try DBusAuthentication.readOK("REJECTED EXTERNAL\r\n") }
    }

    @Test func busAddresses() throws {
        #expect(try DBusAddress.parse("unix:path=/run/dbus/system_bus_socket") == [.path("/run/dbus/system_bus_socket")])
        #expect(try DBusAddress.parse("unix:abstract=/tmp/dbus-XYZ,guid=0123") == [.abstract("/tmp/dbus-XYZ")])
        #expect(try DBusAddress.parse("tcp:host=x,port=1;unix:path=/tmp/a%20b") == [.path("/tmp/a b")])
        #expect(throws: DBusError.self) { try DBusAddress.parse("tcp:host=localhost,port=1") }
        #expect(throws: DBusError.self) { try DBusAddress.parse("nonsense") }
    }
}
