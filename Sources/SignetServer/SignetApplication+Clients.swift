import SignetCore
import SignetStore

extension SignetApplication {
    /// Writes the clients of the configuration file to the store, secrets hashed, so the file,
    /// the store and the CLI agree. A client whose stored record already matches is left alone
    /// (no cache invalidation on every start).
    static func registerConfiguredClients(_ environment: ServerEnvironment, server: AuthorizationServer) throws {
        let registration = ClientRegistration(server: server)
        let configuration = environment.configuration
        for (index, entry) in configuration.clients.enumerated() {
            let path = "clients[\(index)]"
            var secretHash: [UInt8]?
            if let reference = entry.secret {
                let bytes: [UInt8]
                do { bytes = try reference.resolve(relativeTo: configuration.dataDirectory) } catch {
                    throw ConfigurationIssue(path: path + ".secret", message: error.message)
                }
                let secret = String(decoding: bytes, as: UTF8.self)
                guard secret.utf8.count >= ClientRegistration.minimumSecretLength else {
                    throw ConfigurationIssue(path: path + ".secret", message:
                        "the secret must have at least \(ClientRegistration.minimumSecretLength) characters of high entropy")
                }
                secretHash = server.clients.hashSecret(secret)
            }
            var record: ClientRecord
            do { record = try registration.record(entry.spec, secretHash: secretHash) } catch {
                let first = error.issues.first
                throw ConfigurationIssue(path: path + "." + (first?.field ?? "id"), message: first?.message ?? "invalid client")
            }
            if let stored = try environment.storage.clients.client(id: record.id) {
                record.createdAt = stored.createdAt
                record.updatedAt = stored.updatedAt
                if stored == record { continue }
                record.updatedAt = environment.clock.now
            }
            try environment.storage.clients.upsertClient(record)
        }
    }
}
