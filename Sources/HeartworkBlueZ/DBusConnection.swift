import Foundation
import HeartworkFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A client connection to a D-Bus bus over a Unix socket: authentication, `Hello`, method
/// calls with their replies, and the signals the bus routes to us.
///
/// Why the wire protocol is spoken here rather than through libdbus, sd-bus or GDBus: the
/// gateway is one subcommand of a single relocatable binary that also serves, imports and
/// converts; linking a D-Bus library would make every command need it installed (and its
/// headers to build), though only `heartwork gateway` talks to BlueZ. The protocol a client
/// needs is small — SASL EXTERNAL, a 16-byte header, little-endian marshalling of a dozen
/// types — and its codec (`HeartworkFormats/DBus`) is pure and tested against GDBus's bytes.
/// No Swift D-Bus package is in the local mirror.
///
/// One thread reads the socket (blocking `read`, so an idle gateway costs nothing) and hands
/// replies to their callers and signals to `signals`; writes are whole messages under a lock.
public final class DBusConnection: @unchecked Sendable {
    public let address: DBusAddress
    public private(set) var uniqueName = ""
    /// Signals (and any method call addressed to us), in the order they arrived; finishes
    /// when the connection ends.
    public let signals: AsyncStream<DBusMessage>

    private let socket: Int32
    private let lock = NSLock()
    private let writeLock = NSLock()
    private var nextSerial: UInt32 = 0
    private var waiting: [UInt32: CheckedContinuation<DBusMessage, any Error>] = [:]
    private var ended: DBusConnectionError?
    private let signalSink: AsyncStream<DBusMessage>.Continuation

    /// Connects to the first address that answers, authenticates and says `Hello`.
    public static func connect(to addresses: [DBusAddress]) async throws -> DBusConnection {
        var failures: [String] = []
        for address in addresses {
            let socket: Int32
            do {
                socket = try openSocket(address)
            } catch {
                failures.append("\(address): \(error)")
                continue
            }
            let connection: DBusConnection
            do {
                try authenticate(socket)
                connection = DBusConnection(socket: socket, address: address)
            } catch {
                close(socket)
                throw DBusConnectionError("\(address): \(error)")
            }
            connection.startReading()
            let reply = try await connection.call(
                .methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello"))
            connection.uniqueName = reply.body.first?.string ?? ""
            return connection
        }
        throw DBusConnectionError(failures.joined(separator: "; "))
    }

    /// The system bus as every D-Bus client finds it: `DBUS_SYSTEM_BUS_ADDRESS`, else
    /// `/run/dbus/system_bus_socket`.
    public static func systemBusAddresses(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [DBusAddress] {
        if let text = environment["DBUS_SYSTEM_BUS_ADDRESS"], !text.isEmpty { return try DBusAddress.parse(text) }
        return [.defaultSystemBus]
    }

    private init(socket: Int32, address: DBusAddress) {
        self.socket = socket
        self.address = address
        // Bounded: a flood of signals keeps the newest, never grows memory without end.
        let (stream, continuation) = AsyncStream.makeStream(of: DBusMessage.self, bufferingPolicy: .bufferingNewest(4096))
        signals = stream
        signalSink = continuation
    }

    deinit { close(socket) }

    // MARK: Calls

    /// Sends a method call and waits for its reply; an error reply throws `DBusRemoteError`.
    public func call(_ message: DBusMessage, timeout: Duration = .seconds(30)) async throws -> DBusMessage {
        var message = message
        let serial = lock.withLock {
            nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
            return nextSerial
        }
        message.serial = serial
        let bytes = message.encoded()
        let what = "\(message.interface ?? "").\(message.member ?? "")"
        let reply: DBusMessage = try await withCheckedThrowingContinuation { continuation in
            let failure: DBusConnectionError? = lock.withLock {
                if let ended { return ended }
                waiting[serial] = continuation
                return nil
            }
            if let failure {
                continuation.resume(throwing: failure)
                return
            }
            do {
                try send(bytes)
            } catch {
                if let waiter = lock.withLock({ waiting.removeValue(forKey: serial) }) { waiter.resume(throwing: error) }
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard let self, let waiter = self.lock.withLock({ self.waiting.removeValue(forKey: serial) }) else { return }
                waiter.resume(throwing: DBusConnectionError("no reply to \(what) within \(timeout)"))
            }
        }
        if reply.kind == .error { throw DBusRemoteError(name: reply.errorName ?? "", message: reply.errorText) }
        return reply
    }

    /// Asks the bus to route us the signals a match rule selects.
    public func addMatch(_ rule: String) async throws {
        _ = try await call(bus("AddMatch", [.string(rule)]))
    }

    /// Whether a name (org.bluez) has an owner on the bus.
    public func nameHasOwner(_ name: String) async throws -> Bool {
        try await call(bus("NameHasOwner", [.string(name)])).body.first?.bool ?? false
    }

    /// The unique name (":1.5") that owns a well-known name now: signals are checked against
    /// it, since any client on the bus may send a signal addressed to us.
    public func nameOwner(_ name: String) async throws -> String? {
        try await call(bus("GetNameOwner", [.string(name)])).body.first?.string
    }

    func bus(_ member: String, _ body: [DBusValue]) -> DBusMessage {
        .methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member, body: body)
    }

    /// Ends the connection: waiting calls fail, `signals` finishes.
    public func shutdown() {
        _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
    }

    // MARK: The socket

    private func send(_ bytes: [UInt8]) throws {
        try writeLock.withLock {
            var sent = 0
            while sent < bytes.count {
                let written = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw DBusConnectionError("writing to the bus: \(String(cString: strerror(errno)))")
                }
                sent += written
            }
        }
    }

    private func startReading() {
        let thread = Thread { [self] in readLoop() }
        thread.name = "heartwork.dbus"
        thread.start()
    }

    /// The largest message read from the bus (GetManagedObjects with a few hundred devices is
    /// well under it).
    static let maximumIncomingBytes = 2 << 20

    private func readLoop() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var failure = DBusConnectionError("the bus closed the connection")
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                if count < 0 { failure = DBusConnectionError("reading from the bus: \(String(cString: strerror(errno)))") }
                break
            }
            buffer.append(contentsOf: chunk[0..<count])
            while true {
                let length: Int?
                do {
                    length = try DBusMessage.length(ofMessageStarting: buffer)
                } catch {
                    failure = DBusConnectionError("the bus sent something that is not D-Bus: \(error)")
                    break reading
                }
                // BlueZ's replies and signals are a few kilobytes; a message past this is not
                // BlueZ's, and reading it would cost many times its size in decoded values.
                if let length, length > Self.maximumIncomingBytes {
                    failure = DBusConnectionError("the bus sent a message of \(length) bytes (the gateway reads at most \(Self.maximumIncomingBytes))")
                    break reading
                }
                guard let length, buffer.count >= length else { break }
                let bytes = Array(buffer[0..<length])
                buffer.removeFirst(length)
                do {
                    dispatch(try DBusMessage.decode(bytes))
                } catch {
                    failure = DBusConnectionError("a message from the bus could not be read: \(error)")
                    break reading
                }
            }
        }
        let waiters = lock.withLock {
            ended = failure
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for waiter in waiters { waiter.resume(throwing: failure) }
        signalSink.finish()
    }

    private func dispatch(_ message: DBusMessage) {
        switch message.kind {
        case .methodReturn, .error:
            guard let serial = message.replySerial, let waiter = lock.withLock({ waiting.removeValue(forKey: serial) }) else { return }
            waiter.resume(returning: message)
        case .signal, .methodCall:
            signalSink.yield(message)
        }
    }

    private static func openSocket(_ address: DBusAddress) throws -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw DBusConnectionError(String(cString: strerror(errno))) }
        var storage = sockaddr_un()
        storage.sun_family = sa_family_t(AF_UNIX)
        let name: [UInt8]
        switch address {
        case .path(let path): name = Array(path.utf8)
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)
        }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard name.count < capacity else {
            close(socket)
            throw DBusConnectionError("the socket path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (index, byte) in name.enumerated() { raw[index] = byte }
        }
        // A path is NUL-terminated; an abstract name is exactly its bytes.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (name.first == 0 ? 0 : 1)
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(length)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw DBusConnectionError(reason)
        }
        return socket
    }

    /// SASL EXTERNAL on the blocking socket, before the reading thread starts.
    private static func authenticate(_ socket: Int32) throws {
        func write(_ bytes: [UInt8]) throws {
            let written = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress!, bytes.count, Int32(MSG_NOSIGNAL)) }
            guard written == bytes.count else { throw DBusConnectionError("the bus closed the connection during authentication") }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try write(DBusAuthentication.authExternal(uid: getuid()))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while !(line.count >= 2 && line.suffix(2) == [13, 10]) {
            guard read(socket, &byte, 1) == 1 else { throw DBusConnectionError("the bus did not answer authentication") }
            line.append(byte)
            guard line.count < 4096 else { throw DBusConnectionError("the bus's authentication answer is too long") }
        }
        _ = try DBusAuthentication.readOK(String(decoding: line, as: UTF8.self))
        try write(DBusAuthentication.begin)
        timeout = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}

/// The connection failed or ended.
public struct DBusConnectionError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An error reply: its D-Bus name (`org.bluez.Error.Failed`) and text.
public struct DBusRemoteError: Error, Sendable, CustomStringConvertible {
    public let name: String
    public let message: String
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
