import Foundation
import HeartworkApp
import Hummingbird
import Mustache

/// Renders the embedded Mustache templates inside the site layout.
final class PageRenderer: Sendable {
    private let library: MustacheLibrary

    /// Parses every template once, at start; a broken one stops the start with its name.
    init() throws {
        var library = MustacheLibrary()
        for (name, bytes) in EmbeddedResources.templates {
            do {
                library.register(try MustacheTemplate(string: String(decoding: bytes, as: UTF8.self)), named: name)
            } catch {
                throw ResourceError(description: "the page template '\(name)' cannot be read: \(error)")
            }
        }
        self.library = library
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
    func errorPage(_ problem: Problem, request: Request, identity: Identity?) -> Response {
        if problem.status == .unauthorized {
            return page("login", title: "Sign in", values: ["next": request.uri.description, "message": "Please sign in to continue."], identity: nil, status: .unauthorized)
        }
        return page("error", title: problem.title, values: ["status": Int(problem.status.code), "detail": problem.detail], identity: identity, status: problem.status)
    }

    static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }
}
