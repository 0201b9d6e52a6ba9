import HeartworkApp
import HummingbirdAuth

/// What every Heartwork request context offers, HTTP and WebSocket alike, so one
/// authentication middleware serves both routers: the caller's identity once resolved
/// (hummingbird-auth's `AuthRequestContext`) and the peer's address.
public protocol IdentifiedRequestContext: AuthRequestContext where Identity == HeartworkApp.Identity {
    /// The peer's IP address, for throttling and logs.
    var remoteAddress: String { get }
    /// Whether a bearer token of a gateway (`hwg_…`) is left for a route to check rather
    /// than refused as an unknown user token: only on the WebSocket router, whose gateway
    /// route authenticates gateways itself.
    static var leavesGatewayTokensToTheRoute: Bool { get }
}

extension IdentifiedRequestContext {
    public static var leavesGatewayTokensToTheRoute: Bool { false }
}
