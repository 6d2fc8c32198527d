import SignetCrypto
import SignetJOSE
import Testing
@testable import SignetWebAuthn

/// `RegistrationResponseJSON` / `AuthenticationResponseJSON` parsing: limits per field and errors
/// that name the field.
@Suite struct ResponseJSONTests {
    static let id = Base64URL.encode([UInt8](repeating: 1, count: 16))

    static func registration(_ response: String, id: String = id, rawID: String = id, type: String = #""public-key""#) -> String {
        #"{"id":"\#(id)","rawId":"\#(rawID)","type":\#(type),"response":\#(response),"clientExtensionResults":{}}"#
    }

    static func parseRegistration(_ json: String) -> WebAuthnError? {
        refusal { () throws(WebAuthnError) in try RegistrationResponse(json: Array(json.utf8)) }
    }

    static func parseAuthentication(_ json: String) -> WebAuthnError? {
        refusal { () throws(WebAuthnError) in try AuthenticationResponse(json: Array(json.utf8)) }
    }

    @Test func readsARegistration() throws {
        let json = Self.registration(#"{"clientDataJSON":"e30","attestationObject":"oA","transports":["internal","hybrid"]}"#)
        let response = try RegistrationResponse(json: Array(json.utf8))
        #expect(response.id == [UInt8](repeating: 1, count: 16))
        #expect(response.clientDataJSON == Array("{}".utf8))
        #expect(response.attestationObject == [0xA0])
        #expect(response.transports == ["internal", "hybrid"])
    }

    @Test func readsAnAuthenticationWithAndWithoutUserHandle() throws {
        let with = Self.registration(#"{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AQ","userHandle":"Ag"}"#)
        #expect(try AuthenticationResponse(json: Array(with.utf8)).userHandle == [2])
        let null = Self.registration(#"{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AQ","userHandle":null}"#)
        #expect(try AuthenticationResponse(json: Array(null.utf8)).userHandle == nil)
        let empty = Self.registration(#"{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AQ","userHandle":""}"#)
        #expect(try AuthenticationResponse(json: Array(empty.utf8)).userHandle == nil)
        let absent = Self.registration(#"{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AQ"}"#)
        #expect(try AuthenticationResponse(json: Array(absent.utf8)).userHandle == nil)
    }

    @Test func namesTheFieldThatIsWrong() {
        let good = #"{"clientDataJSON":"e30","attestationObject":"oA"}"#
        #expect(Self.parseRegistration("[]") == .malformed(field: "response JSON", reason: "not a JSON object"))
        #expect(Self.parseRegistration("{") != nil)
        #expect(Self.parseRegistration(Self.registration(good, type: #""password""#)) == .malformed(field: "type", reason: "must be \"public-key\""))
        #expect(Self.parseRegistration(Self.registration(good, rawID: Base64URL.encode([2]))) == .malformed(field: "rawId", reason: "differs from id"))
        #expect(Self.parseRegistration(Self.registration(good, id: "AQ==", rawID: "AQ==")) == .malformed(field: "id", reason: "not base64url"))
        #expect(Self.parseRegistration(Self.registration(#"{"attestationObject":"oA"}"#))
                == .malformed(field: "response.clientDataJSON", reason: "missing or not a string"))
        #expect(Self.parseRegistration(Self.registration(#"{"clientDataJSON":"e30","attestationObject":7}"#))
                == .malformed(field: "response.attestationObject", reason: "missing or not a string"))
        #expect(Self.parseRegistration(Self.registration(#"{"clientDataJSON":"e30","attestationObject":"o+A"}"#))
                == .malformed(field: "response.attestationObject", reason: "not base64url"))
        #expect(Self.parseRegistration(Self.registration(#"{"clientDataJSON":"e30","attestationObject":"oA","transports":"usb"}"#))
                == .malformed(field: "response.transports", reason: "not an array of at most 8 strings"))
        #expect(Self.parseRegistration(#"{"id":"AQ","rawId":"AQ","type":"public-key"}"#) == .malformed(field: "response", reason: "missing or not an object"))
        #expect(Self.parseAuthentication(Self.registration(#"{"clientDataJSON":"e30","authenticatorData":"AA"}"#))
                == .malformed(field: "response.signature", reason: "missing or not a string"))
    }

    @Test func limitsEachField() {
        let longID = Base64URL.encode([UInt8](repeating: 1, count: 1024))
        #expect(Self.parseRegistration(Self.registration(#"{"clientDataJSON":"e30","attestationObject":"oA"}"#, id: longID, rawID: longID))
                == .tooLarge(field: "id", limit: 1023))
        let bigClientData = Base64URL.encode([UInt8](repeating: 0x20, count: 4097))
        #expect(Self.parseRegistration(Self.registration(#"{"clientDataJSON":"\#(bigClientData)","attestationObject":"oA"}"#))
                == .tooLarge(field: "response.clientDataJSON", limit: 4096))
        let handle = Base64URL.encode([UInt8](repeating: 1, count: 65))
        #expect(Self.parseAuthentication(Self.registration(#"{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AQ","userHandle":"\#(handle)"}"#))
                == .tooLarge(field: "response.userHandle", limit: 64))
        let huge = String(repeating: " ", count: 65537)
        #expect(Self.parseRegistration(huge) == .tooLarge(field: "response JSON", limit: 65536))
    }

    @Test func clientChosenTextCannotBreakALogLine() {
        let description = WebAuthnError.originNotAllowed("https://a.example\nFAKE log line" + String(repeating: "x", count: 500)).description
        #expect(!description.contains("\n"))
        #expect(description.contains(#"\n"#))
        #expect(description.count < 200)
        #expect(!WebAuthnError.unsupportedAttestationFormat("tpm\r\nx").description.contains("\r"))
    }
}
