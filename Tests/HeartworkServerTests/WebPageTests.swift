import Foundation
import HTTPTypes
import Testing

/// Issue 8, findings 9, 11 and 13 as a server sees them (the browser test covers the rest).
@Suite("Web pages: the small things")
struct WebPageTests {
    static func page(_ server: ServerHarness, _ path: String, cookie: String) async throws -> ServerHarness.Reply {
        try await server.request(.get, path, headers: [.cookie: cookie])
    }

    @Test func noticesComeOnlyFromTheServersOwnList() async throws {
        try await ServerHarness.run { server in
            _ = try await server.signUp("noticed")
            let session = try await server.webSession("noticed")
            // Text in the URL or a forged cookie never reaches the page.
            let fromURL = try await Self.page(server, "/?notice=You+won+a+prize&message=You+won+a+prize", cookie: session.cookie)
            #expect(!fromURL.text.contains("You won a prize"))
            let forged = try await Self.page(server, "/", cookie: session.cookie + "; hw_notice=You%20won%20a%20prize")
            #expect(!forged.text.contains("You won a prize") && !forged.text.contains("role=\"status\""))
            let real = try await Self.page(server, "/", cookie: session.cookie + "; hw_notice=profile-saved")
            #expect(real.text.contains("Profile saved."))
            #expect(real.headers[values: .setCookie].contains { $0.hasPrefix("hw_notice=;") || $0.hasPrefix("hw_notice=") && $0.contains("Max-Age=0") })
        }
    }

    @Test func titlesFaviconPagerAndErrorPagesKeepTheHeader() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("smalls")
            _ = try await server.upload(token)
            let session = try await server.webSession("smalls")
            let home = try await Self.page(server, "/", cookie: session.cookie)
            #expect(home.text.contains("<title>Your week · Heartwork</title>"))
            let list = try await Self.page(server, "/workouts", cookie: session.cookie)
            #expect(list.text.contains("<title>Your workouts · Heartwork</title>"))
            #expect(!list.text.contains("Heartwork · Heartwork"))
            #expect(!list.text.contains("rel=\"next\"") && !list.text.contains("rel=\"prev\""), "one page: no pager links")
            #expect(home.text.contains("rel=\"icon\" href=\"/static/favicon.svg\""))
            let icon = try await server.request(.get, "/static/favicon.svg")
            #expect(icon.status == .ok && icon.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            let missing = try await Self.page(server, "/workouts/no-such-workout", cookie: session.cookie)
            #expect(missing.status == .notFound && missing.text.contains("Page not found"))
            #expect(missing.text.contains("href=\"/friends\""), "the error page keeps the signed-in menu")
        }
    }

    @Test func anIndoorWorkoutHasNoEmptyCards() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("indoors")
            let id = try await server.upload(token, ServerHarness.workoutJSON(track: false, rr: false))
            let session = try await server.webSession("indoors")
            let page = try await Self.page(server, "/workouts/\(id)", cookie: session.cookie)
            #expect(page.status == .ok)
            for heading in ["speed-heading", "elevation-heading", "route-heading", "hrv-heading"] {
                #expect(!page.text.contains(heading), "\(heading) on an indoor workout without RR")
            }
            #expect(!page.text.contains(">Distance<") && !page.text.contains(">Climb<"))
            #expect(page.text.contains("hr-heading"))
        }
    }
}
