import CompressNIO
import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird

/// /api/auth/…, /api/me/password, the account export (GET /api/me/export) and deletion
/// (DELETE /api/me).
struct AccountRoutes {
    let services: HeartworkServices

    func register(public api: RouterGroup<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        api.post("auth/register", use: postAuthRegister)
        api.post("auth/login", use: postAuthLogin)
        signedIn.post("auth/logout", use: postAuthLogout)
        signedIn.post("auth/logout-everywhere", use: postAuthLogoutEverywhere)
        signedIn.post("me/password", use: postMePassword)
        // Everything of the caller's as a ZIP archive, written while it is sent.
        signedIn.get("me/export", use: getMeExport)
        signedIn.delete("me", use: deleteMe)
    }

    /// POST /api/auth/register
    func postAuthRegister(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ProfileResponse> {
        let body = try RegisterRequest(try await RequestBody.jsonObject(request, allowed: RegisterRequest.fields))
        let strength = try body.checkedStrength()
        let user = try await services.accounts.register(body.registration)
        if strength.goal != nil || strength.lifestyle != nil {
            _ = try await services.strength.updateSettings(.init(goal: strength.goal, lifestyle: strength.lifestyle), for: user)
        }
        return EditedResponse(status: .created, response: ProfileResponse(try await services.profiles.profile(of: user)))
    }

    /// POST /api/auth/login
    func postAuthLogin(_ request: Request, context: AppRequestContext) async throws -> LoginResponse {
        let body = try LoginRequest(try await RequestBody.jsonObject(request, allowed: LoginRequest.fields))
        let signIn = try await services.accounts.signIn(
            username: body.username, password: body.password, address: context.remoteAddress, kind: .api)
        return LoginResponse(
            token: signIn.token, expiresAt: signIn.session.expiresAt,
            user: ProfileResponse(try await services.profiles.profile(of: signIn.user)))
    }

    /// POST /api/auth/logout
    func postAuthLogout(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.accounts.signOut(context.identity)
        return .noContent
    }

    /// POST /api/auth/logout-everywhere
    func postAuthLogoutEverywhere(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.accounts.signOutEverywhere(context.identity)
        return .noContent
    }

    /// POST /api/me/password
    func postMePassword(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let body = try ChangePasswordRequest(try await RequestBody.jsonObject(request, allowed: ChangePasswordRequest.fields))
        try await services.accounts.changePassword(context.identity, current: body.currentPassword, new: body.newPassword)
        return .noContent
    }

    /// GET /api/me/export
    func getMeExport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        Self.exportResponse(for: context.user, archive: services.archives)
    }

    /// DELETE /api/me
    func deleteMe(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let body = try DeleteAccountRequest(try await RequestBody.jsonObject(request, allowed: DeleteAccountRequest.fields))
        try await services.accounts.deleteAccount(context.identity, password: body.password)
        return .noContent
    }

    /// The account archive as an attachment, written while it is sent.
    static func exportResponse(for user: UserRecord, archive: AccountArchive) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        headers[.contentDisposition] = "attachment; filename=\"\(AccountArchive.fileName(for: user))\""
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await archive.write(for: user, deflate: Self.rawDeflate) { bytes in
                    try await writer.write(ByteBuffer(bytes: bytes))
                }
                try await writer.finish(nil)
            })
    }

    /// An archive entry's raw DEFLATE stream (zlib through CompressNIO), or nil when too small
    /// to be worth it.
    static func rawDeflate(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 256 else { return nil }
        var buffer = ByteBuffer(bytes: bytes)
        guard let compressed = try? buffer.compress(with: .deflate()) else { return nil }
        return Array(compressed.readableBytesView)
    }
}
