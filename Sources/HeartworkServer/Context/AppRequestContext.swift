import Foundation
import HeartworkApp
import Hummingbird
import HummingbirdAuth

/// The context of every HTTP request: Hummingbird's core storage, the caller's identity when
/// the credentials were good, and the peer's address. Routes that need a signed-in user live
/// in a group of `AuthenticatedContext`, which cannot exist without one.
public struct AppRequestContext: IdentifiedRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Identity?
    public let remoteAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public var responseEncoder: JSONEncoder { APIJSON.encoder }
}
