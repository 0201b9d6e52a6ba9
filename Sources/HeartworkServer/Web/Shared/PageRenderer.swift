import Foundation
import HeartworkApp
import Hummingbird
import Mustache

/// Renders the embedded Mustache templates inside the site layout.
final class PageRenderer: Sendable {
    private let library: MustacheLibrary
    let secureCookies: Bool

    /// Parses every template once, at start; a broken one stops the start with its name.
    init(secureCookies: Bool = false) throws {
        var library = MustacheLibrary()
        for (name, bytes) in EmbeddedResources.templates {
            do {
                library.register(try MustacheTemplate(string: String(decoding: bytes, as: UTF8.self)), named: name)
            } catch {
                throw ResourceError(description: "the page template '\(name)' cannot be read: \(error)")
            }
        }
        self.library = library
        self.secureCookies = secureCookies
    }

    /// A full page. `values` are the template's own; the layout adds the title, the user
    /// menu, the CSRF token and a pending notice (which it then clears).
    func page(
        _ template: String, title: String, values: [String: Any], request: Request, identity: Identity?,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var context = values
        context["title"] = title
        context["pageTitle"] = title == "Heartwork" ? title : "\(title) · Heartwork"
        if let identity {
            context["signedIn"] = ["username": identity.user.username, "fullName": identity.user.fullName]
            context["csrf"] = identity.session.csrfToken.map(SessionToken.masked) ?? ""
        }
        let notice = request.cookies[Notice.cookieName].flatMap { Notice(rawValue: $0.value) }
        if let notice { context["notice"] = notice.message }
        let body = library.render(context, withTemplate: template) ?? "template \(template) is missing"
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        var response = Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        if request.cookies[Notice.cookieName] != nil { response.setCookie(Notice.clearing(secure: secureCookies)) }
        return response
    }

    /// An error as a page, inside the layout (signed in or not): the sign-in form for 401, a
    /// friendly page for 404, the message otherwise.
    func errorPage(_ problem: Problem, request: Request, identity: Identity?) -> Response {
        if problem.status == .unauthorized {
            return page("login", title: "Sign in", values: ["next": request.uri.description, "message": "Please sign in to continue."],
                        request: request, identity: nil, status: .unauthorized)
        }
        let notFound = problem.status == .notFound
        var response = page("error", title: notFound ? "Page not found" : problem.title, values: [
            "status": Int(problem.status.code), "message": problem.sentence, "detail": problem.detail, "notFound": notFound,
        ], request: request, identity: identity, status: problem.status)
        // Allow (405) and Retry-After (429) belong to the answer whatever its form.
        for field in problem.headers where field.name != .contentType { response.headers[field.name] = field.value }
        return response
    }

    /// 303 to `location`, with a notice for the next page.
    func redirect(to location: String, notice: Notice? = nil) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        var response = Response(status: .seeOther, headers: headers)
        if let notice { response.setCookie(notice.cookie(secure: secureCookies)) }
        return response
    }

    /// Template values for a form that failed: every error next to its field
    /// (`fieldErrors.NAME`) and a summary at the top that links to each field.
    static func formErrors(_ error: AppError) -> [String: Any] {
        let errors = (error.allFieldErrors.isEmpty ? [AppError.FieldError(field: "form", detail: error.sentence)] : error.allFieldErrors)
            .map { AppError.FieldError(field: $0.field, detail: AppError.sentence($0.detail)) }
        var byField = [String: String]()
        for error in errors where byField[error.field] == nil { byField[error.field] = error.detail }
        return [
            "hasErrors": true, "fieldErrors": byField,
            "errorSummary": errors.map { ["field": $0.field, "detail": $0.detail] },
        ]
    }
}
