import Foundation
import SignetPostgres
import SignetSQLite
import SignetStore
import SignetTesting

/// The stores the contract suite runs against. Every contract test takes one of these.
enum Backend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite
    /// When `SIGNET_TEST_POSTGRES_URL` names a PostgreSQL server (scripts/run-tests.sh starts
    /// one), and always under CI, where a missing server fails these cases (`RealPart`).
    case postgres

    /// The backends to test: PostgreSQL when it can run (`RealPart.postgres.canRun`).
    static var allCases: [Backend] {
        RealPart.postgres.canRun ? [.sqlite, .postgres] : [.sqlite]
    }

    var description: String { rawValue }

    /// A fresh, empty store (SQLite: a migrated temporary file, deleted when released; PostgreSQL:
    /// a migrated database of its own, dropped when released).
    func make() throws -> any SignetStorage {
        switch self {
        case .sqlite: return try SQLiteStorage.temporary()
        case .postgres:
            return try PostgresStorage.temporary(adminConninfo: try RealPart.postgres())
        }
    }
}

/// A fixed clock reading; tests move time by adding seconds.
let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// A 32-byte stand-in for a keyed hash: the label's bytes, zero padded. Distinct labels of up to
/// 32 bytes give distinct hashes.
func hash(_ label: String) -> [UInt8] {
    let bytes = Array(label.utf8.prefix(32))
    return bytes + [UInt8](repeating: 0, count: 32 - bytes.count)
}

enum Fixture {
    static func client(_ id: String, at time: Date = t0) -> ClientRecord {
        ClientRecord(
            id: id, name: "App \(id)", secretHash: hash("secret-\(id)"), secretSalt: [1, 2, 3], isPublic: false,
            firstParty: true, redirectURIs: ["http://127.0.0.1/callback", "com.example.app:/callback"],
            postLogoutRedirectURIs: ["com.example.app:/logged-out"], allowedScopes: ["openid", "profile"],
            grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "client_secret_basic",
            idTokenAlgorithm: "ES256", lifetimes: ClientTokenLifetimes(accessToken: 600, idToken: 300),
            allowHeadless: true, allowedResources: ["https://api.example.com", "https://files.example.com"],
            createdAt: time, updatedAt: time, extra: #"{"logo":"x"}"#)
    }

    static func user(_ id: String, email: String) -> UserRecord {
        UserRecord(id: id, email: email, emailVerified: true, passwordHash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA",
                   name: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace", createdAt: t0, updatedAt: t0)
    }

    static func code(_ label: String, grantID: String = "grant-1", expiresIn seconds: Double = 300) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeHash: hash(label),
            grantID: grantID,
            terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access",
                              resources: ["https://api.example.com", "https://files.example.com"], amr: ["pwd", "otp"],
                              authTime: t0, sessionID: "sid-1"),
            redirectURI: "http://127.0.0.1:8765/callback",
            codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            nonce: "n-0S6_WzA2Mj",
            createdAt: t0,
            expiresAt: t0.addingTimeInterval(seconds))
    }

    static func grant(_ id: String, client: String = "app", user: String = "user-1", session: String? = "sid-1",
                      lifetime: Double = 86_400) -> GrantRecord {
        GrantRecord(
            grantID: id,
            terms: GrantTerms(clientID: client, userID: user, scope: "openid offline_access",
                              resources: ["https://api.example.com"], amr: ["pwd", "mfa"], authTime: t0, sessionID: session),
            createdAt: t0,
            absoluteExpiresAt: t0.addingTimeInterval(lifetime))
    }

    static func token(_ label: String, grant: String, expiresIn seconds: Double = 3_600) -> RefreshTokenRecord {
        RefreshTokenRecord(tokenHash: hash(label), grantID: grant, scope: "openid offline_access", createdAt: t0,
                           expiresAt: t0.addingTimeInterval(seconds))
    }

    static func session(_ label: String, user: String = "user-1") -> SessionRecord {
        SessionRecord(idHash: hash(label), userID: user, createdAt: t0, lastSeenAt: t0,
                      idleExpiresAt: t0.addingTimeInterval(1_800), absoluteExpiresAt: t0.addingTimeInterval(3_600),
                      authTime: t0, amr: ["pwd", "mfa"])
    }
}
