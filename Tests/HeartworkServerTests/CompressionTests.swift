import CompressNIO
import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCharts
import Hummingbird
import NIOCore
import Testing

@testable import HeartworkServer

/// Text answers go out gzip-compressed when asked for, decompress to exactly what an
/// uncompressed request receives, and pages never repeat the CSRF secret verbatim.
@Suite("Compression")
struct CompressionTests {
    static func gunzip(_ data: Data) throws -> String {
        var buffer = ByteBuffer(data: data)
        let plain = try buffer.decompress(with: .gzip())
        return String(buffer: plain)
    }

    @Test func aWorkoutPageIsCompressedAndDecompressesToTheSamePage() async throws {
        try await ServerHarness.run { harness in
            let (_, token) = try await harness.signUp("gzipper")
            try await harness.completeProfile(token)
            let id = try await harness.upload(token, ServerHarness.workoutJSON(seconds: 3600))
            let session = try await harness.webSession("gzipper")
            var headers = HTTPFields()
            headers[.cookie] = session.cookie
            let plain = try await harness.request(.get, "/workouts/\(id)", headers: headers)
            headers[.acceptEncoding] = "br;q=1.0, gzip;q=0.8, *;q=0.1"
            let compressed = try await harness.request(.get, "/workouts/\(id)", headers: headers)
            #expect(plain.status == .ok && compressed.status == .ok)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(compressed.headers[.contentEncoding] == "gzip")
            #expect(compressed.headers[values: .vary].contains("Accept-Encoding"))
            #expect(plain.body.count > 60_000, "a one-hour workout page is large: \(plain.body.count) bytes")
            #expect(compressed.body.count * 4 < plain.body.count, "\(compressed.body.count) of \(plain.body.count) bytes")
            let expanded = try Self.gunzip(compressed.body)
            // The pages differ only in their masked CSRF tokens.
            let mask = try Regex(#"[0-9a-f]{80,}"#)
            #expect(expanded.replacing(mask, with: "T") == plain.text.replacing(mask, with: "T"))
        }
    }

    @Test func jsonIsCompressedSmallAnswersAndRefusedCodingsAreNot() async throws {
        try await ServerHarness.run { harness in
            let (_, token) = try await harness.signUp("jsonzip")
            let id = try await harness.upload(token, ServerHarness.workoutJSON(seconds: 3600))
            var headers = HTTPFields()
            headers[.acceptEncoding] = "gzip"
            let streams = try await harness.client.execute(
                uri: "/api/workouts/\(id)", method: .get,
                headers: [.authorization: "Bearer \(token)", .acceptEncoding: "gzip"], body: nil)
            #expect(streams.headers[.contentEncoding] == "gzip")
            let json = try JSONSerialization.jsonObject(with: Data(try Self.gunzip(Data(buffer: streams.body)).utf8)) as? [String: Any]
            #expect((json?["heartRate"] as? [Any])?.count == 3600)

            let health = try await harness.client.execute(uri: "/healthz", method: .get, headers: [.acceptEncoding: "gzip"], body: nil)
            #expect(health.headers[.contentEncoding] == nil, "a tiny answer is sent as it is")
            let refused = try await harness.client.execute(
                uri: "/api/workouts/\(id)", method: .get,
                headers: [.authorization: "Bearer \(token)", .acceptEncoding: "gzip;q=0, identity"], body: nil)
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    @Test func acceptEncodingIsReadAsRFC9110Says() {
        #expect(CompressionMiddleware<AppRequestContext>.acceptsGzip(["gzip"]))
        #expect(CompressionMiddleware<AppRequestContext>.acceptsGzip(["deflate, gzip;q=0.5"]))
        #expect(CompressionMiddleware<AppRequestContext>.acceptsGzip(["*"]))
        #expect(!CompressionMiddleware<AppRequestContext>.acceptsGzip(["gzip;q=0"]))
        #expect(!CompressionMiddleware<AppRequestContext>.acceptsGzip(["br, identity"]))
        #expect(!CompressionMiddleware<AppRequestContext>.acceptsGzip([]))
        #expect(CompressionMiddleware<AppRequestContext>.isCompressible("text/html; charset=utf-8"))
        #expect(CompressionMiddleware<AppRequestContext>.isCompressible("application/problem+json"))
        #expect(!CompressionMiddleware<AppRequestContext>.isCompressible("image/png"))
        #expect(!CompressionMiddleware<AppRequestContext>.isCompressible(nil))
    }

    @Test func maskedCSRFTokensDifferEachTimeAndStillMatch() {
        let token = SessionToken.generate()
        let first = SessionToken.masked(token)
        let second = SessionToken.masked(token)
        #expect(first != second)
        #expect(!first.contains(token))
        #expect(SessionToken.matchesCSRF(first, expected: token))
        #expect(SessionToken.matchesCSRF(second, expected: token))
        #expect(SessionToken.matchesCSRF(token, expected: token))
        #expect(!SessionToken.matchesCSRF(SessionToken.masked(SessionToken.generate()), expected: token))
        #expect(!SessionToken.matchesCSRF(String(repeating: "z", count: first.count), expected: token))
        #expect(!SessionToken.matchesCSRF("", expected: token))
    }
}

/// A configured tile server: routes are drawn on its tiles, pages may load images from it
/// and from nowhere else; without one, no page references a third party.
@Suite("Map tiles on workout pages")
struct MapTilePageTests {
    @Test func routesUseTheConfiguredTilesAndThePolicyAllowsOnlyThatOrigin() async throws {
        let tiles = try MapTiles(urlTemplate: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: "© OpenStreetMap contributors")
        try await ServerHarness.run(adjusting: { $0.mapTiles = tiles }) { harness in
            let (_, token) = try await harness.signUp("mapper")
            let id = try await harness.upload(token)
            let session = try await harness.webSession("mapper")
            let page = try await harness.request(.get, "/workouts/\(id)", headers: [.cookie: session.cookie])
            #expect(page.status == .ok)
            #expect(page.text.contains("<image href=\"https://tiles.example.org/"))
            #expect(page.text.contains("© OpenStreetMap contributors"))
            let policy = page.headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("img-src 'self' data: https://tiles.example.org"), "\(policy)")
        }
        try await ServerHarness.run { harness in
            let (_, token) = try await harness.signUp("nomaps")
            let id = try await harness.upload(token)
            let session = try await harness.webSession("nomaps")
            let page = try await harness.request(.get, "/workouts/\(id)", headers: [.cookie: session.cookie])
            #expect(page.text.contains("Route") && !page.text.contains("<image"))
            #expect(!(page.headers[.contentSecurityPolicy] ?? "").contains("https:"))
        }
    }
}
