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

@Suite(.endToEndLimit) struct HTTPServerAsyncTests {
    @Test func slowAsyncHandlerDoesNotBlockOthers() async throws {
        let slowStarted = Atomic(false)
        let slowFinished = Atomic(false)
        let router = testRouter()
        router.get("/slow", .async { _ in
            slowStarted.store(true, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .seconds(2))
            slowFinished.store(true, ordering: .sequentiallyConsistent)
            return .text("slow")
        })
        // One MHD thread: if the slow handler blocked it, nothing else could be served.
        let server = try TestServer(router: router) { $0.threadCount = 1 }
        let slow = Task { try await server.fetch("/slow") }
        while !slowStarted.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        var completedWhileSlowPending = 0
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await server.fetch("/hello").status } }
            for try await status in group where status == 200 {
                if !slowFinished.load(ordering: .sequentiallyConsistent) { completedWhileSlowPending += 1 }
            }
        }
        #expect(completedWhileSlowPending == 20)
        let slowResult = try await slow.value
        #expect(slowResult.status == 200)
        #expect(String(decoding: slowResult.body, as: UTF8.self) == "slow")
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
        let started = Atomic(false)
        let router = testRouter()
        router.get("/stuck", .async { _ in
            started.store(true, ordering: .sequentiallyConsistent)
            await gate.wait()
            return .text("late")
        })
        let server = try TestServer(router: router) { $0.shutdownGraceSeconds = 0.3 }
        let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 10))
        defer { connection.close() }
        connection.send("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n")
        while !started.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        server.server.stop()   // must return although the handler never finishes within the grace period
        #expect(server.server.boundPorts.isEmpty)
        #expect(connection.readResponse()?.status == 503)   // the straggler is answered, not leaked
        #expect(connection.waitForClose())

        gate.open()   // the handler finishing after shutdown must not touch the freed connection
        try await Task.sleep(for: .milliseconds(50))
        #expect(!server.isHealthy())   // nothing listens any more
    }

    @Test func stopWaitsForInFlightHandlerWithinGrace() async throws {
        let gate = Gate()
        let started = Atomic(false)
        let router = testRouter()
        router.get("/finishing", .async { _ in
            started.store(true, ordering: .sequentiallyConsistent)
            await gate.wait()
            return .text("done")
        })
        let server = try TestServer(router: router) { $0.shutdownGraceSeconds = 10 }
        let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 10))
        defer { connection.close() }
        connection.send("GET /finishing HTTP/1.1\r\nHost: x\r\n\r\n")
        while !started.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        let stopper = Task.detached { server.server.stop() }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        await stopper.value
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(response.body == Array("done".utf8))
        #expect(response.header("Connection")?.lowercased() == "close")
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

    @Test func terminationSignalIsDelivered() async throws {
        let waiter = Task { await HTTPServer.waitForTerminationSignal() }
        try await Task.sleep(for: .milliseconds(100))   // let the sources arm
        kill(getpid(), SIGTERM)
        let received = await waiter.value
        #expect(received == SIGTERM)
    }
}
