import Foundation
import HeartworkTestSupport
import Hummingbird
import Testing

/// Issue 25, HeartMate (seed 000): the friends list shows each friend "with name, username and
/// profile picture" (F26), and a profile shows the user's uploaded (shared) workouts (F6 for
/// one's own, F30 "Read-only: picture, status and uploaded workouts" for a friend's) — to
/// friends only.
@Suite("Friends' pictures and shared workouts")
struct FriendProfileTests {
    static func cookie(_ server: ServerHarness, _ username: String) async throws -> HTTPFields {
        let (cookie, _) = try await server.webSession(username)
        var headers = HTTPFields()
        headers[.cookie] = cookie
        return headers
    }

    static func befriend(_ server: ServerHarness, _ from: String, _ toID: String, _ toToken: String) async throws {
        let request = try await server.request(.post, "/api/friend-requests", token: from, json: ["userID": toID])
        #expect(try await server.request(.post, "/api/friend-requests/\(request.json["id"] as? String ?? "")/accept", token: toToken).status == .noContent)
    }

    /// A friend with a picture shows it, one without shows their initial; a non-friend's
    /// picture is not on the page and is "not found" to them.
    @Test func theFriendsListShowsPictures() async throws {
        try await ServerHarness.run { server in
            let (_, ana) = try await server.signUp("ana")
            let (bobID, bob) = try await server.signUp("bob")
            let (carlID, carl) = try await server.signUp("carl")
            let (_, dora) = try await server.signUp("dora")
            let png = TestImages.png(text: "bob's picture")
            #expect(try await server.request(.put, "/api/me/photo", token: bob, raw: png, contentType: "image/png").status == .noContent)
            try await Self.befriend(server, ana, bobID, bob)
            try await Self.befriend(server, ana, carlID, carl)

            let page = try await server.request(.get, "/friends", headers: try await Self.cookie(server, "ana"))
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<img src="/api/users/\#(bobID)/photo" alt="" width="40" height="40""#), "Bob's picture")
            #expect(page.text.contains(#"<span aria-hidden="true" class="silhouette">C</span>"#), "Carl's initial")
            #expect(!page.text.contains("/api/users/\(carlID)/photo"), "Carl has no picture")
            #expect(try await server.request(.get, "/api/users/\(bobID)/photo", token: ana).body == png)
            // Dora is nobody's friend: Bob's picture is not hers to see.
            #expect(try await server.request(.get, "/api/users/\(bobID)/photo", token: dora).status == .notFound)
            let doras = try await server.request(.get, "/friends?q=bob", headers: try await Self.cookie(server, "dora"))
            #expect(doras.text.contains("@bob") && !doras.text.contains("/api/users/\(bobID)/photo"))
        }
    }

    /// Your own profile lists what you share (not what you keep to yourself); a friend's page
    /// and the API list the same to friends; a non-friend sees none (404, nothing of it).
    @Test(arguments: TestDatabase.all)
    func theProfileShowsSharedWorkoutsToFriendsOnly(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (anaID, ana) = try await server.signUp("ana")
            let (bobID, bob) = try await server.signUp("bob")
            let (_, carl) = try await server.signUp("carl")
            try await server.completeProfile(ana)
            let kept = try await server.upload(ana)
            let shared = try await server.upload(ana, ServerHarness.workoutJSON(start: "2026-11-21T07:00:00Z"))
            #expect(try await server.request(.put, "/api/workouts/\(shared)/share", token: ana).json["shared"] as? Bool == true)
            try await Self.befriend(server, bob, anaID, ana)

            let own = try await server.request(.get, "/profile", headers: try await Self.cookie(server, "ana"))
            #expect(own.status == .ok)
            #expect(own.text.contains("Shared with your friends"))
            #expect(own.text.contains("/workouts/\(shared)") && !own.text.contains("/workouts/\(kept)"))

            let friendPage = try await server.request(.get, "/friends/\(anaID)", headers: try await Self.cookie(server, "bob"))
            #expect(friendPage.status == .ok)
            #expect(friendPage.text.contains("/workouts/\(shared)") && !friendPage.text.contains("/workouts/\(kept)"))
            let api = try await server.request(.get, "/api/friends/\(anaID)/workouts", token: bob)
            let ids = (api.json["workouts"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == [shared], "\(api.text)")

            // Carl is not Ana's friend: her profile and its workouts are "not found" to him.
            let strangerPage = try await server.request(.get, "/friends/\(anaID)", headers: try await Self.cookie(server, "carl"))
            #expect(strangerPage.status == .notFound)
            #expect(!strangerPage.text.contains(shared))
            #expect(try await server.request(.get, "/api/friends/\(anaID)/workouts", token: carl).status == .notFound)
            #expect(try await server.request(.get, "/api/workouts/\(shared)", token: carl).status == .notFound)
            // Bob's own profile lists none of Ana's.
            let bobs = try await server.request(.get, "/profile", headers: try await Self.cookie(server, "bob"))
            #expect(!bobs.text.contains(shared) && bobs.text.contains("You have not shared any workouts yet"))
            _ = bobID
        }
    }
}
