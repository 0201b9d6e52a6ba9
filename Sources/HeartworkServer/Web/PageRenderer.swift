import Foundation
import HeartworkStore
import Hummingbird
import Mustache

/// Paths that are web pages (HTML), as opposed to the API and machine endpoints.
enum WebPaths {
    static func isPage(_ path: String) -> Bool {
        !(path.hasPrefix("/api/") || path == "/api" || path == "/healthz" || path == "/metrics"
          || path == "/openapi.json" || path.hasPrefix("/static/"))
    }
}

/// Renders Mustache templates (Resources/templates) inside the site layout.
final class PageRenderer: Sendable {
    private let library: MustacheLibrary

    init() async throws {
        guard let directory = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources") else {
            throw APIError(.internalServerError, "Missing templates", detail: "the server's page templates are not installed")
        }
        library = try await MustacheLibrary(directory: directory.path)
    }

    /// A full page. `values` are the template's own; the layout adds the title, the user
    /// menu and the CSRF token.
    func page(_ template: String, title: String, values: [String: Any], identity: Identity?, status: HTTPResponse.Status = .ok) -> Response {
        var context = values
        context["title"] = title
        if let identity {
            context["signedIn"] = ["username": identity.user.username, "csrf": identity.session.csrfToken ?? ""]
            context["csrf"] = identity.session.csrfToken ?? ""
        }
        let body = library.render(context, withTemplate: template) ?? "template \(template) is missing"
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// An error as a page: the sign-in form for 401, a plain message otherwise.
    func errorPage(_ problem: APIError, request: Request, context: AppRequestContext) -> Response {
        if problem.status == .unauthorized {
            return page("login", title: "Sign in", values: ["next": request.uri.description, "message": "Please sign in to continue."], identity: nil, status: .unauthorized)
        }
        return page("error", title: problem.title, values: ["status": Int(problem.status.code), "detail": problem.detail], identity: context.identity, status: problem.status)
    }

    static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }
}
