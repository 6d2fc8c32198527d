import Foundation
import SignetTesting
import Synchronization
import Testing
@testable import SignetHTTP

/// A one-shot gate an async handler can wait on, opened from the test.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// Runs blocking work (a socket read, `HTTPServer.stop()`) on a thread of its own, so it never
/// holds one of the few cooperative threads the servers' async handlers need.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// A gate that opens when `count` handlers have entered.
final class Arrivals: Sendable {
    private let entered = Mutex(0)
    private let count: Int
    /// Opens when the `count`th arrival is recorded.
    let all = Gate()

    init(count: Int) { self.count = count }

    func arrive() {
        let reached = entered.withLock { value -> Bool in
            value += 1
            return value == count
        }
        if reached { all.open() }
    }

    var number: Int { entered.withLock { $0 } }
}

/// Every wait in this suite is on an event (a gate, a counter); the time limit bounds them all,
/// so a server that never answers fails the test instead of hanging the run.
@Suite(.endToEndLimit) struct HTTPServerAsyncTests {
    /// One MHD thread, 20 async handlers parked on a gate at once, and sync requests still
    /// served meanwhile: a parked handler holds no server thread. Ordered by events, not time:
    /// the gate opens only after all 20 have entered and the sync requests have been answered.
    @Test func parkedAsyncHandlersDoNotBlockOthers() async throws {
        let release = Gate()
        let arrivals = Arrivals(count: 20)
        let finished = Atomic(0)
        let router = testRouter()
        router.get("/parked", .async { _ in
            arrivals.arrive()
            await release.wait()
            finished.add(1, ordering: .sequentiallyConsistent)
            return .text("parked")
        })
        let server = try TestServer(router: router) { $0.threadCount = 1 }
        // Raw sockets: URLSession would queue all but 6 requests to one host.
        var connections: [RawConnection] = []
        for _ in 0..<20 {
            let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 30))
            connection.send("GET /parked HTTP/1.1\r\nHost: x\r\n\r\n")
            connections.append(connection)
        }
        defer { connections.forEach { $0.close() } }
        await arrivals.all.wait()
        #expect(arrivals.number == 20)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await server.fetch("/hello").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(finished.load(ordering: .sequentiallyConsistent) == 0, "every parked handler is still waiting")
        release.open()
        let all = connections
        let results = await offPool { all.map { $0.readResponse() } }
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0?.status == 200 && $0?.body == Array("parked".utf8) })
        #expect(finished.load(ordering: .sequentiallyConsistent) == 20)
    }

    /// A deferring route answers inline when it can and is suspended only when it must; both
    /// paths reach the client, and the suspended one holds no server thread.
    @Test func deferringRouteAnswersInlineOrSuspends() async throws {
        let inlineRuns = Atomic(0), suspendedRuns = Atomic(0)
        let router = testRouter()
        router.get("/maybe", .deferring(inline: { request in
            inlineRuns.add(1, ordering: .sequentiallyConsistent)
            return request.query.first("slow") == nil ? .text("inline") : nil
        }, suspended: { _ in
            suspendedRuns.add(1, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .milliseconds(50))
            return .text("suspended")
        }))
        let server = try TestServer(router: router) { $0.threadCount = 1 }
        let quick = try await server.fetch("/maybe")
        #expect(String(decoding: quick.body, as: UTF8.self) == "inline")
        let slow = try await server.fetch("/maybe?slow=1")
        #expect(String(decoding: slow.body, as: UTF8.self) == "suspended")
        #expect(inlineRuns.load(ordering: .sequentiallyConsistent) == 2)
        #expect(suspendedRuns.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func stopReturnsWhileAsyncHandlerIsStuck() async throws {
        let gate = Gate()
        let started = Gate()
        let finished = Gate()
        let router = testRouter()
        router.get("/stuck", .async { _ in
            started.open()
            await gate.wait()
            finished.open()
            return .text("late")
        })
        let server = try TestServer(router: router) { $0.shutdownGraceSeconds = 0.3 }
        let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 10))
        defer { connection.close() }
        connection.send("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n")
        await started.wait()
        server.server.stop()   // must return although the handler never finishes within the grace period
        #expect(server.server.boundPorts.isEmpty)
        #expect(connection.readResponse()?.status == 503)   // the straggler is answered, not leaked
        #expect(connection.waitForClose())

        gate.open()   // the handler finishing after shutdown must not touch the freed connection
        await finished.wait()
        // What runs after the handler returns (handing its response to a request that is gone)
        // signals nothing; a short pause gives it time to run and crash if it touched freed memory.
        try await Task.sleep(for: .milliseconds(50))
        #expect(!server.isHealthy())   // nothing listens any more
    }

    @Test func stopWaitsForInFlightHandlerWithinGrace() async throws {
        let held = try await HeldRequest.start()
        defer { held.connection.close() }
        let (gate, server) = (held.gate, held.server)
        let stopper = Task { await offPool { server.server.stop() } }
        // The handler is released only once stop() is under way, so stop() waited for it.
        #expect(await Polling.wait(seconds: 20) { server.server.isStopping }, "stop() never began")
        gate.open()
        await stopper.value
        #expect(!server.server.isStopping)
        try held.expectFinishedAndClosed()
    }

    /// The shutdown path of `signet serve` (await the termination signal, then `stop()`) driven
    /// by a manual signal: nothing is sent to the test process and no signal disposition changes.
    /// The in-flight request is finished within the grace period and told to close.
    @Test func aTerminationSignalStopsTheServerGracefully() async throws {
        let termination = TerminationSignal.manual()
        let held = try await HeldRequest.start()
        defer { held.connection.close() }
        let (gate, server) = (held.gate, held.server)
        let serving = Task { () -> Int32 in
            let number = await termination.wait()
            await offPool { server.server.stop() }
            return number
        }
        #expect(!server.server.isStopping)
        termination.deliver(SIGTERM)
        termination.deliver(SIGINT)   // only the first counts
        #expect(await Polling.wait(seconds: 20) { server.server.isStopping }, "the signal did not start stop()")
        gate.open()
        #expect(await serving.value == SIGTERM)
        #expect(server.server.boundPorts.isEmpty)
        try held.expectFinishedAndClosed()
        // A signal delivered before anyone waits is kept for the waiter.
        let early = TerminationSignal.manual()
        early.deliver(SIGINT)
        #expect(await early.wait() == SIGINT)
    }

    @Test func blockingWorkRunsOffThePoolAndRethrows() async throws {
        struct Boom: Error {}
        let onPool = try await BlockingWork.run { () -> Bool in
            usleep(20_000)
            return BlockingWork.isOnPoolThread
        }
        #expect(onPool)
        #expect(!BlockingWork.isOnPoolThread)
        await #expect(throws: Boom.self) { try await BlockingWork.run { () throws -> Int in throw Boom() } }
        // More jobs than threads all complete.
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<(BlockingWork.threadCount * 3) { group.addTask { try await BlockingWork.run { usleep(5_000); return index } } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<(BlockingWork.threadCount * 3)))
    }

    @Test func asyncHandlerUsingBlockingWork() async throws {
        let router = testRouter()
        router.post("/hash", .async { request in
            let digest = try? await BlockingWork.run { request.body.reduce(0) { $0 &+ Int($1) } }
            return .text("\(digest ?? -1)")
        })
        let server = try TestServer(router: router)
        let (status, _, body) = try await server.fetch("/hash", method: "POST", body: Data([1, 2, 3]))
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "6")
    }

}

/// A request to `/finishing` whose async handler has started and waits on `gate`, on a server
/// with a 30-second shutdown grace: what the graceful-stop tests hold while the server stops.
struct HeldRequest {
    let gate: Gate
    let server: TestServer
    let connection: RawConnection

    static func start() async throws -> HeldRequest {
        let gate = Gate()
        let started = Gate()
        let router = testRouter()
        router.get("/finishing", .async { _ in
            started.open()
            await gate.wait()
            return .text("done")
        })
        let server = try TestServer(router: router) { $0.shutdownGraceSeconds = 30 }
        let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 10))
        connection.send("GET /finishing HTTP/1.1\r\nHost: x\r\n\r\n")
        await started.wait()
        return HeldRequest(gate: gate, server: server, connection: connection)
    }

    /// The held request was answered in full, and told to close.
    func expectFinishedAndClosed() throws {
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(response.body == Array("done".utf8))
        #expect(response.header("Connection")?.lowercased() == "close")
    }
}
