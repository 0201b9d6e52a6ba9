import Crypto
import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeartworkServer

/// Web Push over HTTP (issue 25, HeartMate F35): the VAPID key, the devices a user turns
/// notifications on for, and a push reaching a push service (a local HTTP endpoint) that
/// opens it with the browser's keys.
@Suite("Web Push API")
struct PushAPITests {
    /// A browser's subscription keys.
    struct Browser {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = WebPushMessage.randomBytes(16)
        var p256dh: String { Base64URL.encode(key.publicKey.x963Representation) }

        func subscription(_ endpoint: String) -> [String: Any] {
            ["endpoint": endpoint, "expirationTime": NSNull(), "keys": ["p256dh": p256dh, "auth": Base64URL.encode(auth)]]
        }
    }

    @Test(arguments: TestDatabase.all)
    func devicesAreAddedListedAndRemovedByTheirOwnerOnly(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, ann) = try await server.signUp("pushann")
            let (_, ben) = try await server.signUp("pushben")
            #expect(try await server.request(.get, "/api/push/key").status == .unauthorized)
            let key = try #require(try await server.request(.get, "/api/push/key", token: ann).json["publicKey"] as? String)
            #expect(Base64URL.decode(key)?.count == 65)
            #expect(try await server.request(.get, "/api/push/key", token: ben).json["publicKey"] as? String == key, "one key for the server")

            let browser = Browser()
            let endpoint = "https://push.example.org/send/ann-laptop"
            let added = try await server.request(.post, "/api/push/subscriptions", token: ann, json: browser.subscription(endpoint))
            #expect(added.status == .created, "\(added.text)")
            #expect(added.json["service"] as? String == "https://push.example.org")
            // The same browser again renews it: still one device.
            #expect(try await server.request(.post, "/api/push/subscriptions", token: ann, json: browser.subscription(endpoint)).status == .created)
            let listed = try await server.request(.get, "/api/push/subscriptions", token: ann).json["subscriptions"] as? [[String: Any]]
            #expect(listed?.count == 1 && listed?.first?["endpoint"] == nil, "origin and time only")
            #expect((try await server.request(.get, "/api/push/subscriptions", token: ben).json["subscriptions"] as? [Any])?.isEmpty == true)

            // Ben cannot remove Ann's device.
            #expect(try await server.request(.delete, "/api/push/subscriptions", token: ben, json: ["endpoint": endpoint]).status == .notFound)
            let annRecord = try #require(try await server.store.users.find(username: "pushann"))
            #expect(try await server.store.push.subscriptions(userID: annRecord.id).count == 1)
            #expect(try await server.request(.delete, "/api/push/subscriptions", token: ann, json: ["endpoint": endpoint]).status == .noContent)
            #expect((try await server.request(.get, "/api/push/subscriptions", token: ann).json["subscriptions"] as? [Any])?.isEmpty == true)
            #expect(try await server.request(.delete, "/api/push/subscriptions", token: ann, json: ["endpoint": endpoint]).status == .notFound)

            // Deleting the account deletes its devices.
            #expect(try await server.request(.post, "/api/push/subscriptions", token: ben, json: browser.subscription(endpoint)).status == .created)
            let benRecord = try #require(try await server.store.users.find(username: "pushben"))
            #expect(try await server.request(.delete, "/api/me", token: ben, json: ["password": "correct horse 1"]).status == .noContent)
            #expect(try await server.store.push.subscriptions(userID: benRecord.id).isEmpty)
        }
    }

    /// A device lasts as long as the session that turned it on (review finding: on a shared
    /// computer, A signed out and A's notices kept arriving there): once that session is signed
    /// out, the next notice removes the device instead of pushing to it; the device of a
    /// session still open gets its push.
    @Test(arguments: TestDatabase.all)
    func signingOutEndsThePushesToThatBrowser(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (annID, laptopSession) = try await server.signUp("pushshared")
            let phoneSession = try await server.logIn("pushshared")
            let (_, friend) = try await server.signUp("pushfriend")
            let (laptop, phone) = (Browser(), Browser())
            let (laptopEndpoint, phoneEndpoint) = ("https://push.example.org/send/laptop", "https://push.example.org/send/phone")
            #expect(try await server.request(.post, "/api/push/subscriptions", token: laptopSession, json: laptop.subscription(laptopEndpoint)).status == .created)
            #expect(try await server.request(.post, "/api/push/subscriptions", token: phoneSession, json: phone.subscription(phoneEndpoint)).status == .created)
            #expect(try await server.request(.post, "/api/auth/logout", token: laptopSession).status == .noContent)
            // Still listed until a notice would go to it (nothing is pushed on sign-out itself).
            #expect(try await server.store.push.subscriptions(userID: annID).count == 2)
            #expect(try await server.request(.post, "/api/friend-requests", token: friend, json: ["userID": annID]).status == .created)
            #expect(try await server.store.push.subscriptions(userID: annID).map(\.endpoint) == [phoneEndpoint])
        }
    }

    @Test(arguments: TestDatabase.all)
    func badSubscriptionsAreRefusedNamingTheField(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, ann) = try await server.signUp("pushbad")
            let browser = Browser()
            func refused(_ body: [String: Any]) async throws -> (HTTPResponse.Status, String?) {
                let reply = try await server.request(.post, "/api/push/subscriptions", token: ann, json: body)
                return (reply.status, reply.problemField)
            }
            var body = browser.subscription("https://push.example.org/x")
            body["keys"] = ["p256dh": Base64URL.encode(Data(repeating: 4, count: 65)), "auth": Base64URL.encode(browser.auth)]
            #expect(try await refused(body) == (.unprocessableContent, "keys.p256dh"), "not a point on the curve")
            body["keys"] = ["p256dh": browser.p256dh, "auth": Base64URL.encode(Data(repeating: 1, count: 8))]
            #expect(try await refused(body) == (.unprocessableContent, "keys.auth"))
            body["keys"] = ["p256dh": "not base64!", "auth": Base64URL.encode(browser.auth)]
            #expect(try await refused(body) == (.unprocessableContent, "keys.p256dh"))
            body["keys"] = ["p256dh": browser.p256dh]
            #expect(try await refused(body).1 == "keys.auth", "missing")
            for endpoint in ["http://push.example.org/x", "https://127.0.0.1/x", "https://localhost/x", "ftp://push.example.org/x", "push"] {
                #expect(try await refused(browser.subscription(endpoint)) == (.unprocessableContent, "endpoint"), "\(endpoint)")
            }
            var extra = browser.subscription("https://push.example.org/x")
            extra["owner"] = "someone"
            let unknown = try await refused(extra)
            #expect([.badRequest, .unprocessableContent].contains(unknown.0) && unknown.1 == "owner", "\(unknown)")
        }
    }

    @Test(arguments: TestDatabase.all)
    func aUserHasAtMostTenDevices(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, ann) = try await server.signUp("pushmany")
            let browser = Browser()
            for n in 0..<PushService.deviceLimit {
                let reply = try await server.request(.post, "/api/push/subscriptions", token: ann, json: browser.subscription("https://push.example.org/\(n)"))
                #expect(reply.status == .created)
            }
            let eleventh = try await server.request(.post, "/api/push/subscriptions", token: ann, json: browser.subscription("https://push.example.org/more"))
            #expect(eleventh.status == .conflict && eleventh.text.contains("10 devices"), "\(eleventh.text)")
            // Renewing one of the ten is not an eleventh.
            #expect(try await server.request(.post, "/api/push/subscriptions", token: ann, json: browser.subscription("https://push.example.org/3")).status == .created)
        }
    }

    /// Two instances on one database starting together sign with one key.
    @Test(arguments: TestDatabase.all)
    func everyInstanceOfOneDatabaseHasTheSameKey(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let services = (0..<4).map { _ in PushService(store: store, policy: WebhookPolicy(), contact: "mailto:x@example.org", logger: TestDatabase.logger) }
            let keys = try await withThrowingTaskGroup(of: String.self) { group in
                for service in services { group.addTask { try await service.publicKey() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(keys.count == 1)
            #expect(try await services[0].publicKey() == keys.first)
        }
    }

    /// A friend request reaches Ben's browser through a push service on this machine: the
    /// POST carries VAPID and aes128gcm, opens with the browser's keys, and says what happened;
    /// a 5xx is retried, and a 410 (the browser unsubscribed) removes the device.
    @Test func aFriendRequestIsPushedEncryptedAndAGoneDeviceIsRemoved() async throws {
        let received = Received()
        let answers = Answers()
        let router = Router()
        router.post("push/:device") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            // The encrypted body, kept as base64 (it is not text).
            _ = await received.add(Data(buffer: body).base64EncodedString(), headers: request.headers)
            return Response(status: await answers.next())
        }
        let receiver = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await receiver.test(.live) { client in
            let port = try #require(client.port)
            try await ServerHarness.run(adjusting: { $0.allowPrivateWebhooks = true }) { server in
                let (_, ann) = try await server.signUp("pushsender")
                let (benID, ben) = try await server.signUp("pushreader")
                let browser = Browser()
                let endpoint = "http://127.0.0.1:\(port)/push/ben"
                #expect(try await server.request(.post, "/api/push/subscriptions", token: ben, json: browser.subscription(endpoint)).status == .created)
                let publicKey = try #require(try await server.request(.get, "/api/push/key", token: ben).json["publicKey"] as? String)

                await answers.set([.internalServerError, .created, .gone])
                #expect(try await server.request(.post, "/api/friend-requests", token: ann, json: ["userID": benID]).status == .created)
                func deliver(at now: Date = Date()) async -> Int {
                    var ran = 0
                    while await server.services.jobs.runNext(now: now) { ran += 1 }
                    return ran
                }
                #expect(await deliver() == 1)  // answered 500: retried later
                #expect(await deliver() == 0)
                #expect(await deliver(at: Date().addingTimeInterval(31)) == 1)
                let calls = await received.calls
                #expect(calls.count == 2)
                let call = try #require(calls.last)
                #expect(call.headers[HTTPField.Name("Content-Encoding")!] == "aes128gcm")
                #expect(call.headers[HTTPField.Name("TTL")!] == "86400")
                #expect(call.headers[HTTPField.Name("Urgency")!] == "normal")
                #expect(call.headers[.contentType] == "application/octet-stream")
                let authorization = try #require(call.headers[.authorization])
                #expect(authorization.hasPrefix("vapid t=") && authorization.hasSuffix(", k=\(publicKey)"))
                let jwt = String(authorization.dropFirst("vapid t=".count).prefix { $0 != "," }).split(separator: ".").map(String.init)
                let claimBytes = try #require(Base64URL.decode(jwt[1]))
                let claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
                #expect(claims["aud"] as? String == "http://127.0.0.1:\(port)")
                let publicBytes = try #require(Base64URL.decode(publicKey))
                let signatureBytes = try #require(Base64URL.decode(jwt[2]))
                let verifier = try P256.Signing.PublicKey(x963Representation: publicBytes)
                let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
                #expect(verifier.isValidSignature(signature, for: Data("\(jwt[0]).\(jwt[1])".utf8)))

                let sealed = try #require(Data(base64Encoded: call.body))
                let opened = try WebPushMessage.decrypt(sealed, uaPrivate: browser.key, auth: browser.auth)
                let payload = try #require(try JSONSerialization.jsonObject(with: opened) as? [String: Any])
                #expect(payload["title"] as? String == "Friend request")
                #expect((payload["body"] as? String)?.contains("@pushsender") == true)
                #expect(payload["tag"] as? String == "friend-request")
                #expect((payload["link"] as? String)?.hasPrefix("/") == true)

                // The next push is answered 410: the device is gone, and so is its subscription.
                let (_, third) = try await server.signUp("pushthird")
                #expect(try await server.request(.post, "/api/friend-requests", token: third, json: ["userID": benID]).status == .created)
                #expect(await deliver() == 1)
                #expect(await received.calls.count == 3)
                #expect(try await server.store.push.subscriptions(userID: benID).isEmpty)
                // Nothing more is sent to it: Ben accepting tells Ann (no device), not Ben.
                let incoming = try await server.request(.get, "/api/friend-requests/incoming", token: ben).json["requests"] as? [[String: Any]]
                #expect(incoming?.count == 2)
                #expect(await deliver() == 0)
                #expect(await received.calls.count == 3)
            }
        }
    }
}

/// What the local push service answers, in order (then 201).
actor Answers {
    var queue = [HTTPResponse.Status]()
    func set(_ statuses: [HTTPResponse.Status]) { queue = statuses }
    func next() -> HTTPResponse.Status { queue.isEmpty ? .created : queue.removeFirst() }
}
