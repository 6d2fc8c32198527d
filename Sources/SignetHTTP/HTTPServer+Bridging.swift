import CMicroHTTPD
import CSignetShims
import Foundation

// libmicrohttpd callbacks. They are global `let` constants of the imported `@convention(c)` types
// (C function pointers cannot capture); the daemon's `DaemonContext` arrives unretained through
// `cls`, and each request's `RequestState` through `con_cls` (retained in `mhdURILog`, released in
// `mhdRequestCompleted`).

/// Called once per request when the request line is parsed: allocates the request state and keeps
/// the raw request target (MHD later splits and unescapes its own copy).
let mhdURILog: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, uri, connection in
    let state = RequestState(rawURI: uri.map { String(cString: $0) } ?? "/", connection: connectionState(connection))
    return Unmanaged.passRetained(state).toOpaque()
}

/// Releases the request state when MHD is done with the request (sent, failed or closed).
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
    guard let conCls, let raw = conCls.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    guard let cls else { return }
    let core = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().core
    core.watchdog.responseFinished(state.connection)
    if state.isAsync { core.asyncOutstanding.subtract(1, ordering: .sequentiallyConsistent) }
    conCls.pointee = nil
}

/// The access handler. MHD calls it: once after the headers (return YES to get the body), once per
/// body chunk (consume it by setting `*upload_data_size = 0`), once more with size 0 when the body is
/// complete, and once again after `MHD_resume_connection` for a suspended request.
let mhdAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let method, let uploadDataSize, let conCls else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    let state: RequestState
    if let raw = conCls.pointee {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {   // no URI-log call happened (should not occur); fall back to MHD's decoded URL
        state = RequestState(rawURI: url.map { String(cString: $0) } ?? "/", connection: connectionState(connection))
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
    }
    return context.core.handle(state, connection: connection, method: method, version: version, uploadData: uploadData,
                               uploadDataSize: uploadDataSize, isSecure: context.isSecure)
}

/// Tracks connections for the whole-request deadline (see `ConnectionWatchdog`).
let mhdNotifyConnection: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let watchdog = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().core.watchdog
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let state = watchdog.opened(fd: signet_mhd_connection_fd(connection), peer: peerAddress(connection))
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        socketContext.pointee = nil
        watchdog.closed(state)
    @unknown default:
        return
    }
}

/// The `ConnectionState` MHD holds for `connection`, if any.
private func connectionState(_ connection: OpaquePointer?) -> ConnectionState? {
    guard let connection, let raw = signet_mhd_socket_context(connection) else { return nil }
    return Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
}

/// Appends one header from `MHD_get_connection_values_n` to the `HTTPHeaders` behind `cls`.
private let mhdCollectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    headers.pointee.add(name, text)
    return .YES
}

extension ServerCore {
    /// One step of the access-handler protocol for `state`.
    func handle(_ state: RequestState, connection: OpaquePointer, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
                uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>, isSecure: Bool) -> MHD_Result {
        let chunk = uploadDataSize.pointee
        switch state.phase {
        case .new:
            if accessLog != nil { state.startNanos = DispatchTime.now().uptimeNanoseconds }
            state.headers = collectHeaders(connection)
            state.peerAddress = connectionState(connection)?.peer ?? peerAddress(connection)
            state.clientAddress = state.peerAddress
            state.requestID = RequestContext.requestID(peer: state.peerAddress, headers: state.headers,
                                                       trustedProxies: trustedProxies)
            state.phase = .receiving
            // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host.
            if !state.headers.contains("Host"), let version, strcmp(version, "HTTP/1.1") == 0 {
                state.phase = .done
                return queue(.text("Bad Request: missing Host\n", status: 400), on: connection, state: state)
            }
            // RFC 9110 §15.5.14: refuse an oversized body before reading it.
            if let declared = state.headers["Content-Length"], let length = Int(declared), length > maxBodyBytes {
                state.phase = .done
                return queue(.text("Request body too large\n", status: 413), on: connection, state: state)
            }
            return .YES
        case .receiving:
            if chunk > 0 {
                guard state.body.count + chunk <= maxBodyBytes else {
                    state.phase = .tooLarge
                    state.discarded = chunk
                    uploadDataSize.pointee = 0
                    return .YES
                }
                if let uploadData { state.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: chunk)) }
                uploadDataSize.pointee = 0
                return .YES
            }
            return dispatch(state, connection: connection, method: method, isSecure: isSecure)
        case .tooLarge:
            // MHD only lets a response be queued once the upload is complete; discard the rest of
            // the body up to one more limit's worth, then give up on the connection.
            if chunk > 0 {
                state.discarded += chunk
                uploadDataSize.pointee = 0
                return state.discarded > maxBodyBytes ? .NO : .YES
            }
            state.phase = .done
            return queue(.text("Request body too large\n", status: 413), on: connection, state: state)
        case .suspended:
            guard let pending = state.pending.withLock({ $0.take() }) else { return .NO }
            if pending.abandoned { abandonedAwaitingPickup.subtract(1, ordering: .sequentiallyConsistent) }
            state.phase = .done
            return queue(pending.response, on: connection, state: state)
        case .done:
            return .NO
        }
    }

    /// Builds the request, routes it, and queues the response (sync) or suspends (async).
    private func dispatch(_ state: RequestState, connection: OpaquePointer, method: UnsafePointer<CChar>,
                          isSecure: Bool) -> MHD_Result {
        watchdog.requestReceived(state.connection)
        let methodText = String(cString: method)
        state.logMethod = HTTPMethod(rawValue: methodText)
        let peer = state.peerAddress
        let client = trustedProxies.client(peer: peer, headers: state.headers)
        guard var request = HTTPRequest(wireMethod: methodText, requestTarget: state.rawURI, headers: state.headers,
                                        body: state.body, peerAddress: peer, isSecure: client.isSecure ?? isSecure,
                                        clientAddress: client.address) else {
            state.logPath = "<invalid>"
            state.phase = .done
            return queue(.text("Bad Request\n", status: 400), on: connection, state: state)
        }
        state.logPath = request.path
        state.clientAddress = client.address
        state.body = []
        let context = RequestContext(requestID: state.requestID, clientAddress: client.address, userAgent: state.headers["User-Agent"])
        // Every line logged and audit event recorded by the handler sees the request's context; a
        // `Task` started inside inherits it.
        return RequestContext.$current.withValue(context) {
            route(&request, state: state, connection: connection)
        }
    }

    private func route(_ request: inout HTTPRequest, state: RequestState, connection: OpaquePointer) -> MHD_Result {
        switch routes.resolve(&request) {
        case .response(let response):
            state.phase = .done
            return queue(response, on: connection, state: state)
        case .handler(.sync(let handler)):
            state.phase = .done
            return queue(handler(request), on: connection, state: state)
        case .handler(.deferring(let inline, let suspended)):
            if let response = inline(request) {
                state.phase = .done
                return queue(response, on: connection, state: state)
            }
            return suspend(state, connection: connection, request: request, handler: suspended)
        case .handler(.async(let handler)):
            return suspend(state, connection: connection, request: request, handler: handler)
        }
    }

    /// Suspends the connection and runs `handler` in a `Task`; the connection resumes with its response.
    private func suspend(_ state: RequestState, connection: OpaquePointer, request: HTTPRequest,
                         handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) -> MHD_Result {
        if isDraining {
            state.phase = .done
            return queue(.text("Service Unavailable\n", status: 503), on: connection, state: state)
        }
        let handle = ConnectionHandle(raw: connection)
        state.phase = .suspended
        // Suspend before registering, so a stop() that finds the entry can always resume it.
        MHD_suspend_connection(connection)
        guard beginAsync(state, connection: handle) else {
            MHD_resume_connection(connection)
            state.pending.withLock { $0 = RequestState.Pending(response: .text("Service Unavailable\n", status: 503), abandoned: false) }
            return .YES
        }
        Task {
            let response = await handler(request)
            self.finishAsync(state, response: response)
        }
        return .YES
    }

    /// Queues `response`: copies the body, adds headers (a `Content-Type` when there is a body),
    /// and logs. A header MHD refuses (e.g. one containing CR or LF) turns the response into a 500.
    func queue(_ response: HTTPResponse, on connection: OpaquePointer, state: RequestState) -> MHD_Result {
        let mhdResponse = response.body.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }   // reference-counted: safe right after queueing
        var status = response.status
        var hasContentType = false
        for (name, value) in response.headers {
            if HTTPHeaders.equalsIgnoringCase(name, "Content-Length") { continue }   // MHD computes it
            if HTTPHeaders.equalsIgnoringCase(name, "Content-Type") { hasContentType = true }
            if addHeader(mhdResponse, name, value) != .YES {
                return queue(.text("Internal Server Error\n", status: 500), on: connection, state: state)
            }
        }
        if !hasContentType, !response.body.isEmpty {
            _ = addHeader(mhdResponse, "Content-Type", "application/octet-stream")
        }
        if !state.requestID.isEmpty { _ = addHeader(mhdResponse, "X-Request-Id", state.requestID) }
        if isDraining { _ = addHeader(mhdResponse, "Connection", "close") }
        if !(100...999).contains(status) { status = 500 }
        let result = MHD_queue_response(connection, UInt32(status), mhdResponse)
        if let accessLog {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- state.startNanos) / 1e9
            accessLog(AccessLogEntry(method: state.logMethod, path: state.logPath.isEmpty ? "<unparsed>" : state.logPath,
                                     status: status, durationSeconds: elapsed, requestID: state.requestID,
                                     clientAddress: state.clientAddress))
        }
        return result
    }

    /// Adds one header to `response` (MHD copies both strings). `withCString` lends a native
    /// string's own bytes; passing a `String` where C wants a pointer would make a `utf8CString`
    /// array of each, two allocations per header of every response (bench/README.md, "Session 19
    /// (allocations)").
    private func addHeader(_ response: OpaquePointer, _ name: String, _ value: String) -> MHD_Result {
        name.withCString { name in value.withCString { value in MHD_add_response_header(response, name, value) } }
    }

    /// All request headers, in order.
    private func collectHeaders(_ connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders(capacity: 8)
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, mhdCollectHeader, UnsafeMutableRawPointer(pointer))
        }
        return headers
    }
}

/// The IP literal of `connection`'s client.
private func peerAddress(_ connection: OpaquePointer) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        guard let base = buffer.baseAddress else { return "" }
        let length = signet_mhd_client_ip(connection, base, 64)
        return String(decoding: UnsafeRawBufferPointer(start: base, count: length), as: UTF8.self)
    }
}
