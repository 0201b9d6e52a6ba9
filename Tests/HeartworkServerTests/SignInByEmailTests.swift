import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkStore
import HeartworkTestSupport
import SQLKit
import Testing

/// Issue 25, iHeart Monitor's login (seed 003, F2: "User logs in with Email username and
/// password"): a sign-in takes the username or the e-mail, on the API and the web form, with
/// the same throttle, the same cost for unknown names and the same answer to every failure.
@Suite struct SignInByEmailTests {
    static let failure = "wrong username, e-mail or password"

    static func form(_ name: String, _ password: String) -> (Data, HTTPFields) {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
        return (Data("username=\(encode(name))&password=\(encode(password))".utf8), headers)
    }

    @Test(arguments: TestDatabase.all)
    func theEmailSignsInOnTheAPIAndTheWebInAnyCase(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let registered = try await server.request(
                .post, "/api/auth/register",
                json: ["username": "ana", "fullName": "Ana Lima", "email": "Ana.Lima@Example.org", "password": "correct horse 1"])
            #expect(registered.status == .created)

            let api = try await server.request(.post, "/api/auth/login", json: ["username": " ana.lima@EXAMPLE.org ", "password": "correct horse 1"])
            #expect(api.status == .ok)
            #expect((api.json["user"] as? [String: Any])?["username"] as? String == "ana")
            // The username still works.
            #expect(try await server.request(.post, "/api/auth/login", json: ["username": "ANA", "password": "correct horse 1"]).status == .ok)

            let (body, headers) = Self.form("ana.lima@example.org", "correct horse 1")
            let web = try await server.request(.post, "/login", raw: body, headers: headers)
            #expect(web.status == .seeOther)
            #expect(web.headers[.setCookie]?.contains("HttpOnly") == true)

            // A wrong password and an unknown e-mail get the same answer, word for word.
            let wrong = try await server.request(.post, "/api/auth/login", json: ["username": "ana.lima@example.org", "password": "wrong horse 1"])
            let unknown = try await server.request(.post, "/api/auth/login", json: ["username": "nobody@example.org", "password": "wrong horse 1"])
            let unknownName = try await server.request(.post, "/api/auth/login", json: ["username": "nobody", "password": "wrong horse 1"])
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized && unknownName.status == .unauthorized)
            #expect(wrong.json["detail"] as? String == Self.failure)
            #expect(unknown.json["detail"] as? String == wrong.json["detail"] as? String)
            #expect(unknownName.json["detail"] as? String == wrong.json["detail"] as? String)
            #expect(unknown.text.replacingOccurrences(of: "nobody", with: "") == wrong.text.replacingOccurrences(of: "nobody", with: ""))

            let (badBody, _) = Self.form("nobody@example.org", "wrong horse 1")
            let webWrong = try await server.request(.post, "/login", raw: badBody, headers: headers)
            #expect(webWrong.status == .unauthorized)
            #expect(webWrong.text.contains("Wrong username, e-mail or password"))
        }
    }

    /// Registration does not make e-mails unique (refusing one would tell a stranger that an
    /// address has an account), so two accounts can share one: the password decides which
    /// signs in. Someone who gives their own account a stranger's address (review finding:
    /// before, a shared address signed in nobody, so it told whether the address had an account
    /// and switched the owner's e-mail sign-in off) learns nothing: their own password signs
    /// them in whether or not the address is someone else's, and the owner still signs in with
    /// it. The same password on both accounts signs in neither (which one would be a guess).
    @Test(arguments: TestDatabase.all)
    func anEmailTwoAccountsShareSignsInTheOneWhosePasswordItIs(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            func register(_ username: String, _ email: String, _ password: String) async throws {
                let registered = try await server.request(
                    .post, "/api/auth/register", json: ["username": username, "fullName": username.capitalized, "email": email, "password": password])
                #expect(registered.status == .created)
            }
            func signedIn(_ name: String, _ password: String) async throws -> String? {
                let answer = try await server.request(.post, "/api/auth/login", json: ["username": name, "password": password])
                if answer.status != .ok { #expect(answer.json["detail"] as? String == Self.failure) }
                return (answer.json["user"] as? [String: Any])?["username"] as? String
            }
            try await register("owner", "owner@example.org", "correct horse 1")
            try await register("squatter", "Owner@Example.org", "battery staple 2")
            try await register("loner", "nobody-else@example.org", "battery staple 2")
            // The squatter's own password signs the squatter in, exactly as on an address nobody
            // else has: the answer says nothing of the owner.
            #expect(try await signedIn("owner@example.org", "battery staple 2") == "squatter")
            #expect(try await signedIn("nobody-else@example.org", "battery staple 2") == "loner")
            #expect(try await signedIn("owner@example.org", "correct horse 1") == "owner")
            #expect(try await signedIn("owner@example.org", "wrong guess 3") == nil)

            // The same password on two accounts with one address: neither by e-mail, both by name.
            try await register("parent", "family@example.org", "family horse 4")
            try await register("child", "family@example.org", "family horse 4")
            #expect(try await signedIn("family@example.org", "family horse 4") == nil)
            #expect(try await signedIn("parent", "family horse 4") == "parent")
            let child = try await server.logIn("child", password: "family horse 4")

            // Once the child moves to an address of their own, each e-mail names one account.
            let moved = try await server.request(.patch, "/api/me", token: child, json: ["email": "Kid@Example.org"])
            #expect(moved.status == .ok)
            #expect(try await signedIn("kid@example.org", "family horse 4") == "child")
            #expect(try await signedIn("family@example.org", "family horse 4") == "parent")
        }
    }

    /// The throttle is the username's (`SignInThrottle`): five failures for a name from an
    /// address hold that address off it, whether the e-mail has an account or not.
    @Test(arguments: TestDatabase.all)
    func theThrottleCountsEmailsAsItCountsUsernames(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let services = try await HeartworkServices(store: store, settings: .init(passwordHashCost: 4), logger: TestDatabase.logger)
            _ = try await services.accounts.register(Registration(username: "owner", fullName: "Owner", email: "owner@example.org", password: "right password"))
            let start = Date()
            for name in ["OWNER@example.org", "ghost@example.org"] {
                for attempt in 0..<5 {
                    await #expect(throws: AppError.self) {
                        _ = try await services.accounts.signIn(
                            username: name, password: "wrong", address: "203.0.113.9", kind: .api, now: start.addingTimeInterval(Double(attempt)))
                    }
                }
                do {
                    _ = try await services.accounts.signIn(
                        username: name, password: "right password", address: "203.0.113.9", kind: .api, now: start.addingTimeInterval(6))
                    Issue.record("\(name) was not held off")
                } catch let error as AppError {
                    #expect(error.kind == .throttled && (error.retryAfterSeconds ?? 0) > 0, "\(name): \(error)")
                }
            }
            // The owner elsewhere is not held off.
            let owner = try await services.accounts.signIn(
                username: "owner@example.org", password: "right password", address: "198.51.100.7", kind: .api, now: start.addingTimeInterval(6))
            #expect(owner.user.username == "owner")
        }
    }

    @Test func theLoginPageAsksForUsernameOrEmail() async throws {
        try await ServerHarness.run { server in
            let page = try await server.request(.get, "/login")
            #expect(page.text.contains(#"<label for="username">Username or e-mail</label>"#))
            #expect(page.text.contains(#"autocomplete="username""#))
        }
    }

    /// Only A–Z fold: the same as SQLite's `lower` and PostgreSQL's under "C", which filled the
    /// keys of older accounts (migration 30).
    @Test func theKeyFoldsOnlyAsciiLetters() {
        #expect(EmailKey.of("Ana.Lima@Example.ORG") == "ana.lima@example.org")
        #expect(EmailKey.of("ÉLODIE@Exemple.fr") == "Élodie@exemple.fr")
    }

    /// A key filled by the migration's SQL matches the one Swift computes, on both engines.
    @Test(arguments: TestDatabase.all)
    func theMigrationsKeyMatchesSwifts(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let services = try await HeartworkServices(store: store, settings: .init(passwordHashCost: 4), logger: TestDatabase.logger)
            _ = try await services.accounts.register(Registration(username: "older", fullName: "Older", email: "Old.Timer@Example.org", password: "right password"))
            let sql =
                store.database.engine == .postgres
                ? #"UPDATE users SET email_key = lower(email COLLATE "C")"# : "UPDATE users SET email_key = lower(email)"
            try await store.database.sql.raw(SQLQueryString(sql)).run()
            let found = try await store.users.find(email: "old.timer@EXAMPLE.ORG", limit: 2)
            #expect(found.map(\.username) == ["older"])
        }
    }
}
