import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Testing

@testable import HeartworkServer

/// The WebSocket router authenticates exactly as the HTTP one: the same middleware runs
/// before every upgrade and the handler reads the identity it found.
// Three minutes: a hang still fails; a loaded two-core CI run (the whole suite at once)
// once took tests that need 2 s alone past one minute.
@Suite("WebSocket authentication", .timeLimit(.minutes(3)))
struct LiveAuthenticationTests {
    /// The live router of the application with one route that answers who is asking.
    static func liveRouter(_ services: HeartworkServices) -> Router<LiveRequestContext> {
        let router = HeartworkApplication.buildLiveRouter(services: services)
        // Who is asking, as a header of the upgrade answer (the router test client does no
        // sockets; the real ones are in LiveGatewayTests) and as the first message.
        router.ws(
            "whoami",
            shouldUpgrade: { _, context in
                var headers = HTTPFields()
                headers[HTTPField.Name("X-Who")!] = context.identity?.user.username ?? "nobody"
                return .upgrade(headers)
            },
            onUpgrade: { _, outbound, context in
                try await outbound.write(.text(context.requestContext.identity?.user.username ?? "nobody"))
            })
        return router
    }

    static func services(_ store: HeartworkStore) async throws -> (HeartworkServices, ServerConfiguration) {
        let configuration = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
        return (try await HeartworkServices(store: store, settings: configuration.serviceSettings, logger: TestDatabase.logger), configuration)
    }

    @Test func aBearerTokenReachesTheHandlerAndABadOneIsRefusedBeforeTheUpgrade() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let (services, _) = try await Self.services(store)
            let user = try await services.accounts.register(Registration(username: "alice", fullName: "Alice", email: "a@example.org", password: "12345678"))
            let (token, _) = try await services.accounts.openSession(for: user, kind: .api)
            let application = Application(router: Self.liveRouter(services))
            try await application.test(.router) { client in
                func upgrade(bearer: String?) async throws -> (HTTPResponse.Status, String?) {
                    var headers = HTTPFields()
                    headers[.upgrade] = "websocket"
                    if let bearer { headers[.authorization] = "Bearer \(bearer)" }
                    let response = try await client.execute(uri: "/whoami", method: .get, headers: headers)
                    return (response.status, response.headers[HTTPField.Name("X-Who")!])
                }
                let alice = try await upgrade(bearer: token)
                #expect(alice.0 == .ok && alice.1 == "alice")
                let nobody = try await upgrade(bearer: nil)
                #expect(nobody.0 == .ok && nobody.1 == "nobody")
                let bad = try await upgrade(bearer: "hw_not-a-real-token")
                #expect(bad.0 == .unauthorized && bad.1 == nil)
            }
        }
    }

    /// What the upgrade request gets from the router (200 means "upgrade"): cookie sessions
    /// work, but only from this site's pages, and an API token is not a cookie.
    @Test func cookieUpgradesMustComeFromThisSite() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let (services, _) = try await Self.services(store)
            let user = try await services.accounts.register(Registration(username: "bob", fullName: "Bob", email: "b@example.org", password: "12345678"))
            let (cookie, _) = try await services.accounts.openSession(for: user, kind: .web)
            let (apiToken, _) = try await services.accounts.openSession(for: user, kind: .api)
            let application = Application(router: Self.liveRouter(services))
            try await application.test(.router) { client in
                func upgrade(cookie value: String?, origin: String?, bearer: String? = nil) async throws -> HTTPResponse.Status {
                    var headers = HTTPFields()
                    headers[.upgrade] = "websocket"
                    if let value { headers[.cookie] = "hw_session=\(value)" }
                    if let origin { headers[.origin] = origin }
                    if let bearer { headers[.authorization] = "Bearer \(bearer)" }
                    return try await client.execute(uri: "/whoami", method: .get, headers: headers).status
                }
                let sameSite = try await upgrade(cookie: cookie, origin: "http://localhost")
                let crossSite = try await upgrade(cookie: cookie, origin: "https://evil.example")
                let tokenAsCookie = try await upgrade(cookie: apiToken, origin: "http://localhost")
                let forged = try await upgrade(cookie: nil, origin: nil, bearer: "hw_forged")
                #expect(sameSite == .ok)
                #expect(crossSite == .forbidden)
                #expect(tokenAsCookie == .ok)  // not a cookie session: ignored, so the caller is anonymous
                #expect(forged == .unauthorized)
            }
        }
    }
}
