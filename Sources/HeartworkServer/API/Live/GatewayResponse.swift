import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird

/// A gateway as its owner sees it; `token` only in the answer that created it.
struct GatewayResponse: ResponseEncodable {
    let id: String
    let name: String
    let createdAt: Date
    let lastSeenAt: Date?
    let token: String?

    init(_ gateway: GatewayRecord, token: String? = nil) {
        id = gateway.id
        name = gateway.name
        createdAt = gateway.createdAt
        lastSeenAt = gateway.lastSeenAt
        self.token = token
    }
}

struct GatewayListResponse: ResponseEncodable {
    let gateways: [GatewayResponse]
}

/// `{"name"}`, for creating and renaming.
enum GatewayNameRequest {
    static let fields = ["name"]
}
