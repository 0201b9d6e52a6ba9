import Crypto
import Foundation
import Testing

@testable import HeartworkApp

/// Web Push encryption (RFC 8291, aes128gcm) and VAPID tokens (RFC 8292).
@Suite("Web Push message")
struct WebPushMessageTests {
    static func hex(_ text: String) -> Data {
        var bytes = [UInt8]()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    /// The golden vector: computed by http_ece 1.2.1 (Mozilla's implementation of RFC 8188 /
    /// 8291, independent of this code) with fixed keys and RFC 8291 Appendix A's plaintext,
    /// by Tests/Reference/webpush_vectors.py (its output pasted here).
    enum Golden {
        static let asPrivate = hex("4197e167de3e259802930287d56fff62a9b00f152585402370cdfb6a47507724")
        static let asPublic = hex(
            "0497db0db67c935df49c21b3abad38d093ebfdd2ea30d64bb854bd32afc6c9ada8ff26a412ec6240844ef83b55a45dd9a78b10645573e748db2a5fe791e1b6f8c3")
        static let uaPrivate = hex("ec6d2aa5ea2649a1796b5441b7f9759b989d7f8174c10e9ca1038b8aa35666e5")
        static let uaPublic = hex(
            "04d5ca1f1c97788df83170c67b2cb5001cbdc95bbf52fe93587808a5c1e476e3d0571f1d23a248fdfdfc77bcf1bc7fb177230a1e504d33e0e8f2abc3bdc5bffa73")
        static let salt = hex("ffb20920c416086d50303bebd5df503a")
        static let auth = hex("1ea9356c15b27ea583e9d2842076a4a1")
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let body = hex(
            "ffb20920c416086d50303bebd5df503a00001000410497db0db67c935df49c21b3abad38d093ebfdd2ea30d64bb854bd32afc6c9ada8ff26a412ec6240844ef83b55a45dd9a78b10645573e748db2a5fe791e1b6f8c3d8edbdf3ee44bf14c4b6c4bb8c770f042fec320bf78c3c273078a86c058aa8fec705a41fc7368926f1f66e314783f6d84e2d9dcb00d453bf2de6"
        )
    }

    @Test func encryptsAsTheReferenceImplementationDoes() throws {
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: Golden.asPrivate)
        #expect(ephemeral.publicKey.x963Representation == Golden.asPublic)
        let body = try WebPushMessage.encrypt(Data(Golden.plaintext.utf8), uaPublic: Golden.uaPublic, auth: Golden.auth, ephemeral: ephemeral, salt: Golden.salt)
        #expect(body == Golden.body)
    }

    @Test func decryptsTheReferenceImplementationsMessage() throws {
        let browser = try P256.KeyAgreement.PrivateKey(rawRepresentation: Golden.uaPrivate)
        #expect(browser.publicKey.x963Representation == Golden.uaPublic)
        let opened = try WebPushMessage.decrypt(Golden.body, uaPrivate: browser, auth: Golden.auth)
        #expect(String(decoding: opened, as: UTF8.self) == Golden.plaintext)
        // Another auth secret does not open it.
        #expect(throws: WebPushMessage.Failure.self) { try WebPushMessage.decrypt(Golden.body, uaPrivate: browser, auth: Data(repeating: 1, count: 16)) }
    }

    @Test func aMessageOpensWithTheBrowsersKeysOnlyAndEachIsFresh() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = WebPushMessage.randomBytes(16)
        let text = Data(#"{"title":"Challenge","body":"Ann challenges you","link":"/matches/1","tag":"match-invitation"}"#.utf8)
        let first = try WebPushMessage.encrypt(text, uaPublic: browser.publicKey.x963Representation, auth: auth)
        let second = try WebPushMessage.encrypt(text, uaPublic: browser.publicKey.x963Representation, auth: auth)
        #expect(first != second, "a fresh salt and ephemeral key per message")
        #expect(first.count == 16 + 4 + 1 + 65 + text.count + 1 + 16)
        #expect(try WebPushMessage.decrypt(first, uaPrivate: browser, auth: auth) == text)
        #expect(try WebPushMessage.decrypt(second, uaPrivate: browser, auth: auth) == text)
        #expect(throws: WebPushMessage.Failure.self) { try WebPushMessage.decrypt(first, uaPrivate: P256.KeyAgreement.PrivateKey(), auth: auth) }
    }

    @Test func badKeysAndLongMessagesAreRefusedNotTrapped() {
        let auth = WebPushMessage.randomBytes(16)
        let point = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        var offCurve = point
        offCurve[64] ^= 1
        #expect(throws: WebPushMessage.Failure.self) { try WebPushMessage.encrypt(Data("x".utf8), uaPublic: offCurve, auth: auth) }
        #expect(throws: WebPushMessage.Failure.self) { try WebPushMessage.encrypt(Data("x".utf8), uaPublic: point.prefix(33), auth: auth) }
        #expect(throws: WebPushMessage.Failure.self) { try WebPushMessage.encrypt(Data("x".utf8), uaPublic: point, auth: auth.prefix(8)) }
        #expect(throws: WebPushMessage.Failure.tooLong) {
            try WebPushMessage.encrypt(Data(count: WebPushMessage.maximumPlaintext + 1), uaPublic: point, auth: auth)
        }
        #expect(throws: WebPushMessage.Failure.self) { try WebPushMessage.decrypt(Data([1, 2, 3]), uaPrivate: P256.KeyAgreement.PrivateKey(), auth: auth) }
    }

    /// A JWT part's JSON object.
    static func json(_ part: String) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decode(part))
        return try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    }

    @Test func theVAPIDTokenVerifiesWithThePublicKeyAndNamesThePushService() throws {
        let key = VAPIDKey.generate()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let endpoint = try #require(URL(string: "https://updates.push.services.mozilla.com:443/wpush/v2/abc"))
        let audience = try #require(VAPIDKey.audience(of: endpoint))
        #expect(audience == "https://updates.push.services.mozilla.com")
        #expect(VAPIDKey.audience(of: URL(string: "http://127.0.0.1:8123/push/1")!) == "http://127.0.0.1:8123")
        let header = key.authorization(audience: audience, subject: "mailto:ops@example.org", now: now)
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(", k=\(key.publicKey)"))
        let token = String(header.dropFirst("vapid t=".count).prefix { $0 != "," })
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let head = try Self.json(parts[0])
        #expect(head["alg"] as? String == "ES256" && head["typ"] as? String == "JWT")
        let claims = try Self.json(parts[1])
        #expect(claims["aud"] as? String == audience)
        #expect(claims["exp"] as? Int == 1_800_000_000 + 12 * 3600)
        #expect(claims["sub"] as? String == "mailto:ops@example.org")
        // ES256: r ‖ s, 64 bytes, verified with the public key as the push service does.
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let publicKey = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(key.publicKey)))
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(!publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data("\(parts[0]).e30".utf8)))
        // The stored scalar gives back the same key.
        #expect(try VAPIDKey(rawPrivateKey: key.rawPrivateKey).publicKey == key.publicKey)
    }

    @Test func onlyThePushedKindsArePushedWithTheirTags() {
        #expect(PushService.payload(kind: "friend-request", text: "Ann wants to be your friend", link: "/friends")?.tag == "friend-request")
        #expect(PushService.payload(kind: "match-declined", text: "Ben declined", link: "/matches/1")?.tag == "match-answer")
        #expect(PushService.payload(kind: "inactivity-alert", text: "Move", link: "/today") == nil)
        #expect(PushService.payload(kind: "account-deleted", text: "gone", link: nil) == nil)
    }
}
