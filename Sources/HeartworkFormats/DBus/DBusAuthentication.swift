/// The client's side of D-Bus authentication (D-Bus Specification, "Authentication
/// Protocol"): a NUL byte, `AUTH EXTERNAL <the uid's decimal digits in hex>`, the server's
/// `OK <guid>`, then `BEGIN`, after which messages flow. The server learns who we are from the
/// socket's credentials (SO_PEERCRED); the hex uid only has to match them. File-descriptor
/// passing is never negotiated.
public enum DBusAuthentication {
    /// What the client sends first: the NUL byte and the AUTH line.
    public static func authExternal(uid: UInt32) -> [UInt8] {
        let digits = String(uid).utf8.map { byte in String(byte, radix: 16) }.joined()
        return [0] + Array("AUTH EXTERNAL \(digits)\r\n".utf8)
    }

    public static let begin = Array("BEGIN\r\n".utf8)

    /// The server's answer to AUTH: the server's GUID after `OK`, or an error naming what it said.
    public static func readOK(_ line: String) throws(DBusError) -> String {
        // "\r\n" is one Character in Swift: split on scalars, not on characters.
        let trimmed = String(String.UnicodeScalarView(line.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first == "OK" else {
            throw DBusError("the bus refused EXTERNAL authentication: \(trimmed.isEmpty ? "no answer" : trimmed)")
        }
        return words.count > 1 ? String(words[1]) : ""
    }
}

/// A D-Bus server address (D-Bus Specification, "Server Addresses"): `transport:key=value,…`,
/// several separated by `;`, values percent-escaped. Heartwork connects to Unix sockets only,
/// by path or in the abstract namespace.
public enum DBusAddress: Sendable, Hashable, CustomStringConvertible {
    case path(String)
    case abstract(String)

    /// Where the system bus is when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    public static let defaultSystemBus = DBusAddress.path("/run/dbus/system_bus_socket")

    /// The Unix-socket addresses of `text`, in order (other transports are skipped); throws
    /// when none is usable.
    public static func parse(_ text: String) throws(DBusError) -> [DBusAddress] {
        var found: [DBusAddress] = []
        for entry in text.split(separator: ";") where !entry.isEmpty {
            guard let colon = entry.firstIndex(of: ":") else { throw DBusError("\"\(entry)\" is not a D-Bus address (transport:key=value,…)") }
            guard entry[..<colon] == "unix" else { continue }
            var keys: [String: String] = [:]
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { throw DBusError("\"\(pair)\" in a D-Bus address is not key=value") }
                keys[String(pair[..<equals])] = try unescape(pair[pair.index(after: equals)...])
            }
            if let path = keys["path"] {
                found.append(.path(path))
            } else if let name = keys["abstract"] {
                found.append(.abstract(name))
            }
        }
        guard !found.isEmpty else { throw DBusError("no unix:path= or unix:abstract= address in \"\(text)\"") }
        return found
    }

    static func unescape(_ text: Substring) throws(DBusError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap({ Character(Unicode.Scalar($0)).hexDigitValue }),
                let low = iterator.next().flatMap({ Character(Unicode.Scalar($0)).hexDigitValue })
            else { throw DBusError("a bad %-escape in the D-Bus address \"\(text)\"") }
            bytes.append(UInt8(high << 4 | low))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String {
        switch self {
        case .path(let path): "unix:path=\(path)"
        case .abstract(let name): "unix:abstract=\(name)"
        }
    }
}
