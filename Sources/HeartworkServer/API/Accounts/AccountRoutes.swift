import Foundation
import HeartworkApp
import Hummingbird

/// /api/auth/… and /api/me/password.
struct AccountRoutes {
    let services: HeartworkServices

    func register(public api: RouterGroup<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        api.post("auth/register") { request, _ -> EditedResponse<ProfileResponse> in
            let body = try RegisterRequest(try await RequestBody.jsonObject(request, allowed: RegisterRequest.fields))
            let user = try await services.accounts.register(body.registration)
            return EditedResponse(status: .created, response: ProfileResponse(try await services.profiles.profile(of: user)))
        }
        api.post("auth/login") { request, context -> LoginResponse in
            let body = try LoginRequest(try await RequestBody.jsonObject(request, allowed: LoginRequest.fields))
            let signIn = try await services.accounts.signIn(
                username: body.username, password: body.password, address: context.remoteAddress, kind: .api)
            return LoginResponse(
                token: signIn.token, expiresAt: signIn.session.expiresAt,
                user: ProfileResponse(try await services.profiles.profile(of: signIn.user)))
        }
        signedIn.post("auth/logout") { _, context -> HTTPResponse.Status in
            try await services.accounts.signOut(context.identity)
            return .noContent
        }
        signedIn.post("me/password") { request, context -> HTTPResponse.Status in
            let body = try ChangePasswordRequest(try await RequestBody.jsonObject(request, allowed: ChangePasswordRequest.fields))
            try await services.accounts.changePassword(context.identity, current: body.currentPassword, new: body.newPassword)
            return .noContent
        }
    }
}
