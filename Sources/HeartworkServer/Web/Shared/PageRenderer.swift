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

    /// A full page. `model` holds the template's own values (a page-model struct, see
    /// `PageContext`); the layout adds the title, the user menu, the CSRF token, a pending
    /// notice (which it then clears) and, for a form that failed, `errors`.
    func page(
        _ template: String, title: String, model: some Sendable, errors: FormErrors? = nil, request: Request, identity: Identity?,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let notice = request.cookies[Notice.cookieName].flatMap { Notice(rawValue: $0.value) }
        let context = PageContext(
            title: title, pageTitle: title == "Heartwork" ? title : "\(title) · Heartwork",
            signedIn: identity.map { SignedInUser(username: $0.user.username, fullName: $0.user.fullName) },
            csrf: identity.map { $0.session.csrfToken.map(SessionToken.masked) ?? "" },
            notice: notice?.message, errors: errors, model: model)
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
            return page(
                "login", title: "Sign in", model: LoginPage(next: request.uri.description, message: "Please sign in to continue."),
                request: request, identity: nil, status: .unauthorized)
        }
        let notFound = problem.status == .notFound
        var response = page(
            "error", title: notFound ? "Page not found" : problem.title,
            model: ErrorPage(
                status: Int(problem.status.code), message: problem.sentence, detail: problem.detail, notFound: notFound,
            ), request: request, identity: identity, status: problem.status)
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

    /// A form that failed, for the page: every error next to its field (`fieldErrors.NAME`)
    /// and a summary at the top that links to each field.
    static func formErrors(_ error: AppError) -> FormErrors {
        let errors = (error.allFieldErrors.isEmpty ? [AppError.FieldError(field: "form", detail: error.sentence)] : error.allFieldErrors)
            .map { AppError.FieldError(field: $0.field, detail: AppError.sentence($0.detail)) }
        var byField = [String: String]()
        for error in errors where byField[error.field] == nil { byField[error.field] = error.detail }
        return FormErrors(hasErrors: true, fieldErrors: byField, errorSummary: errors.map { .init(field: $0.field, detail: $0.detail) })
    }
}
