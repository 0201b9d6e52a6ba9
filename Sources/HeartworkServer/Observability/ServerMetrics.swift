import Foundation
import Hummingbird
import Prometheus
import Synchronization

/// The server's own Prometheus registry, exported at /metrics. Requests are counted by
/// route pattern (never by concrete path, so ids do not leak into labels) and status.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let workoutsUploaded: Counter
    public let loginFailures: Counter
    /// Collectors per (method, route, status), so a request costs one dictionary lookup.
    private let requestCollectors = Mutex<[String: (count: Counter, duration: DurationHistogram)]>([:])

    public init() {
        workoutsUploaded = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "heartwork", metricName: "workouts_uploaded", unitName: "total", helpText: "Workouts stored"))
        loginFailures = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "heartwork", metricName: "login_failures", unitName: "total", helpText: "Failed sign-in attempts"))
    }

    func recordRequest(method: String, route: String, status: Int, nanoseconds: Int64) {
        let key = "\(method) \(status) \(route)"
        let collectors = requestCollectors.withLock { cache in
            if let found = cache[key] { return found }
            let made = (
                count: registry.makeCounter(
                    descriptor: MetricNameDescriptor(
                        namespace: "heartwork", metricName: "http_requests", unitName: "total", helpText: "HTTP requests handled"),
                    labels: [("method", method), ("route", route), ("status", String(status))]),
                duration: registry.makeDurationHistogram(
                    descriptor: MetricNameDescriptor(namespace: "heartwork", metricName: "http_request_duration", unitName: "seconds", helpText: "Time to answer"),
                    labels: [("method", method), ("route", route)],
                    buckets: [
                        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
                    ])
            )
            cache[key] = made
            return made
        }
        collectors.count.increment()
        collectors.duration.recordNanoseconds(nanoseconds)
    }
}
