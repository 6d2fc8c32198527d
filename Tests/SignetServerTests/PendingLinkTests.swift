import Foundation
@testable import SignetServer
import SignetTesting
import SignetWire
import Testing

@Suite(.endToEndLimit) struct PendingLinkTests {
    /// The stored form is one flat object, the identity's key and profile beside the link's own
    /// members, so a link stored before the identity became one value still reads.
    @Test func storesOneFlatObjectWithoutTheRevocableToken() throws {
        var identity = UpstreamIdentity(issuer: "https://accounts.example.com", subject: "u-1", email: "Ann@Example.com", emailVerified: true,
                                        name: "Ann Lee", givenName: "Ann", isPrivateRelayEmail: true, hostedDomain: "example.com")
        identity.revocableToken = .refreshToken("secret-refresh")
        let link = PendingLink(connectionID: "corp", identity: identity, userID: "usr_1", requestHandle: "sgq_r", browserBinding: "b64")
        let text = link.encoded()
        #expect(text == #"{"browserBinding":"b64","connectionID":"corp","email":"ann@example.com","emailVerified":true,"givenName":"Ann","#
            + #""issuer":"https://accounts.example.com","name":"Ann Lee","requestHandle":"sgq_r","subject":"u-1","userID":"usr_1"}"#)
        let read = try #require(PendingLink.decode(text))
        #expect(read.identity == UpstreamIdentity(issuer: "https://accounts.example.com", subject: "u-1", email: "ann@example.com",
                                                  emailVerified: true, name: "Ann Lee", givenName: "Ann"))
        #expect((read.connectionID, read.userID, read.requestHandle, read.browserBinding) == ("corp", "usr_1", "sgq_r", "b64"))
        #expect(PendingLink.decode(#"{"connectionID":"corp","issuer":"i","subject":"s","emailVerified":false}"#) == nil)
    }
}
