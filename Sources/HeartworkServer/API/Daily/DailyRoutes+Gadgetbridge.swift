import HeartworkApp
import HeartworkModel
import Hummingbird

extension DailyRoutes {
    /// POST /api/imports/gadgetbridge: Gadgetbridge's database as the body (the file Settings →
    /// Database management → Export DB writes). The body is known by its first bytes, not its
    /// media type (phones send such files as application/octet-stream, application/x-sqlite3 or
    /// application/vnd.sqlite3). A body that is not an SQLite database, or an SQLite database
    /// that is not Gadgetbridge's, is refused with 400 and says why.
    func postImportsGadgetbridge(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = OneShotBody(request.body)
        let record: HealthImportRecord
        do {
            record = try await daily.importExport(body.map(\.readableBytesView), format: .gadgetbridge, for: context.user)
        } catch let error as AppError where error.kind == .invalid {
            try? await body.discardRest()
            throw Problem(.badRequest, "Not a Gadgetbridge database", detail: error.detail)
                .withMessage("Upload the database Gadgetbridge exports: Settings → Database management → Export DB (or the auto-export file).")
        } catch {
            try? await body.discardRest()
            throw error
        }
        var answer = try APIJSON.response(HealthImportResponse(record), status: .accepted)
        answer.headers[.location] = "/api/imports/\(record.id)"
        return answer
    }
}
