@preconcurrency import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteKit

/// AsyncKit's pool guards its state with a lock but is not marked Sendable; this box says so.
final class SharedPool<Source: ConnectionPoolSource>: @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<Source>
    init(_ pool: EventLoopGroupConnectionPool<Source>) { self.pool = pool }
}
