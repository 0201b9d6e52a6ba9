import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the server, for what an HTTP client would not do.
public final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    public init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "cannot connect: errno \(errno)"]) }
    }

    deinit { close(socket) }

    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: "send failed: errno \(errno)"])
        }
    }

    /// Sends every byte (in as many writes as the socket takes).
    public func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: "send failed: errno \(errno)"]) }
            sent += count
        }
    }

    /// The bytes the next read brings before `deadline`; nil on timeout or when the
    /// connection ended.
    public func receiveBytes(until deadline: Date) -> [UInt8]? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(0, deadline.timeIntervalSinceNow * 1000))) > 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return nil }
        return Array(chunk[..<count])
    }

    /// Everything that arrives until the server closes the connection or `seconds` pass.
    public func receiveAll(within seconds: Double) -> String {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
            // A complete answer with a length: no need to wait for the close.
            let text = String(decoding: received, as: UTF8.self)
            if let headerEnd = text.range(of: "\r\n\r\n"),
                let lengthLine = text[..<headerEnd.lowerBound].split(separator: "\r\n")
                    .first(where: { $0.lowercased().hasPrefix("content-length:") }), let length = Int(lengthLine.dropFirst(15).trimmingCharacters(in: .whitespaces)),
                text[headerEnd.upperBound...].utf8.count >= length
            {
                break
            }
            if text.hasPrefix("HTTP/1.1 101"), text.contains("\r\n\r\n") { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What arrives within `seconds` (empty when nothing did).
    public func receive(within seconds: Double) -> String {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
            if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closes the connection within `seconds`.
    public func isClosed(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN) { return true }
        }
        return false
    }

    /// Ends a process at once (SIGKILL), as a crash or the OOM killer would.
    public static func kill(_ process: Int32) {
        _ = Glibc.kill(process, SIGKILL)
    }
}

/// Runs blocking work (a raw socket's sends and polls) on a thread of its own, so it never
/// holds one of the few cooperative threads the in-process server needs to answer it.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
