import Crypto
import Foundation

/// A Web Push message's body, encrypted for one browser (RFC 8291, the `aes128gcm` content
/// coding of RFC 8188), and its opening (for tests). Pure: no I/O; the ephemeral key and the
/// salt are fresh per message unless a test passes its own.
///
/// ecdh_secret = ECDH(as_private, ua_public); PRK_key = HKDF-Extract(auth, ecdh_secret);
/// IKM = HKDF-Expand(PRK_key, "WebPush: info\0" ‖ ua_public ‖ as_public, 32);
/// PRK = HKDF-Extract(salt, IKM); CEK = HKDF-Expand(PRK, "Content-Encoding: aes128gcm\0", 16);
/// NONCE = HKDF-Expand(PRK, "Content-Encoding: nonce\0", 12);
/// body = salt(16) ‖ rs(4096, uint32 BE) ‖ idlen(65) ‖ as_public(65) ‖ AES-128-GCM(plaintext ‖ 0x02).
public enum WebPushMessage {
    /// The record size written in the header; a message is one record.
    public static let recordSize = 4096
    /// RFC 8291 §4: a push message's whole body is at most 4096 bytes, so with the 86-byte
    /// header, the 16-byte tag and the delimiter the plaintext is at most 3993 bytes.
    public static let maximumPlaintext = 3993

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidKey(String)
        case tooLong
        case malformed(String)

        public var description: String {
            switch self {
            case .invalidKey(let why): return "invalid key: \(why)"
            case .tooLong: return "the message is longer than one record"
            case .malformed(let why): return "malformed message: \(why)"
            }
        }
    }

    /// Encrypts `plaintext` for the browser whose subscription keys are `uaPublic` (65 bytes,
    /// an uncompressed P-256 point) and `auth` (16 bytes).
    public static func encrypt(
        _ plaintext: Data, uaPublic: Data, auth: Data, ephemeral: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: Data = randomBytes(16)
    ) throws(Failure) -> Data {
        guard plaintext.count <= maximumPlaintext else { throw .tooLong }
        guard salt.count == 16 else { throw .invalidKey("the salt is 16 bytes") }
        guard auth.count == 16 else { throw .invalidKey("auth is 16 bytes") }
        guard uaPublic.count == 65, uaPublic.first == 0x04 else { throw .invalidKey("p256dh is a 65-byte uncompressed P-256 point") }
        let receiver: P256.KeyAgreement.PublicKey
        do {
            receiver = try P256.KeyAgreement.PublicKey(x963Representation: uaPublic)
        } catch {
            throw .invalidKey("p256dh is not a point on P-256")
        }
        let asPublic = ephemeral.publicKey.x963Representation
        let (key, nonce) = try derive(
            secret: { try ephemeral.sharedSecretFromKeyAgreement(with: receiver) }, uaPublic: uaPublic, asPublic: asPublic, auth: auth, salt: salt)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(plaintext + Data([0x02]), using: key, nonce: AES.GCM.Nonce(data: nonce))
        } catch {
            throw .invalidKey("the content key could not be used")
        }
        var body = Data()
        body.append(salt)
        body.append(contentsOf: withUnsafeBytes(of: UInt32(recordSize).bigEndian) { Array($0) })
        body.append(UInt8(asPublic.count))
        body.append(asPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// Opens a single-record message as the browser holding `uaPrivate` and `auth` does.
    public static func decrypt(_ body: Data, uaPrivate: P256.KeyAgreement.PrivateKey, auth: Data) throws(Failure) -> Data {
        let bytes = [UInt8](body)
        guard bytes.count >= 21 else { throw .malformed("shorter than its header") }
        let salt = Data(bytes[0..<16])
        let idLength = Int(bytes[20])
        guard idLength == 65, bytes.count >= 21 + 65 + 17 else { throw .malformed("the key id is not a 65-byte public key, or no record follows") }
        let asPublic = Data(bytes[21..<86])
        let sender: P256.KeyAgreement.PublicKey
        do {
            sender = try P256.KeyAgreement.PublicKey(x963Representation: asPublic)
        } catch {
            throw .invalidKey("the sender's key is not a point on P-256")
        }
        let (key, nonce) = try derive(
            secret: { try uaPrivate.sharedSecretFromKeyAgreement(with: sender) }, uaPublic: uaPrivate.publicKey.x963Representation,
            asPublic: asPublic, auth: auth, salt: salt)
        let record = Data(bytes[86...])
        let opened: Data
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.dropLast(16), tag: record.suffix(16))
            opened = try AES.GCM.open(box, using: key)
        } catch {
            throw .malformed("the record does not decrypt with these keys")
        }
        // The last record: the content, a 0x02 delimiter, then zero padding.
        guard let delimiter = opened.lastIndex(where: { $0 != 0 }), opened[delimiter] == 0x02 else { throw .malformed("no last-record delimiter") }
        return Data(opened[opened.startIndex..<delimiter])
    }

    static func derive(
        secret: () throws -> SharedSecret, uaPublic: Data, asPublic: Data, auth: Data, salt: Data
    ) throws(Failure) -> (SymmetricKey, Data) {
        let shared: SharedSecret
        do {
            shared = try secret()
        } catch {
            throw .invalidKey("no shared secret with that key")
        }
        let ecdh = shared.withUnsafeBytes { SymmetricKey(data: Data($0)) }
        let prkKey = HKDF<SHA256>.extract(inputKeyMaterial: ecdh, salt: auth)
        let keyInfo = Data("WebPush: info".utf8) + Data([0]) + uaPublic + asPublic
        let ikm = HKDF<SHA256>.expand(pseudoRandomKey: prkKey, info: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + Data([0]), outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + Data([0]), outputByteCount: 12)
        return (cek, nonce.withUnsafeBytes { Data($0) })
    }

    public static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// The application server's identity to push services (RFC 8292, VAPID): a P-256 key pair,
/// kept in the database (the same for every instance), and the signed token each push
/// request carries.
public struct VAPIDKey: Sendable {
    /// The 32-byte private scalar (what the database keeps).
    public let rawPrivateKey: Data

    public init(rawPrivateKey: Data) throws {
        _ = try P256.Signing.PrivateKey(rawRepresentation: rawPrivateKey)
        self.rawPrivateKey = rawPrivateKey
    }

    /// A new key pair.
    public static func generate() -> VAPIDKey {
        // A fresh key's scalar is valid.
        (try? VAPIDKey(rawPrivateKey: P256.Signing.PrivateKey().rawRepresentation))!
    }

    var signing: P256.Signing.PrivateKey {
        // Checked in `init`.
        (try? P256.Signing.PrivateKey(rawRepresentation: rawPrivateKey))!
    }

    /// The uncompressed public key (65 bytes), base64url without padding: the browser's
    /// `applicationServerKey` and the `k` of the Authorization header.
    public var publicKey: String { Base64URL.encode(signing.publicKey.x963Representation) }

    /// The push service's origin, the token's audience: scheme://host[:port], the port only
    /// when it is not the scheme's default.
    public static func audience(of endpoint: URL) -> String? {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host, !host.isEmpty else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = endpoint.port, !(scheme == "https" && port == 443) && !(scheme == "http" && port == 80) {
            return "\(scheme)://\(bracketed):\(port)"
        }
        return "\(scheme)://\(bracketed)"
    }

    /// The JWT (ES256) for one push service: `aud` its origin, `exp` 12 hours on, `sub` the
    /// operator's contact.
    public func token(audience: String, subject: String, now: Date = Date()) -> String {
        struct Claims: Encodable {
            let aud: String
            let exp: Int
            let sub: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims = Claims(aud: audience, exp: Int(now.timeIntervalSince1970) + 12 * 3600, sub: subject)
        // Encoding three plain fields does not fail.
        let payload = Base64URL.encode((try? encoder.encode(claims)) ?? Data("{}".utf8))
        let signingInput = header + "." + payload
        // ES256 over the signing input; `rawRepresentation` is r ‖ s, 64 bytes, as JWS wants.
        let signature = (try? signing.signature(for: Data(signingInput.utf8)).rawRepresentation) ?? Data()
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// `Authorization: vapid t=<jwt>, k=<public key>`.
    public func authorization(audience: String, subject: String, now: Date = Date()) -> String {
        "vapid t=\(token(audience: audience, subject: subject, now: now)), k=\(publicKey)"
    }
}

/// Base64url without padding (RFC 4648 §5), as Web Push and JWS write keys and tokens.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// nil unless `text` is base64url (or plain base64), padded or not.
    public static func decode(_ text: String) -> Data? {
        var standard = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard standard.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=") }) else { return nil }
        standard = standard.replacingOccurrences(of: "=", with: "")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
