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

    /// Issue 28, "words for people": every problem carries a `message` — a sentence that says
    /// what happened and what to do — beside the technical `detail`; pages and the upload
    /// script show the message.
    @Test func errorsSpeakToPeopleAndKeepTheDetailForScripts() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("worded")
            // A workout upload the server cannot place: the detail names media types, the message a file.
            let unknown = try await server.request(.post, "/api/workouts", token: token, raw: Data([1, 2, 3]), contentType: "text/plain")
            #expect(unknown.status == .unsupportedMediaType)
            #expect((unknown.json["detail"] as? String)?.contains("application/vnd.ant.fit") == true)
            #expect(
                unknown.json["message"] as? String
                    == "Heartwork cannot tell what kind of file this is. Upload a .fit, .tcx or .gpx file from your watch or app (or Heartwork's own .json).")
            // A domain error without its own message: the detail as a sentence.
            let invalid = try await server.request(.patch, "/api/me", token: token, json: ["dateOfBirth": "1800-01-01"])
            #expect(invalid.status == .unprocessableContent)
            let detail = try #require(invalid.json["detail"] as? String)
            let message = try #require(invalid.json["message"] as? String)
            #expect(message.first.map { !$0.isLowercase } == true && message.hasSuffix(".") && message.lowercased().hasPrefix(detail.lowercased().prefix(10)), "\(message)")
            // Not signed in, no route: sentences.
            #expect(try await server.request(.get, "/api/me").json["message"] as? String == "Please sign in to continue.")
            #expect((try await server.request(.get, "/api/nothing-here", token: token).json["message"] as? String)?.hasPrefix("There is nothing at this address.") == true)
            // A cookie write without its CSRF token: what to do, and that the form keeps what was typed.
            let session = try await server.webSession("worded")
            let forged = try await server.request(.patch, "/api/me", json: ["status": "x"], headers: [.cookie: session.cookie])
            #expect(forged.status == .forbidden && (forged.json["message"] as? String)?.contains("Reload the page") == true)
            // A page that fails shows the message, and keeps the detail folded away.
            let page = try await server.request(.post, "/profile", raw: Data("%%%".utf8), headers: [.cookie: session.cookie, .contentType: "application/x-www-form-urlencoded"])
            #expect(page.status.code >= 400)
            #expect(page.text.contains("role=\"alert\"") && page.text.contains("Technical detail"), "\(page.text.prefix(300))")
            // The pages' scripts read `message` first (common.js, shared by every page's module).
            let script = try await server.request(.get, "/static/common.js")
            #expect(script.text.contains("problem.message ||"))
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
