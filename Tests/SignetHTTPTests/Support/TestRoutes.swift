import Foundation
@testable import SignetHTTP

/// The routes most server tests use.
func testRouter() -> Router {
    let router = Router()
    router.get("/hello", .sync { _ in .json(Array("{\"hello\":\"world\"}".utf8)) })
    router.get("/echo", .sync { request in
        var lines = ["method=\(request.method)", "path=\(request.path)", "rawPath=\(request.rawPath)",
                     "rawQuery=\(request.rawQuery)", "peer=\(request.peerAddress)", "secure=\(request.isSecure)"]
        if let error = request.queryError { lines.append("queryError=\(error)") }
        for (name, value) in request.query.pairs { lines.append("q:\(name)=\(value)") }
        do { _ = try request.query.single("x") } catch { lines.append("single=\(error)") }
        return .text(lines.joined(separator: "\n"))
    })
    router.post("/form", .sync { request in
        do {
            let form = try request.form()
            return .text(form.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&") + " bytes=\(request.body.count)")
        } catch {
            return .text("formError=\(error)", status: 400)
        }
    })
    router.post("/size", .sync { .text("\($0.body.count)") })
    router.get("/redirect", .sync { _ in .redirect(to: "com.example.app:/cb?code=abc&state=xyz") })
    router.get("/user/{name}", .async { .text("hi " + ($0.pathParameters["name"] ?? "?")) })
    router.get("/cookie", .sync { request in
        var response = HTTPResponse.text(request.cookies["sid"] ?? "none")
        response.setCookie(SetCookie(name: "sid", value: "new"))
        return response
    })
    router.get("/badheader", .sync { _ in .redirect(to: "/x\r\nInjected: yes") })
    return router
}
