import Foundation
import HeartworkStore
import HeartworkTestSupport
import Testing

@testable import HeartworkApp

/// Issue 29: webhooks never reach the server's own network — every special-purpose block of
/// IANA's IPv4 and IPv6 registries, the IPv4 inside NAT64, 6to4, mapped and compatible forms,
/// the host's own addresses — and a failure tells the user no port or error code.
@Suite("Webhook policy")
struct WebhookPolicyTests {
    static func address(_ text: String) throws -> [UInt8] { try #require(NetworkAddress.parse(text), "\(text)") }

    @Test func specialPurposeAddressesAreRefused() throws {
        let refused = [
            "0.0.0.0", "10.1.2.3", "100.64.0.1", "127.0.0.1", "169.254.169.254", "172.16.0.1", "192.0.0.8", "192.0.2.1", "192.88.99.1",
            "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1", "240.0.0.1", "255.255.255.255",
            "2130706433", "0x7f.1",  // 127.0.0.1 spelled as inet_aton takes it
            "::", "::1", "::ffff:127.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::c0a8:1", "64:ff9b:1::1", "2002:7f00:1::1",
            "2002:c0a8:101::1", "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:db8::1", "3fff::1", "100::1", "fc00::1",
            "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1", "5f00::1",
        ]
        for text in refused {
            #expect(NetworkAddress.isSpecialPurpose(try Self.address(text)), "\(text) must be refused")
        }
        let allowed = ["1.1.1.1", "8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "64:ff9b::808:808", "2002:808:808::1"]
        for text in allowed {
            #expect(!NetworkAddress.isSpecialPurpose(try Self.address(text)), "\(text) is public")
        }
    }

    @Test func theHostsOwnAddressesAreRefused() throws {
        let own = NetworkAddress.localAddresses()
        #expect(own.contains(try Self.address("127.0.0.1")))
        for address in own { #expect(NetworkAddress.isPrivate(address)) }
    }

    /// Where it connects is what was checked (one lookup), and a refusal says why in words.
    @Test func theTargetIsTheCheckedAddress() {
        let policy = WebhookPolicy()
        #expect(policy.target(host: "localhost") == .refused("the host localhost resolves to a private, reserved or this server's own address"))
        #expect(policy.target(host: "127.0.0.1") != .connect("127.0.0.1"))
        #expect(WebhookPolicy(allowPrivateAddresses: true).target(host: "127.0.0.1") == .connect("127.0.0.1"))
        #expect(WebhookPolicy(allowPrivateAddresses: true).target(host: "::1") == .connect("::1"))
        if case .refused(let why) = policy.target(host: "no-such-host.invalid") { #expect(why.contains("does not resolve")) } else { Issue.record("resolved") }
    }

    /// A delivery to a closed port: the user reads "could not be reached", never the port or
    /// the errno that would map the server's network.
    @Test func aFailedDeliveryNamesNoPortOrCode() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let deliverer = WebhookDeliverer(store: store, policy: WebhookPolicy(allowPrivateAddresses: true), logger: TestDatabase.logger)
            let record = WebhookDeliveryRecord(userID: "u", url: "http://127.0.0.1:9/hook", body: "{}", nextAttemptAt: Date(), createdAt: Date())
            let failure = await deliverer.send(record, secret: "secret")
            #expect(failure == "the receiver could not be reached", "\(failure ?? "delivered")")
        }
    }
}
