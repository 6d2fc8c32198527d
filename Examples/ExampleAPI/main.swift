// An API protected by Signet access tokens, in a few lines: SignetResource checks the token,
// SignetHTTP serves the endpoint.
//
//   swift run ExampleAPI --issuer http://127.0.0.1:8080 --audience http://127.0.0.1:8080 --listen 127.0.0.1:9090
//   curl -H "Authorization: Bearer $(signet login --issuer … --client-id demo-app --print-access-token)" \
//        http://127.0.0.1:9090/hello
import Foundation
import SignetHTTP
import SignetResource

let options = ExampleOptions(CommandLine.arguments.dropFirst())
guard let issuer = options["issuer"] else {
    FileHandle.standardError.write(Data("usage: ExampleAPI --issuer URL [--audience RESOURCE] [--listen HOST:PORT] [--scope S]\n".utf8))
    exit(64)
}
let audience = options["audience"] ?? issuer   // Signet's default audience is the issuer itself
let requiredScopes: Set<String> = Set((options["scope"] ?? "openid").split(separator: " ").map(String.init))

let validator: AccessTokenValidator
do {
    validator = try await AccessTokenValidator.discover(issuer: issuer, audience: audience, realm: "example-api")
} catch {
    FileHandle.standardError.write(Data("ExampleAPI: cannot read the issuer's discovery document: \(error)\n".utf8))
    exit(1)
}

let router = Router()
router.get("/hello", .async { request in
    do throws(BearerError) {
        let token = try await validator.validate(authorization: request.headers["Authorization"], requiredScopes: requiredScopes)
        return .json(Array(ExampleOptions.json(["message": "hello", "sub": token.subject, "client_id": token.clientID ?? ""]).utf8))
    } catch {
        var response = HTTPResponse.json(Array(error.jsonBody.utf8), status: error.status)
        response.headers.set("WWW-Authenticate", error.wwwAuthenticate)
        return response
    }
})
router.get("/healthz", .sync { _ in .text("ok\n") })

let server: HTTPServer
do {
    server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress(options["listen"] ?? "127.0.0.1:9090")]),
                        router: router)
    try server.start()
} catch {
    FileHandle.standardError.write(Data("ExampleAPI: \(error)\n".utf8))
    exit(1)
}
print("ExampleAPI listening on \(server.boundPorts.map { "127.0.0.1:\($0)" }.joined(separator: " ")); audience \(audience)")
fflush(nil)
while true { sleep(3600) }
