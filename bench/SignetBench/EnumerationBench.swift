import Foundation
import SignetServer

/// Account enumeration by timing (issue 12): the forms that take an address — "forgot
/// password?", email sign-in, sign-up — must answer an address with an account and one without
/// in the same time. Each form is posted `requests` times with known and `requests` times with
/// unknown addresses, in alternating batches (known-unknown, then unknown-known, so a drift in
/// the machine's load falls on both alike). Every post is a new browser's: a fresh authorization
/// request and the form page with its CSRF field and cookie (not timed), then the timed `POST`,
/// which must answer 303 to the code page. The server's CPU time is read from `/proc` around each
/// batch of posts, so it counts only posts of one kind (and the mail the sender thread sends
/// meanwhile, one per post whichever the kind).
///
/// Every address is used once per form, and each post carries its own `X-Forwarded-For` (the
/// server trusts 127.0.0.1 as a proxy), so no throttle of `EmailChallenges` is reached.
struct EnumerationBench {
    /// A form that takes an address.
    enum Form: String, CaseIterable {
        case forgot, email, signup

        var path: String {
            switch self {
            case .forgot: Routes.passwordForgot
            case .email: Routes.emailSignIn
            case .signup: Routes.signUp
            }
        }
    }

    /// Which kind of address a post carries.
    enum Kind: String, CaseIterable { case known, unknown }

    /// The measurements of one kind on one form.
    struct Sample {
        var milliseconds: [Double] = []
        var serverCPUSeconds = 0.0
        var posts = 0

        func quantile(_ q: Double) -> Double {
            let sorted = milliseconds.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]
        }

        var cpuMicroseconds: Double { posts > 0 ? serverCPUSeconds * 1e6 / Double(posts) : 0 }
    }

    let port: Int
    let serverPID: Int32?
    let client: OAuthClient
    /// Addresses that have accounts: at least `requests` of them.
    let known: [String]
    let requests: Int
    let batch: Int

    /// The page of a new browser: its CSRF cookie value, the form's CSRF field and request handle.
    struct Prepared {
        let cookie: String
        let csrf: String
        let handle: String
    }

    /// A new authorization request and `form`'s page in a new browser.
    func prepare(_ form: Form, _ connection: HTTPConnection) throws(HTTPClientError) -> Prepared {
        let (_, _, query) = client.newRequest(scope: "openid")
        let authorize = try connection.request("GET", Routes.authorize + "?" + query)
        guard authorize.status == 303, let signIn = authorize.header("location"),
              let handle = OAuthClient.queryParameters(signIn)["request"] else {
            throw HTTPClientError("GET /authorize: status \(authorize.status), expected 303 to the sign-in page")
        }
        let page = try connection.request("GET", form.path + "?" + OAuthClient.formEncode([("request", handle)]))
        guard page.status == 200, let csrf = OAuthClient.hiddenField("csrf", in: page.body),
              let cookie = page.cookies.last(where: { $0.0 == client.csrfCookieName })?.1 else {
            throw HTTPClientError("GET \(form.path): status \(page.status), or no csrf field or \(client.csrfCookieName) cookie")
        }
        return Prepared(cookie: cookie, csrf: csrf, handle: handle)
    }

    /// One timed post of `email` to `form`; returns its wall time in milliseconds.
    func post(_ form: Form, _ prepared: Prepared, email: String, from address: String,
              _ connection: HTTPConnection) throws(HTTPClientError) -> Double {
        var fields = [("request", prepared.handle), ("csrf", prepared.csrf), ("email", email)]
        if form == .signup { fields += [("password", "bench " + OAuthClient.randomToken(12)), ("name", "")] }
        let body = OAuthClient.formEncode(fields)
        let headers = [("Cookie", "\(client.csrfCookieName)=\(prepared.cookie)"), ("X-Forwarded-For", address)]
        let start = DispatchTime.now().uptimeNanoseconds
        let response = try connection.request("POST", form.path, headers: headers, body: body)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard response.status == 303, response.header("location")?.hasPrefix(Routes.emailCode + "?") == true else {
            throw HTTPClientError("POST \(form.path): status \(response.status), expected 303 to \(Routes.emailCode) (throttled?)")
        }
        return elapsed
    }

    /// Measures `form`: `requests` posts of each kind.
    func run(_ form: Form, runID: String) throws(HTTPClientError) -> [Kind: Sample] {
        let pages = HTTPConnection(port: port), posts = HTTPConnection(port: port)
        var samples: [Kind: Sample] = [.known: Sample(), .unknown: Sample()]
        var next: [Kind: Int] = [.known: 0, .unknown: 0]
        var round = 0
        while (next[.known] ?? 0) < requests || (next[.unknown] ?? 0) < requests {
            let order: [Kind] = round % 2 == 0 ? [.known, .unknown] : [.unknown, .known]
            round += 1
            for kind in order {
                let first = next[kind] ?? 0
                let count = min(batch, requests - first)
                guard count > 0 else { continue }
                next[kind] = first + count
                let emails = (first..<(first + count)).map { index in
                    kind == .known ? known[index] : "nobody-\(runID)-\(form.rawValue)-\(index)@example.com"
                }
                var prepared: [Prepared] = []
                for _ in emails { prepared.append(try prepare(form, pages)) }
                let cpuBefore = ProcessCPU.seconds(pid: serverPID)
                var times: [Double] = []
                for (offset, email) in emails.enumerated() {
                    let index = (kind == .known ? 0 : 1) * requests + first + offset
                    let address = "10.\(Form.allCases.firstIndex(of: form) ?? 0).\(index / 256).\(index % 256)"
                    times.append(try post(form, prepared[offset], email: email, from: address, posts))
                }
                let cpuAfter = ProcessCPU.seconds(pid: serverPID)
                samples[kind]?.milliseconds += times
                samples[kind]?.posts += count
                if let cpuBefore, let cpuAfter { samples[kind]?.serverCPUSeconds += cpuAfter - cpuBefore }
            }
        }
        return samples
    }

    /// The difference of the medians (unknown − known) and a 95 % bootstrap interval for it
    /// (2,000 resamples): an interval that holds 0 means no difference this run can tell apart.
    static func medianDifference(_ known: [Double], _ unknown: [Double]) -> (difference: Double, low: Double, high: Double) {
        let difference = median(unknown) - median(known)
        guard !known.isEmpty, !unknown.isEmpty else { return (difference, difference, difference) }
        var generator = SystemRandomNumberGenerator()
        var differences: [Double] = []
        for _ in 0..<2000 {
            let a = (0..<known.count).map { _ in known[Int.random(in: 0..<known.count, using: &generator)] }
            let b = (0..<unknown.count).map { _ in unknown[Int.random(in: 0..<unknown.count, using: &generator)] }
            differences.append(median(b) - median(a))
        }
        differences.sort()
        return (difference, differences[50], differences[1949])
    }
}
