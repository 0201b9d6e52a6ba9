/// gateway.mustache: this browser as a gateway. Everything live (the device's gateway, the
/// straps, the outbox) is the page's script's (static/gateway.js); the page says what it
/// will do.
struct GatewayPage: Sendable {
    /// A strap that drops is tried again every `retrySeconds`, `retries` times (FitLabTeam's
    /// seed, F14), then given up until the user asks again.
    let retries: Int
    let retrySeconds: Int
    /// A strap's numbers turn grey ("last heard … ago") after this many seconds of silence.
    let staleSeconds: Int
}
