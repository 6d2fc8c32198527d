import Foundation
@testable import SignetStore
import SignetTesting
import Testing

/// The pure rules every backend runs inside its transaction: refresh rotation and code
/// redemption, without a database.
@Suite("Store decisions", .endToEndLimit)
struct StoreDecisionTests {
    let grant = Fixture.grant("g")
    let live = Fixture.token("rt-0", grant: "g")

    func request(at seconds: Double, client: String = "app", grace: Int = 30) -> RotationRequest {
        RotationRequest(tokenHash: hash("rt-0"), clientID: client, successorHash: hash("rt-1"),
                        successorExpiresAt: t0.addingTimeInterval(seconds + 3_600), now: t0.addingTimeInterval(seconds),
                        graceSeconds: grace)
    }

    func rotated(at seconds: Double) -> RefreshTokenRecord {
        var token = live
        token.rotatedAt = t0.addingTimeInterval(seconds)
        token.successorHash = hash("rt-1")
        return token
    }

    @Test func aLiveTokenRotatesAndTheSuccessorIsClampedToTheFamily() {
        let live = Fixture.token("rt-0", grant: "g", expiresIn: 90_000)
        let (result, write) = RefreshRotation.decide(request(at: 86_000), token: live, grant: grant, userDisabled: false,
                                                     successor: nil)
        var presented = live
        presented.rotatedAt = t0.addingTimeInterval(86_000)
        presented.successorHash = hash("rt-1")
        let successor = RefreshTokenRecord(tokenHash: hash("rt-1"), grantID: "g", parentHash: hash("rt-0"),
                                           scope: live.scope, createdAt: t0.addingTimeInterval(86_000),
                                           expiresAt: grant.absoluteExpiresAt)
        #expect(result == .rotated(Rotation(grant: grant, presented: presented, successor: successor)))
        #expect(write == .rotate(presentedHash: hash("rt-0"), at: t0.addingTimeInterval(86_000), successor: successor))
    }

    @Test func nothingIsWrittenForAnUnknownForeignRevokedOrExpiredToken() {
        #expect(RefreshRotation.decide(request(at: 1), token: nil, grant: nil, userDisabled: false, successor: nil)
                == (.notFound, .none))
        #expect(RefreshRotation.decide(request(at: 1, client: "other"), token: live, grant: grant, userDisabled: true,
                                       successor: nil) == (.clientMismatch, .none))
        var revoked = grant
        revoked.revokedAt = t0
        #expect(RefreshRotation.decide(request(at: 1), token: live, grant: revoked, userDisabled: true, successor: nil)
                == (.revoked, .none))
        #expect(RefreshRotation.decide(request(at: 86_400), token: live, grant: grant, userDisabled: false, successor: nil)
                == (.expired, .none))
        #expect(RefreshRotation.decide(request(at: 3_600), token: live, grant: grant, userDisabled: false, successor: nil)
                == (.expired, .none))
    }

    @Test func aDisabledUserRevokesTheFamily() {
        var revoked = grant
        revoked.revokedAt = t0.addingTimeInterval(1)
        revoked.revokeReason = RevokeReason.userDisabled
        #expect(RefreshRotation.decide(request(at: 1), token: live, grant: grant, userDisabled: true, successor: nil)
                == (.userDisabled(revoked), .revokeGrant(id: "g", reason: RevokeReason.userDisabled, at: t0.addingTimeInterval(1))))
    }

    @Test func aRetryInsideTheGraceWindowGetsTheLiveSuccessorAndAnyOtherReuseRevokes() {
        let token = rotated(at: 10)
        let successor = Fixture.token("rt-1", grant: "g")
        #expect(RefreshRotation.successorToRead(token, request(at: 40)) == hash("rt-1"))
        #expect(RefreshRotation.successorToRead(token, request(at: 41)) == nil)
        #expect(RefreshRotation.successorToRead(live, request(at: 1)) == nil)
        #expect(RefreshRotation.decide(request(at: 40), token: token, grant: grant, userDisabled: false, successor: successor)
                == (.graceRetry(Rotation(grant: grant, presented: token, successor: successor)), .none))
        var reused = grant
        reused.revokedAt = t0.addingTimeInterval(41)
        reused.revokeReason = RevokeReason.refreshTokenReuse
        #expect(RefreshRotation.decide(request(at: 41), token: token, grant: grant, userDisabled: false, successor: nil)
                == (.reuseDetected(reused), .revokeGrant(id: "g", reason: RevokeReason.refreshTokenReuse, at: t0.addingTimeInterval(41))))
        // Inside the window, but the successor was rotated too: reuse.
        var spent = successor
        spent.rotatedAt = t0.addingTimeInterval(20)
        reused.revokedAt = t0.addingTimeInterval(40)
        #expect(RefreshRotation.decide(request(at: 40), token: token, grant: grant, userDisabled: false, successor: spent).0
                == .reuseDetected(reused))
    }

    @Test func aCodeIsRedeemedOnceAndAReplayIsSeenAfterItsExpiry() {
        let code = Fixture.code("c")
        var consumed = code
        consumed.consumedAt = t0.addingTimeInterval(1)
        #expect(CodeConsumption.decide(nil, now: t0) == .notFound)
        #expect(CodeConsumption.decide(code, now: t0.addingTimeInterval(1)) == .consumed(consumed))
        #expect(CodeConsumption.decide(consumed, now: t0.addingTimeInterval(2)) == .alreadyConsumed(consumed))
        #expect(CodeConsumption.decide(consumed, now: t0.addingTimeInterval(900)) == .alreadyConsumed(consumed))
        #expect(CodeConsumption.decide(code, now: t0.addingTimeInterval(300)) == .expired)
    }
}
