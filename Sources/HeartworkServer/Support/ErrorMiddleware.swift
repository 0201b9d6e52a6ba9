import Foundation
import HeartworkStore
import Hummingbird
import Logging

/// Turns every error into a response: problem+json for the API (and anything that is not a
/// page), an HTML page for the web app. Unexpected errors are logged and answered 500
/// without internals.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Self.problem(for: error, request: request, context: context)
            if WebPaths.isPage(request.uri.path) {
                return pages.errorPage(problem, request: request, context: context)
            }
            return problem.response()
        }
    }

    static func problem(for error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let problem as APIError:
            return problem
        case let error as HTTPError:
            switch error.status {
            case .notFound: return APIError(.notFound, "Not found", detail: "no route \(request.method.rawValue) \(request.uri.path)")
            case .methodNotAllowed: return APIError(.methodNotAllowed, "Method not allowed", detail: "\(request.method.rawValue) is not allowed on \(request.uri.path)")
            case .contentTooLarge: return APIError(.contentTooLarge, "Body too large", detail: error.body ?? "the request body is too large")
            default: return APIError(error.status, error.status.reasonPhrase, detail: error.body ?? error.status.reasonPhrase)
            }
        case let error as StoreError:
            if case .conflict(let message) = error { return .conflict(message) }
            if case .notFound = error { return .notFound("item") }
            context.logger.error("store failure", metadata: ["error": "\(error)"])
            return APIError(.internalServerError, "Server error", detail: "the server could not complete the request")
        default:
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return APIError(.internalServerError, "Server error", detail: "the server could not complete the request")
        }
    }
}
