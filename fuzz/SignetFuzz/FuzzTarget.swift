/// The fuzz targets of `make fuzz` (docs/testing.md, "Fuzzing").
///
/// Each target feeds one input to one parser the network can reach and checks what must hold for
/// every input: no crash, no hang, and the target's round-trip or consistency property. A broken
/// property stops the run with `preconditionFailure`, which libFuzzer reports as a crash and
/// saves the input under `fuzz/crashes/`.
enum FuzzTarget: String, CaseIterable {
    /// SignetJOSE's strict JSON parser.
    case json
    /// Compact JWS/JWT: shape, header and signature checks, then the claims.
    case jws
    /// JWK and JWK Sets: parsing, key import, thumbprints.
    case jwk
    /// SignetHTTP's form/query decoder and encoder, and OAuth request parameters.
    case form
    /// SignetWire's redirect-URI parser and matcher (RFC 8252 rules).
    case redirect
    /// SignetHTTP's request path: request target, headers, cookies, body form, routing.
    case http
    /// SignetWebAuthn's CBOR (libcbor), authenticator data, COSE keys and attestation objects.
    case webauthn
    /// An upstream's HTTP/1.1 response: where the C transport stops reading, and SignetClientCore's parser and chunked decoder.
    case outbound
    /// A DNS answer message through the C TXT-record reader of domain claims (CSignetResolver).
    case txt

    /// Runs one input through the target.
    func run(_ input: [UInt8]) {
        switch self {
        case .json: JSONFuzz.run(input)
        case .jws: JWSFuzz.run(input)
        case .jwk: JWKFuzz.run(input)
        case .form: FormFuzz.run(input)
        case .redirect: RedirectFuzz.run(input)
        case .http: HTTPFuzz.run(input)
        case .webauthn: WebAuthnFuzz.run(input)
        case .outbound: OutboundFuzz.run(input)
        case .txt: TXTFuzz.run(input)
        }
    }
}

/// Stops the run when a property that must hold for every input does not.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { preconditionFailure("fuzz property broken: \(message())") }
}
