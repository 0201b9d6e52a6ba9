import HeartworkApp
import HummingbirdAuth

/// What every Heartwork request context offers, HTTP and WebSocket alike, so one
/// authentication middleware serves both routers: the caller's identity once resolved
/// (hummingbird-auth's `AuthRequestContext`) and the peer's address.
public protocol IdentifiedRequestContext: AuthRequestContext where Identity == HeartworkApp.Identity {
    /// The peer's IP address, for throttling and logs.
    var remoteAddress: String { get }
}
