import Foundation
import HeartworkTestSupport
import Hummingbird
import Testing

@Suite("Friends API")
struct FriendAPITests {
    @Test func requestAcceptListAndRemove() async throws {
        try await ServerHarness.run { server in
            let (annID, ann) = try await server.signUp("ann")
            let (benID, ben) = try await server.signUp("ben")
            let found = try await server.request(.get, "/api/users?query=BEN", token: ann)
            let results = try #require(found.json["users"] as? [[String: Any]])
            #expect(results.count == 1 && (results[0]["user"] as? [String: Any])?["id"] as? String == benID)
            #expect(results[0]["relation"] as? String == "none")

            #expect(try await server.request(.post, "/api/friend-requests", token: ann, json: ["userID": annID]).status == .unprocessableContent)
            let sent = try await server.request(.post, "/api/friend-requests", token: ann, json: ["userID": benID])
            #expect(sent.status == .created)
            let requestID = try #require(sent.json["id"] as? String)
            #expect(try await server.request(.post, "/api/friend-requests", token: ann, json: ["userID": benID]).status == .conflict)
            #expect((try await server.request(.get, "/api/users?query=ben", token: ann).json["users"] as? [[String: Any]])?.first?["relation"] as? String == "requested")
            #expect((try await server.request(.get, "/api/friend-requests/incoming", token: ben).json["requests"] as? [Any])?.count == 1)
            #expect((try await server.request(.get, "/api/friend-requests/outgoing", token: ann).json["requests"] as? [Any])?.count == 1)
            // Only the recipient answers.
            #expect(try await server.request(.post, "/api/friend-requests/\(requestID)/accept", token: ann).status == .notFound)
            #expect(try await server.request(.post, "/api/friend-requests/\(requestID)/accept", token: ben).status == .noContent)
            #expect(try await server.request(.post, "/api/friend-requests", token: ben, json: ["userID": annID]).status == .conflict)
            #expect((try await server.request(.get, "/api/friends", token: ann).json["friends"] as? [[String: Any]])?.first?["username"] as? String == "ben")
            let profile = try await server.request(.get, "/api/friends/\(benID)", token: ann)
            #expect(profile.status == .ok && (profile.json["profile"] as? [String: Any])?["username"] as? String == "ben")
            #expect(profile.json["email"] == nil && !profile.text.contains("ben@example.org"))
            #expect(try await server.request(.delete, "/api/friends/\(annID)", token: ben).status == .noContent)
            #expect(try await server.request(.get, "/api/friends/\(benID)", token: ann).status == .notFound)
            #expect((try await server.request(.get, "/api/friends", token: ann).json["friends"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func askingSomeoneWhoAskedYouMakesFriendsAndDenialIsFinal() async throws {
        try await ServerHarness.run { server in
            let (_, cat) = try await server.signUp("cat")
            let (dogID, dog) = try await server.signUp("dog")
            let (eelID, eel) = try await server.signUp("eel")
            let catID = try #require(try await server.request(.get, "/api/me", token: cat).json["id"] as? String)
            try await server.request(.post, "/api/friend-requests", token: dog, json: ["userID": catID])
            let mutual = try await server.request(.post, "/api/friend-requests", token: cat, json: ["userID": dogID])
            #expect(mutual.status == .ok)
            #expect((try await server.request(.get, "/api/friends", token: dog).json["friends"] as? [Any])?.count == 1)
            let asked = try await server.request(.post, "/api/friend-requests", token: eel, json: ["userID": catID])
            let id = try #require(asked.json["id"] as? String)
            #expect(try await server.request(.post, "/api/friend-requests/\(id)/deny", token: cat).status == .noContent)
            #expect(try await server.request(.post, "/api/friend-requests/\(id)/accept", token: cat).status == .conflict)
            #expect(try await server.request(.get, "/api/friends/\(eelID)", token: cat).status == .notFound)
            _ = eel
        }
    }
}
