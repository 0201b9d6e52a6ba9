import Hummingbird
import Logging

/// Logs each request (method and path) at info, as Hummingbird's `LogRequestsMiddleware`
/// does — but with the values of secret query parameters replaced: a gateway may send its
/// token as `?token=` (PROTOCOL §2), and no token, password or CSRF value ever reaches a log.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.info(
            "Request",
            metadata: [
                "hb.request.method": .stringConvertible(request.method),
                "hb.request.path": .string(Self.redacted(request.uri.description)),
            ])
        return try await next(request, context)
    }

    /// The path and query, each secret parameter's value replaced by "redacted".
    static func redacted(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let path = target[..<mark]
        let query = target[target.index(after: mark)...]
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let lowered = name.lowercased()
            guard
                lowered.contains("token") || lowered.contains("password") || lowered.contains("csrf") || lowered.contains("secret")
                    || lowered == "key" || lowered.hasSuffix("_key")
            else { return String(pair) }
            return name + "=redacted"
        }
        return path + "?" + parts.joined(separator: "&")
    }
}
