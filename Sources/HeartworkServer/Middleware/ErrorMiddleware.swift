import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird
import Logging

/// Turns every error into a response: problem+json for the API (and anything that is not a
/// page), an HTML page for the web app. Unexpected errors are logged and answered 500
/// without internals.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: PageRenderer
    let routes: RouteIndex

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var problem = Self.problem(for: error, request: request, logger: context.logger)
            // No route for this method, but the path exists with others: 405 and what is allowed.
            // (Hummingbird answers some methods, such as TRACE, with its own 405: it gets the
            // same `Allow`, which RFC 9110 requires.)
            let routerStatus = (error as? HTTPError)?.status
            if routerStatus == .notFound || routerStatus == .methodNotAllowed {
                let allowed = routes.methods(for: request.uri.path)
                if !allowed.isEmpty {
                    problem = Problem(
                        .methodNotAllowed, "Method not allowed",
                        detail: "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(allowed.joined(separator: ", "))"
                    )
                    .withMessage("This address cannot be used that way. Go back and use the page's own buttons.")
                    problem.headers[.allow] = allowed.joined(separator: ", ")
                }
            }
            if WebPaths.isPage(request.uri.path) {
                return pages.errorPage(problem, request: request, identity: context.identity)
            }
            return problem.response()
        }
    }

    static func problem(for error: any Error, request: Request, logger: Logger) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as AppError:
            return Problem(error)
        case let error as JSONFieldError:
            return Problem(error)
        case let error as HTTPError:
            switch error.status {
            case .notFound:
                return Problem(.notFound, "Not found", detail: "no route \(request.method.rawValue) \(request.uri.path)")
                    .withMessage("There is nothing at this address. Check the link, or start again from the home page.")
            case .unauthorized: return Problem(AppError.notSignedIn)
            case .methodNotAllowed: return Problem(.methodNotAllowed, "Method not allowed", detail: "\(request.method.rawValue) is not allowed on \(request.uri.path)")
            case .contentTooLarge:
                let detail = error.body ?? "the request body is too large"
                return Problem(.contentTooLarge, "Body too large", detail: detail)
                    .withMessage("This is larger than Heartwork accepts here (\(detail)). Send a smaller file, or split it.")
            default: return Problem(error.status, error.status.reasonPhrase, detail: error.body ?? error.status.reasonPhrase)
            }
        case is URLEncodedFormError, is DecodingError:
            return Problem.badRequest("the form could not be read: \(error)")
                .withMessage("The form could not be read. Reload the page and fill it in again.")
        case let error as StoreError:
            switch error {
            case .conflict(let message): return Problem(AppError.conflict(message))
            case .notFound(let what): return Problem(AppError.notFound(what))
            default: break
            }
            logger.error("store failure", metadata: ["error": "\(error)"])
            return Problem.serverError
        case _ where StoreError.isForeignKeyViolation(error):
            // A write that refers to a row deleted meanwhile: a request racing its own account's
            // deletion (the account is gone: sign in), or another row's.
            logger.info("a write referred to a deleted row", metadata: ["path": "\(request.uri.path)"])
            return Problem(AppError.notSignedIn)
        default:
            logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return Problem.serverError
        }
    }
}
