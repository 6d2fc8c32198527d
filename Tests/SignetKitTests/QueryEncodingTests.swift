import SignetKit
import SignetTesting
import Testing

/// The callback decoder on top of the shared strict form decoder: one value per name.
@Suite(.endToEndLimit) struct QueryEncodingTests {
    @Test func decodesStrictlyAndRefusesRepeatsAndEmptyNames() {
        #expect(QueryEncoding.decode("code=a+b%2Bc&state=%C3%A9&iss") == ["code": "a b+c", "state": "é", "iss": ""])
        #expect(QueryEncoding.decode("a=1&&b=2") == ["a": "1", "b": "2"])
        #expect(QueryEncoding.decode("") == [:])
        #expect(QueryEncoding.decode("state=1&state=1") == nil, "RFC 6749 §3.1: no repeats")
        #expect(QueryEncoding.decode("=x") == nil)
        #expect(QueryEncoding.decode("a=%4") == nil)
        #expect(QueryEncoding.decode("a=%zz") == nil)
        #expect(QueryEncoding.decode("a=%FF") == nil, "not UTF-8")
        let pairs = [("redirect_uri", "http://127.0.0.1:5000/cb?x=1&y=2"), ("scope", "openid email")]
        #expect(QueryEncoding.encode(pairs) == "redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcb%3Fx%3D1%26y%3D2&scope=openid%20email")
        #expect(QueryEncoding.decode(QueryEncoding.encode(pairs)) == Dictionary(uniqueKeysWithValues: pairs))
    }
}
