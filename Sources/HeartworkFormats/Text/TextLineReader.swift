#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file line by line in fixed-size chunks, so memory stays constant however
/// long the file. Lines end at LF; a CR before it is dropped. Bytes that are not UTF-8
/// become U+FFFD and then fail whatever parses the line, with its line number.
public final class TextLineReader {
    /// Open file descriptor, or nil when reading from memory.
    private let descriptor: Int32?
    private let path: String
    private var buffer: [UInt8]
    private var bufferStart = 0
    private var reachedEnd: Bool
    public private(set) var lineNumber = 0
    private static let chunkSize = 64 * 1024

    public init(path: String) throws(TextFileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: TextLineReader.lastErrorMessage()) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        self.descriptor = descriptor
        self.path = path
        buffer = []
        reachedEnd = false
    }

    public init(text: String) {
        descriptor = nil
        path = "<text>"
        buffer = Array(text.utf8)
        reachedEnd = true
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// The next line without its terminator, or nil at the end of the input.
    public func nextLine() throws(TextFileError) -> String? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > bufferStart && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[bufferStart..<end], as: UTF8.self)
                bufferStart = newline + 1
                lineNumber += 1
                return line
            }
            if reachedEnd {
                guard bufferStart < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[bufferStart..<end], as: UTF8.self)
                bufferStart = buffer.count
                lineNumber += 1
                return line
            }
            try refill()
        }
    }

    private func refill() throws(TextFileError) {
        guard let descriptor else {
            reachedEnd = true
            return
        }
        if bufferStart > 0 {
            buffer.removeSubrange(0..<bufferStart)
            bufferStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunkSize) }
        if count < 0 { throw .cannotRead(path: path, reason: Self.lastErrorMessage()) }
        if count == 0 {
            reachedEnd = true
        } else {
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private static func lastErrorMessage() -> String {
        String(cString: strerror(errno))
    }
}

public enum TextFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
