import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The context of WebSocket upgrade requests. The same authentication middleware as for
/// HTTP runs on the WebSocket router before the upgrade; a handler reads the identity from
/// `WebSocketRouterContext.requestContext`.
public struct LiveRequestContext: IdentifiedRequestContext, WebSocketRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<LiveRequestContext>
    public var identity: Identity?
    /// The gateway on the gateway route, once its token is checked.
    public var gateway: GatewayRecord?
    public let remoteAddress: String
    /// The connection (a refused upgrade's answer is kept for it: `UpgradeRefusals`).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        channel = source.channel
        coreContext = .init(source: source)
        webSocket = .init()
        identity = nil
        gateway = nil
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public static var leavesGatewayTokensToTheRoute: Bool { true }
}
