import Dispatch
import Hummingbird

/// Counts and times every request by route pattern and status (see `ServerMetrics`).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let response = try await next(request, context)
            record(request, context, status: Int(response.status.code), start: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: Int(status), start: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, start: UInt64) {
        let route = context.endpointPath ?? "unmatched"
        metrics.recordRequest(
            method: request.method.rawValue, route: route, status: status,
            nanoseconds: Int64(DispatchTime.now().uptimeNanoseconds - start))
    }
}
