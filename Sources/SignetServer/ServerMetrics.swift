import Foundation
import SignetCore
import Synchronization
import SignetHTTP
import SignetMetrics
import SignetSQL
import SignetStore

/// The server's metrics, served by the admin listener at `/metrics` (Prometheus text format).
///
/// Every label comes from a closed set, never from a request's text: the route is the route
/// table's pattern (`/oauth2/callback/{connection}`, never the raw path; `unmatched` for a path no
/// route serves), the method one of `HTTPMethod`, the status a number, the grant type one the
/// token endpoint registers (else `other`), the sign-in method and result from a fixed table of
/// audit events. So no code, token, email or client-chosen string can reach a label, and each
/// family stays small (the registry also caps every family at `seriesLimit` series).
public final class ServerMetrics: Sendable {
    /// The families, in exposition order.
    public let registry = MetricsRegistry(seriesLimit: 500)
    let requests: CounterFamily
    let requestDuration: HistogramFamily
    let throttled: CounterFamily
    let signIns: CounterFamily
    let tokenRequests: CounterFamily
    let refreshRotations: CounterFamily
    let refreshReuse: CounterFamily
    let serverErrors: CounterFamily
    private let serverErrorTotal = Atomic<UInt64>(0)
    let storeDuration: HistogramFamily
    let storeErrors: CounterFamily
    let upstreamDuration: HistogramFamily
    let upstreamErrors: CounterFamily
    let auditLost: CounterFamily

    /// The route label of a request that matched no route.
    static let unmatchedRoute = "unmatched"

    init() {
        requests = registry.counter("signet_http_requests_total", help: "HTTP requests by listener, route pattern, method and status.",
                                    labels: ["listener", "route", "method", "status"])
        requestDuration = registry.histogram("signet_http_request_duration_seconds",
                                             help: "Time from the request's headers to its response, by listener and route pattern.",
                                             labels: ["listener", "route"])
        throttled = registry.counter("signet_throttled_requests_total", help: "Requests refused with 429 by a rate limit, by route pattern.",
                                     labels: ["route"])
        signIns = registry.counter("signet_sign_ins_total", help: "Sign-ins by method (password, federated, native) and result.",
                                   labels: ["method", "result"])
        tokenRequests = registry.counter("signet_token_requests_total", help: "Token endpoint requests by grant type and result (success or the error code).",
                                         labels: ["grant_type", "result"])
        refreshRotations = registry.counter("signet_refresh_rotations_total", help: "Refresh tokens rotated (successful refresh_token grants).")
        refreshReuse = registry.counter("signet_refresh_reuse_detections_total",
                                        help: "Reuse of a rotated refresh token detected (its whole family revoked).")
        serverErrors = registry.counter("signet_server_errors_total", help: "Responses with status 500 or more, by route pattern (store failures among them).",
                                        labels: ["route"])
        storeDuration = registry.histogram("signet_store_operation_duration_seconds",
                                           help: "Time of each store statement, by operation (its verb and table, such as select:users).",
                                           labels: ["operation"])
        storeErrors = registry.counter("signet_store_errors_total", help: "Store statements that failed, by operation.", labels: ["operation"])
        upstreamDuration = registry.histogram("signet_upstream_step_duration_seconds",
                                              help: "Time of each step with an upstream provider (authorize, callback, revoke), by connection.",
                                              labels: ["connection", "step"])
        upstreamErrors = registry.counter("signet_upstream_errors_total", help: "Upstream provider steps that failed, by connection and step.",
                                          labels: ["connection", "step"])
        auditLost = registry.counter("signet_audit_events_lost_total", help: "Audit events that could not be recorded (the store refused or was unreachable).")
        // Unlabelled counters exist from the start, so a scrape sees 0 before the first event.
        _ = auditLost.labels()
        _ = refreshRotations.labels()
        _ = refreshReuse.labels()
    }

    /// Adds the scrape-time gauges that read the store and the key ring, and times the store's
    /// statements (a SQL store: `SQLTimings`; the operation names are a closed set of its templates).
    func addGauges(environment: ServerEnvironment) {
        let storage = environment.storage, keyRing = environment.keyRing, clock = environment.clock
        if let sql = storage as? any SQLStorage {
            let duration = storeDuration, errors = storeErrors
            sql.stores.timings.observe { operation in
                let series = duration.labels(operation)
                return { seconds, failed in
                    series.observe(seconds)
                    if failed { errors.labels(operation).increment() }
                }
            }
        }
        registry.gauge("signet_mail_outbox_pending", help: "Messages waiting in the mail outbox (-1 when the store cannot be read).") {
            (try? storage.mailOutbox.pendingCount()).map(Double.init) ?? -1
        }
        registry.gauge("signet_signing_key_age_seconds", help: "Age of the newest signing key that signs now, by algorithm.",
                       labels: ["algorithm"]) {
            let now = clock.now
            guard let records = try? keyRing.records() else { return [] }
            var newest: [String: Date] = [:]
            for record in records where record.canSign(at: now) {
                if let seen = newest[record.algorithm], seen >= record.activatesAt { continue }
                newest[record.algorithm] = record.activatesAt
            }
            return newest.map { ([$0.key], now.timeIntervalSince($0.value)) }
        }
    }

    /// Times every provider step of `federation` by connection (the configured ids, a closed set)
    /// and step (`UpstreamProvider.StepObserver`'s fixed names).
    func observeUpstreams(_ federation: Federation) {
        let duration = upstreamDuration, errors = upstreamErrors
        for (id, provider) in federation.providers {
            provider.observeSteps { step, seconds, failed in
                duration.labels(id, step).observe(seconds)
                if failed { errors.labels(id, step).increment() }
            }
        }
    }

    /// Logs and counts every audit event the process could not record (`Auditor.failures`): the
    /// event's name and the store's error, never its detail. One server per process (`signet serve`).
    func reportLostAuditEvents() {
        let lost = auditLost.labels()
        Auditor.failures.report { event, error in
            lost.increment()
            Log.error("audit: the event \(event) could not be recorded: \(error)")
        }
    }

    /// `handler` with its requests counted and timed under `route` on `listener`.
    func instrument(_ handler: HTTPHandler, route: String, listener: String) -> HTTPHandler {
        // The route's duration series, found once here rather than at every request.
        let duration = requestDuration.labels(listener, route)
        switch handler {
        case .sync(let body):
            return .sync { request in
                let started = DispatchTime.now()
                let response = body(request)
                self.observe(request, response, route: route, listener: listener, duration: duration, since: started)
                return response
            }
        case .async(let body):
            return .async { request in
                let started = DispatchTime.now()
                let response = await body(request)
                self.observe(request, response, route: route, listener: listener, duration: duration, since: started)
                return response
            }
        case .deferring(let inline, let suspended):
            return .deferring(inline: { request in
                let started = DispatchTime.now()
                guard let response = inline(request) else { return nil }
                self.observe(request, response, route: route, listener: listener, duration: duration, since: started)
                return response
            }, suspended: { request in
                let started = DispatchTime.now()
                let response = await suspended(request)
                self.observe(request, response, route: route, listener: listener, duration: duration, since: started)
                return response
            })
        }
    }

    /// Counts one answered request (`duration`: the series of `listener` and `route`, when the
    /// caller has it already).
    func observe(_ request: HTTPRequest, _ response: HTTPResponse, route: String, listener: String,
                 duration: Histogram? = nil, since started: DispatchTime) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- started.uptimeNanoseconds) / 1e9
        requests.labels(listener, route, request.method.rawValue, String(response.status)).increment()
        (duration ?? requestDuration.labels(listener, route)).observe(seconds)
        if response.status == 429 { throttled.labels(route).increment() }
        if response.status >= 500 {
            serverErrors.labels(route).increment()
            serverErrorTotal.add(1, ordering: .relaxed)
        }
    }

    /// Responses with status 500 or more since the process started, on every route (the console's dashboard).
    var serverErrorCount: UInt64 { serverErrorTotal.load(ordering: .relaxed) }

    /// Counts one token endpoint answer: `grantType` must be a registered grant type (else `other`).
    func token(grantType: String?, knownGrantTypes: Set<String>, result: String) {
        let grant = grantType.flatMap { knownGrantTypes.contains($0) ? $0 : nil } ?? "other"
        tokenRequests.labels(grant, result).increment()
        if grant == "refresh_token", result == "success" { refreshRotations.labels().increment() }
    }

    /// The sign-in method and result an audit event stands for; nil for other events.
    static let signInEvents: [String: (method: String, result: String)] = [
        "sign_in": ("password", "success"),
        "sign_in_failed": ("password", "failure"),
        "sign_in_throttled": ("password", "throttled"),
        "federated_sign_in": ("federated", "success"),
        "federation_failed": ("federated", "failure"),
        "native_sign_in": ("native", "success"),
    ]

    /// Told every audit event's name (`Auditor.observer`).
    func auditEvent(_ name: String) {
        if let signIn = Self.signInEvents[name] { signIns.labels(signIn.method, signIn.result).increment() }
        if name == "refresh_token_reuse" { refreshReuse.labels().increment() }
    }

    /// The `/metrics` response.
    func response() -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: Array(registry.exposition().utf8))
        response.headers.set("Content-Type", MetricsRegistry.contentType)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
