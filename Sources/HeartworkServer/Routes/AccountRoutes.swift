import Foundation
import HeartworkStore
import Hummingbird

/// /api/auth/… and /api/me/password.
struct AccountRoutes {
    let services: AppServices

    func register(on api: RouterGroup<AppRequestContext>) {
        api.post("auth/register") { request, _ -> EditedResponse<ProfileResponse> in
            let body = try await JSONBody.decode(RegisterRequest.self, from: request, limit: 64 * 1024)
            let user = try await services.accounts.register(body)
            return EditedResponse(status: .created, response: ProfileResponse(user, latestWeight: nil, latestResting: nil))
        }
        api.post("auth/login") { request, context -> LoginResponse in
            let body = try await JSONBody.decode(LoginRequest.self, from: request, limit: 64 * 1024)
            let (token, session, user) = try await services.accounts.signIn(
                username: body.username, password: body.password, address: context.remoteAddress, kind: .api)
            let profile = try await services.profile(of: user)
            return LoginResponse(token: token, expiresAt: session.expiresAt, user: profile)
        }
        api.post("auth/logout") { _, context -> HTTPResponse.Status in
            try await services.accounts.signOut(try context.requireIdentity())
            return .noContent
        }
        api.post("me/password") { request, context -> HTTPResponse.Status in
            let identity = try context.requireIdentity()
            let body = try await JSONBody.decode(ChangePasswordRequest.self, from: request, limit: 64 * 1024)
            try await services.accounts.changePassword(identity, current: body.currentPassword, new: body.newPassword)
            return .noContent
        }
    }
}
