import Mustache

// Page models: every page's template values are a plain struct whose stored properties are
// named exactly like the template's keys. swift-mustache (2.1) reads a struct through
// `Mirror` by child label, and what these models rely on is:
//
// - An Optional property that is nil is a missing key: a section `{{#key}}` is not rendered,
//   an inverted one `{{^key}}` is, and a lookup goes on up the context stack, as it did for a
//   key a dictionary did not hold. A non-nil Optional is its value. So a key that a page only
//   sometimes had is an Optional here (never a double Optional: only one level is unwrapped).
// - `false` does not render a section and renders the inverted one; `true` renders it once.
// - An empty array renders no section and renders the inverted one; an array renders the
//   section once per element, the element on top of the stack.
// - A String (even "") and a number are values: a section over them renders once; a
//   variable prints them with `String(describing:)` (Int "42", Double "42.0").
// - A nested struct (or `[String: String]`, which is a `MustacheParent`) in a section is
//   pushed on the stack, so `{{key}}` and `{{a.b}}` reach into it.
// So each property keeps the Swift type the dictionary held (Int stays Int, Bool stays Bool,
// String stays String): the rendering is the same.

/// The layout's keys around a page's model: `title`, `pageTitle`, `signedIn` and `csrf` (when
/// signed in), `notice` (when one is pending) and, for a form that failed, `hasErrors`,
/// `fieldErrors` and `errorSummary`. Any other key is the model's. The layout's keys win over
/// the model's, as they did when the layout wrote them into the page's dictionary; one that
/// is absent (nobody signed in, no notice, no errors) is looked up in the model.
struct PageContext<Model: Sendable>: MustacheParent, Sendable {
    let title: String
    let pageTitle: String
    let signedIn: SignedInUser?
    let csrf: String?
    let notice: String?
    let errors: FormErrors?
    let model: Model

    func child(named name: String) -> Any? {
        switch name {
        case "title": return title
        case "pageTitle": return pageTitle
        case "signedIn": if let signedIn { return signedIn }
        case "csrf": if let csrf { return csrf }
        case "notice": if let notice { return notice }
        case "hasErrors": if let errors { return errors.hasErrors }
        case "fieldErrors": if let errors { return errors.fieldErrors }
        case "errorSummary": if let errors { return errors.errorSummary }
        default: break
        }
        return PageModel.child(named: name, of: model)
    }
}

/// The user menu's values.
struct SignedInUser: Sendable {
    let username: String
    let fullName: String
}

/// A form that failed: `hasErrors`, each field's error by the field's name
/// (`fieldErrors.NAME`: a dictionary, as the names are the form's) and the summary.
struct FormErrors: Sendable {
    struct Entry: Sendable {
        let field: String
        let detail: String
    }

    let hasErrors: Bool
    let fieldErrors: [String: String]
    let errorSummary: [Entry]
}

/// A page with no values of its own.
struct EmptyPage: Sendable {}

/// The sign-in page (also the answer to a 401).
struct LoginPage: Sendable {
    var next: String
    var message: String?
    var error: String?
    var username: String?
}

/// An error page.
struct ErrorPage: Sendable {
    let status: Int
    let message: String
    let detail: String
    let notFound: Bool
}

/// A page model that adds keys to another one (`base`): a key it lacks, or holds nil, is
/// the base's, as when a page's dictionary was the base's with more keys merged in.
protocol ExtendingPageModel: MustacheParent, Sendable {
    associatedtype Base: Sendable
    var base: Base { get }
}

extension ExtendingPageModel {
    func child(named name: String) -> Any? {
        if name != "base", let own = PageModel.property(named: name, of: self) { return own }
        return PageModel.child(named: name, of: base)
    }
}

/// How the page context reads a model: by `child(named:)` when it has one, else through
/// `Mirror`, as swift-mustache itself does.
enum PageModel {
    static func child(named name: String, of model: Any) -> Any? {
        if let parent = model as? MustacheParent { return parent.child(named: name) }
        return property(named: name, of: model)
    }

    /// The stored property called `name`: nil when there is none or it is a nil Optional.
    static func property(named name: String, of model: Any) -> Any? {
        guard let value = Mirror(reflecting: model).children.first(where: { $0.label == name })?.value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
