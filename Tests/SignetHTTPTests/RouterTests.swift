import SignetTesting
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct RouterTests {
    private func router() -> Router {
        let router = Router()
        router.get("/hello", .sync { _ in .text("hello") })
        router.post("/token", .sync { _ in .text("token") })
        router.get("/oauth2/callback/{connection}", .sync { .text("cb:" + ($0.pathParameters["connection"] ?? "-")) })
        router.add(.DELETE, "/items/{id}/tags/{tag}", .sync { .text("\($0.pathParameters["id"] ?? "")/\($0.pathParameters["tag"] ?? "")") })
        router.get("/slow", .async { _ in .text("slow") })
        return router
    }

    private func respond(_ router: Router, _ method: HTTPMethod, _ rawPath: String) -> HTTPResponse? {
        let path = (try? PercentDecoding.decode(rawPath.utf8, plusIsSpace: false)) ?? rawPath
        return router.respondSynchronously(to: HTTPRequest(method: method, path: path, rawPath: rawPath))
    }

    @Test func staticAndPatternRoutes() {
        let router = router()
        #expect(respond(router, .GET, "/hello")?.body == Array("hello".utf8))
        #expect(respond(router, .GET, "/oauth2/callback/google")?.body == Array("cb:google".utf8))
        #expect(respond(router, .GET, "/oauth2/callback/a%2Fb")?.body == Array("cb:a/b".utf8))
        #expect(respond(router, .DELETE, "/items/7/tags/x")?.body == Array("7/x".utf8))
        #expect(respond(router, .GET, "/slow") == nil)   // async handlers are not run synchronously
    }

    @Test func noTrailingSlashFoldingAndEmptyParameters() {
        let router = router()
        #expect(respond(router, .GET, "/hello/")?.status == 404)
        #expect(respond(router, .GET, "/oauth2/callback/")?.status == 404)
        #expect(respond(router, .GET, "/oauth2/callback/a/b")?.status == 404)
        #expect(respond(router, .GET, "/nope")?.status == 404)
    }

    @Test func methodNotAllowedListsMethods() {
        let router = router()
        let response = respond(router, .POST, "/hello")
        #expect(response?.status == 405)
        #expect(response?.headers["Allow"] == "GET, HEAD")
        #expect(respond(router, .GET, "/token")?.headers["Allow"] == "POST")
    }

    @Test func headUsesGet() {
        #expect(respond(router(), .HEAD, "/hello")?.body == Array("hello".utf8))
    }

    @Test func customHooksAndReplacement() {
        let router = router()
        router.notFound = { .json(Array("{\"error\":\"\($0.path)\"}".utf8), status: 404) }
        router.methodNotAllowed = { _, allowed in .json(Array("{\"allowed\":\(allowed.count)}".utf8), status: 405) }
        router.get("/hello", .sync { _ in .text("replaced") })
        #expect(respond(router, .GET, "/x")?.body == Array("{\"error\":\"/x\"}".utf8))
        let notAllowed = respond(router, .PUT, "/hello")
        #expect(notAllowed?.body == Array("{\"allowed\":2}".utf8))
        #expect(notAllowed?.headers["Allow"] == "GET, HEAD")
        #expect(respond(router, .GET, "/hello")?.body == Array("replaced".utf8))
    }
}
