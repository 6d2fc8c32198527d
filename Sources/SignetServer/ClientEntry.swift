import SignetCore
import SignetCrypto
import SignetWire

/// One entry of the `clients` array as the settings read it, before the client rules apply: the
/// spec, plus the fields whose JSON form differs from the spec's (parsed to enums here, once).
/// `Settings.client` writes every property (its declared default when the key is absent), so the
/// initial values are placeholders.
struct ClientEntry {
    /// The fields that map one to one onto the spec.
    var spec = ClientSpec(id: "", isPublic: true)
    /// `type`; nil: confidential when a secret is given, public otherwise.
    var type: ClientType?
    /// `secret`.
    var secret: SecretReference?
    /// `token_endpoint_auth_method`.
    var authenticationMethod: ClientAuthenticationMethod?
    /// `id_token_algorithm`.
    var idTokenAlgorithm: SignatureAlgorithm?

    /// The spec with the typed fields written back; `secretIsGiven` decides the type when none is.
    func finishedSpec(secretIsGiven: Bool) -> ClientSpec {
        var spec = spec
        spec.isPublic = type.map { $0 == .public } ?? !secretIsGiven
        spec.authenticationMethod = authenticationMethod?.rawValue
        spec.idTokenAlgorithm = idTokenAlgorithm?.rawValue
        return spec
    }
}

/// `clients[].type`.
enum ClientType: String, CaseIterable {
    /// A native app: no secret, PKCE required.
    case `public`
    /// A client that authenticates with a secret.
    case confidential
}
