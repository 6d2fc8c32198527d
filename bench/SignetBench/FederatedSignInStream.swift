import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Federated sign-ins kept in flight in the background while something else is measured:
/// `browsers` threads, each running one complete federated sign-in after another (a new browser
/// each time: `OAuthClient.federatedSignIn`, then `POST /token` with Signet's code, which must
/// return an ID token), until `stop()`. Thread starts are spread over `stagger` seconds (the
/// upstream's delay), so the sign-ins finish in a steady stream rather than in bursts.
///
/// A sign-in that fails does not load the server as intended: failures are counted and their
/// first messages kept, and the caller must treat any as an invalid measurement.
final class FederatedSignInStream: Sendable {
    let settings: LoadSettings
    let connectionID: String
    let browsers: Int
    let stagger: Double

    /// One finished sign-in.
    struct Completion: Sendable {
        /// Monotonic nanoseconds when it finished.
        var end: UInt64
        /// How long Signet's callback took (the wait on the upstream's token endpoint).
        var callbackNanoseconds: UInt64
    }

    /// What happened in a window of the monotonic clock.
    struct Window {
        /// Sign-ins that finished in the window.
        var completed: Int
        var seconds: Double
        /// Callback durations of those sign-ins, milliseconds, sorted.
        var callbackMilliseconds: [Double]
        /// Callbacks in flight, sampled every 50 ms in the window: the smallest and the mean.
        var inFlightMinimum: Int
        var inFlightMean: Double

        var perSecond: Double { seconds > 0 ? Double(completed) / seconds : 0 }
    }

    private struct Record: Sendable {
        var completions: [Completion] = []
        var failures = 0
        var messages: [String] = []
        /// (monotonic nanoseconds, callbacks in flight) every 50 ms.
        var samples: [(UInt64, Int)] = []
    }

    private let record = Mutex(Record())
    private let inCallback = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(settings: LoadSettings, connectionID: String, browsers: Int, stagger: Double) {
        self.settings = settings
        self.connectionID = connectionID
        self.browsers = browsers
        self.stagger = stagger
    }

    /// One sign-in on `connection`, checked to the end (Signet's code redeemed for an ID token).
    func signInOnce(_ connection: HTTPConnection) throws(HTTPClientError) -> Completion {
        let client = OAuthClient(clientID: settings.publicClientID, redirectURI: settings.redirectURI)
        let (code, callback) = try client.federatedSignIn(connection, connectionID: connectionID, scope: settings.scope,
                                                          timeoutSeconds: connection.timeoutSeconds) { entering in
            inCallback.add(entering ? 1 : -1, ordering: .relaxed)
        }
        let tokens = try client.redeem(connection, code)
        guard tokens.idToken != nil else { throw HTTPClientError("federated sign-in: the code gave no id_token") }
        return Completion(end: monotonicNanoseconds(), callbackNanoseconds: callback)
    }

    /// Starts the browsers (and a sampler of the callbacks in flight); returns at once.
    func start() {
        let begin = monotonicNanoseconds()
        for index in 0..<browsers {
            let delay = UInt64(stagger * 1e9 * Double(index) / Double(browsers))
            let thread = Thread { [self] in
                sleepUntil(begin + delay)
                // 30 s per read: Signet's own limit on the upstream call is the connection's timeout.
                let connection = HTTPConnection(port: settings.port, timeoutSeconds: 30)
                while !stopping.load(ordering: .relaxed) {
                    do {
                        let completion = try signInOnce(connection)
                        record.withLock { $0.completions.append(completion) }
                    } catch {
                        let message = "\(error)"
                        record.withLock { record in
                            record.failures += 1
                            if record.messages.count < 3 && !record.messages.contains(message) { record.messages.append(message) }
                        }
                        connection.disconnect()
                        usleep(10_000)
                    }
                }
                finished.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        let sampler = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                let sample = (monotonicNanoseconds(), inCallback.load(ordering: .relaxed))
                record.withLock { $0.samples.append(sample) }
                usleep(50_000)
            }
            finished.signal()
        }
        sampler.start()
    }

    /// Callbacks waiting on the upstream right now.
    var callbacksInFlight: Int { inCallback.load(ordering: .relaxed) }

    /// Asks every browser to stop after its current sign-in and waits for all of them.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        for _ in 0...browsers { finished.wait() }
    }

    /// Sign-ins that failed so far, and the first distinct messages.
    var failures: (count: Int, messages: [String]) { record.withLock { ($0.failures, $0.messages) } }

    /// Sign-ins completed so far.
    var completedCount: Int { record.withLock { $0.completions.count } }

    /// What finished between `start` and `end` (monotonic nanoseconds).
    func window(from start: UInt64, to end: UInt64) -> Window {
        let (completions, samples) = record.withLock { record in
            (record.completions.filter { $0.end >= start && $0.end < end },
             record.samples.filter { $0.0 >= start && $0.0 < end }.map(\.1))
        }
        let callbacks = completions.map { Double($0.callbackNanoseconds) / 1e6 }.sorted()
        return Window(completed: completions.count, seconds: Double(end - start) / 1e9, callbackMilliseconds: callbacks,
                      inFlightMinimum: samples.min() ?? 0,
                      inFlightMean: samples.isEmpty ? 0 : Double(samples.reduce(0, +)) / Double(samples.count))
    }
}
