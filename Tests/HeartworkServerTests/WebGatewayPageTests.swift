import Foundation
import HTTPTypes
import Testing

@testable import HeartworkServer

/// Issue 23 as a server sees it: the /gateway page, the web app manifest with its icons (PNG
/// bytes embedded through EmbedResources' Base64 path) and the service worker at the root.
/// The browser test (Tests/Browser/gateway_test.py) drives the page itself.
@Suite("Web: the gateway page and the installable app")
struct WebGatewayPageTests {
    @Test func theGatewayPageNeedsASignInAndCarriesItsPolicy() async throws {
        try await ServerHarness.run { server in
            _ = try await server.signUp("gwen")
            let session = try await server.webSession("gwen")
            let page = try await WebPageTests.page(server, "/gateway", cookie: session.cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("<title>This device as a gateway · Heartwork</title>"))
            #expect(page.text.contains("data-user=\"gwen\"") && page.text.contains("data-retries=\"10\"") && page.text.contains("data-retry-seconds=\"5\""))
            #expect(page.text.contains("src=\"/static/gateway.js\""))
            #expect(page.text.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"))
            // default-src 'self' covers the worker, the manifest and the same-origin socket.
            let policy = page.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
            #expect(policy.contains("default-src 'self'") && policy.contains("connect-src 'self'"), "\(policy)")
            let signedOut = try await server.request(.get, "/gateway")
            #expect(signedOut.status == .unauthorized && signedOut.text.contains("Please sign in to continue."))
            let teams = try await WebPageTests.page(server, "/teams", cookie: session.cookie)
            #expect(teams.text.contains("href=\"/gateway\""), "the Teams page links the gateway page")
        }
    }

    @Test func manifestIconsAndServiceWorker() async throws {
        try await ServerHarness.run { server in
            let manifest = try await server.request(.get, "/manifest.webmanifest")
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            #expect(manifest.json["name"] as? String == "Heartwork" && manifest.json["display"] as? String == "standalone")
            #expect(manifest.json["start_url"] as? String == "/" && manifest.json["theme_color"] as? String == "#0b6bcb")
            let icons = try #require(manifest.json["icons"] as? [[String: String]])
            #expect(icons.count == 4)
            for icon in icons {
                let reply = try await server.request(.get, try #require(icon["src"]))
                #expect(reply.status == .ok && reply.headers[.contentType] == icon["type"], "\(icon)")
                if icon["type"] == "image/png" {
                    #expect(Array(reply.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(icon) is not a PNG")
                    let width = reply.body.dropFirst(16).prefix(4).reduce(0) { $0 << 8 | Int($1) }
                    #expect("\(width)x\(width)" == icon["sizes"], "\(icon) is \(width) px wide")
                }
            }
            let worker = try await server.request(.get, "/sw.js")
            #expect(worker.status == .ok && worker.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(worker.headers[.cacheControl] == "no-cache")
            #expect(worker.text.contains("\"/gateway\", \"/record\"") && worker.text.contains("/static/strap.js"))
            let common = try await server.request(.get, "/static/common.js")
            #expect(common.text.contains("navigator.serviceWorker.register(\"/sw.js\""))
        }
    }
}
