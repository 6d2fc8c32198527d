import SignetFederation
import SignetMacros

/// An upstream connection declared in the `connections` array of `signet.json`: the connection
/// and where its secrets are (references only, resolved when the server starts).
@MemberwiseInit
public struct ConfiguredConnection: Sendable, Equatable {
    /// The connection as declared.
    public var connection: Connection
    /// Where the client secret is (not for apple).
    public var clientSecret: SecretReference? = nil
    /// Apple: where the .p8 private key is.
    public var privateKey: SecretReference? = nil

    /// Reads the secrets. Throws `ConfigurationIssue` naming the connection when one is missing.
    public func credentials(relativeTo directory: String) throws(ConfigurationIssue) -> ConnectionCredentials {
        var credentials = ConnectionCredentials()
        do {
            if let clientSecret {
                credentials.clientSecret = String(decoding: try clientSecret.resolve(relativeTo: directory), as: UTF8.self)
            }
        } catch {
            throw ConfigurationIssue(path: "connections.\(connection.id).client_secret", message: error.message)
        }
        do {
            if let privateKey {
                credentials.applePrivateKeyPEM = String(decoding: try privateKey.resolve(relativeTo: directory), as: UTF8.self)
            }
        } catch {
            throw ConfigurationIssue(path: "connections.\(connection.id).private_key", message: error.message)
        }
        return credentials
    }
}
