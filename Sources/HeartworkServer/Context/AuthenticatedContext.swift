import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird

/// A request from a signed-in user: built from `AppRequestContext` when the authentication
/// middleware found an identity, refused with 401 otherwise, so handlers never check.
public struct AuthenticatedContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let identity: Identity
    public let remoteAddress: String

    public init(context: AppRequestContext) throws {
        guard let identity = context.identity else { throw AppError.notSignedIn }
        // The parent's storage, so route parameters and the endpoint path carry over.
        coreContext = context.coreContext
        self.identity = identity
        remoteAddress = context.remoteAddress
    }

    public var user: UserRecord { identity.user }

    public var responseEncoder: JSONEncoder { APIJSON.encoder }
}
