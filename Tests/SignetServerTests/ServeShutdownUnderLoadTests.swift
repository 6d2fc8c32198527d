import Foundation
import Synchronization
import SignetServer
import SignetTesting
import Testing

/// `signet serve` told to stop (SIGTERM) while clients keep connecting and sending requests exits
/// with status 0, and never aborts.
///
/// libmicrohttpd 0.9.75's `MHD_quiesce_daemon` (how the server stops accepting) races its worker
/// threads when they run on epoll: both take the listen socket out of a worker's epoll set, and
/// the loser aborts the process ("Failed to remove listen FD from epoll set", daemon.c line
/// 5531; CI hit it once in a test's `stop()`). The window is a few instructions wide, so the
/// server runs here with a preloaded `epoll_ctl` (built from the source below with the
/// toolchain's clang) that makes every `EPOLL_CTL_DEL` of a thread other than libmicrohttpd's
/// workers wait 2 ms first: a worker then always wins, and on epoll the first round aborts
/// (measured). Signet's pool runs on `poll`, which has no such race.
@Suite(.endToEndLimit) struct ServeShutdownUnderLoadTests {
    static let slowDeleteSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <pthread.h>
        #include <string.h>
        #include <sys/epoll.h>
        #include <unistd.h>
        int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event) {
            static int (*real)(int, int, int, struct epoll_event *);
            if (!real) real = (int (*)(int, int, int, struct epoll_event *))dlsym(RTLD_NEXT, "epoll_ctl");
            char name[16] = "";
            pthread_getname_np(pthread_self(), name, sizeof name);
            if (op == EPOLL_CTL_DEL && strcmp(name, "MHD-worker") != 0) usleep(2000);
            return real(epfd, op, fd, event);
        }
        """

    @Test func sigtermWhileClientsConnectAndSendExitsCleanly() async throws {
        let directory = try TemporaryDirectory(prefix: "slowdel")
        defer { directory.remove() }
        let source = try directory.write(Self.slowDeleteSource, to: "slowdel.c")
        let library = directory.appending("slowdel.so")
        let built = try await Subprocess.run("clang", ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"])
        try #require(built.succeeded, "\(built)")
        let configuration = try directory.write(#"{"http": {"threads": 2}}"#, to: "signet.json")

        for round in 0..<3 {
            let server = try await TestServer.launchBinary(arguments: ["--config", configuration], environment: ["LD_PRELOAD": library])
            let load = ClientLoad(port: server.port)
            load.start(clients: 4)
            #expect(await Polling.wait(seconds: 20) { load.answered >= 200 }, "round \(round): the load never got going")
            let (result, forced) = await server.stop(signal: SIGTERM)
            load.finish()
            #expect(!forced, "round \(round): signet serve did not end on SIGTERM")
            #expect(result.succeeded && !result.wasSignaled, "round \(round): \(result)")
            #expect(!result.stderr.contains("Fatal error"), "round \(round): \(result.stderr)")
        }
    }
}

/// Threads that each open a connection, send three `GET /healthz` on it, close it and start over,
/// until `finish()`: new connections and requests both keep the server's pool turning.
private final class ClientLoad: Sendable {
    let port: Int
    private let running = Atomic(true)
    private let count = Atomic(0)
    private let started = Atomic(0)
    private let ended = Atomic(0)

    init(port: Int) { self.port = port }

    var answered: Int { count.load(ordering: .relaxed) }

    func start(clients: Int) {
        for _ in 0..<clients {
            let thread = Thread { [self] in
                while running.load(ordering: .relaxed) {
                    guard let connection = try? RawHTTPConnection(port: port, timeoutSeconds: 5) else { usleep(1_000); continue }
                    for _ in 0..<3 {
                        guard connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"),
                              connection.readResponse().response != nil else { break }
                        count.add(1, ordering: .relaxed)
                    }
                }
                ended.add(1, ordering: .relaxed)
            }
            started.add(1, ordering: .relaxed)
            thread.start()
        }
    }

    /// Tells the threads to end and waits (up to 10 s) until they have.
    func finish() {
        running.store(false, ordering: .relaxed)
        let clients = started.load(ordering: .relaxed)
        let deadline = Date().addingTimeInterval(10)
        while ended.load(ordering: .relaxed) < clients, Date() < deadline { usleep(1_000) }
    }
}
