import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkTestSupport
import Testing

/// Issue 25: "each with a small picture" — every catalogue exercise shows a line drawing of its
/// movement, served by the server itself (docs/STRENGTH.md).
@Suite("Exercise pictures")
struct ExercisePictureTests {
    @Test func everyCatalogueExerciseHasAPictureTheServerServes() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("pictures")
            let list = try #require(try await server.request(.get, "/api/exercises", token: token).json["exercises"] as? [[String: Any]])
            let catalogue = try StrengthLibrary.embedded().catalogue
            #expect(list.count == catalogue.exercises.count)
            var served = Set<String>()
            for exercise in list {
                let url = try #require(exercise["image"] as? String, "\(exercise["id"] ?? "?") has no picture")
                #expect(url.hasPrefix("/static/exercises/") && url.hasSuffix(".svg"), "\(url)")
                guard served.insert(url).inserted else { continue }
                let reply = try await server.request(.get, url)
                #expect(reply.status == .ok, "\(url)")
                #expect(reply.headers[.contentType] == "image/svg+xml", "\(url)")
                #expect(reply.headers[.cacheControl] == "public, max-age=86400", "\(url)")
                #expect(reply.body.count > 200 && reply.body.count <= 4096, "\(url): \(reply.body.count) bytes")
                #expect(reply.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\""), "\(url)")
                #expect(reply.text.contains("currentColor") && !reply.text.contains("<script") && !reply.text.contains("<text"), "\(url)")
            }
            // Every picture shipped is used, and nothing else is served there.
            #expect(served == Set(StrengthPictures.files.keys.map { "/static/exercises/\($0)" }))
            #expect(served.count >= 20)
            for bad in ["/static/exercises/nothing.svg", "/static/exercises/..%2Fapp.css", "/static/exercises/app.css"] {
                #expect(try await server.request(.get, bad).status == .notFound, "\(bad)")
            }

            // The exercise page, the library and the API agree on it; the alt text is the movement.
            let (cookie, _) = try await server.webSession("pictures")
            let page = try await server.request(.get, "/strength/exercises/barbell-back-squat", headers: [.cookie: cookie])
            #expect(page.text.contains(#"<img class="exercise-picture" src="/static/exercises/squat.svg" alt="Back squat" width="96" height="96">"#))
            let library = try await server.request(.get, "/strength/exercises?group=Legs", headers: [.cookie: cookie])
            #expect(library.text.contains(#"<img class="exercise-thumb" src="/static/exercises/front-squat.svg" alt="Front squat""#))
            #expect(list.first { $0["id"] as? String == "barbell-back-squat" }?["image"] as? String == "/static/exercises/squat.svg")
        }
    }
}
