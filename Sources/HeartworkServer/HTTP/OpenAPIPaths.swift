/// Route paths in OpenAPI's spelling: Hummingbird's `:name` becomes `{name}`.
enum OpenAPIPaths {
    static func template(for path: String) -> String {
        let components = path.split(separator: "/").map { component -> String in
            component.hasPrefix(":") ? "{\(component.dropFirst())}" : String(component)
        }
        return "/" + components.joined(separator: "/")
    }
}
