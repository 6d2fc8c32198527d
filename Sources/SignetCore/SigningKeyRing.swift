import Foundation
import SignetSync
import SignetCrypto
import SignetJOSE
import SignetStore
import Synchronization

/// The signing keys of this node: decrypted once, refreshed when the database says they changed.
///
/// Life cycle of a key: created and published in the JWKS at once; signs from `activatesAt`
/// (rotation sets this in the future, so caches see the key before any token carries its `kid`);
/// stops signing at `retiredAt`; stays published until `removeAfter`, which is at least the
/// longest lifetime of anything it signed.
public final class SigningKeyRing: Sendable {
    /// One decrypted key.
    struct Entry: Sendable {
        let record: SigningKeyRecord
        let algorithm: SignatureAlgorithm
        let signer: JWSSigner
        let verificationKey: VerificationKey
    }

    /// What this node currently knows.
    struct Snapshot: Sendable {
        var generation: Int64 = -1
        var entries: [Entry] = []
        var jwks: [UInt8] = Array(#"{"keys":[]}"#.utf8)
        var jwksValidUntil: Date = .distantPast
    }

    private let store: any SigningKeyStore
    private let encryptionKey: [UInt8]
    private let clock: any Clock
    private let state = ThreadMutex(Snapshot())
    /// Open once the keys needed to sign exist; signing and the JWKS wait for it.
    private let readiness = Readiness()

    /// How long a retired key stays published: the longest lifetime of a token it signed.
    public let retentionSeconds: Int

    /// Creates the ring; call `reload()` (or `ensureSigningKeys`) before use.
    public init(store: any SigningKeyStore, encryptionKey: [UInt8], clock: any Clock, retentionSeconds: Int) {
        self.store = store
        self.encryptionKey = encryptionKey
        self.clock = clock
        self.retentionSeconds = retentionSeconds
    }

    /// Makes sure every algorithm can sign, without holding up start-up: if a key must be
    /// generated (the first start; RSA-2048 generation takes ~170 ms), it is generated on a
    /// background thread while the server starts listening, and `signer(for:)` and `jwksDocument`
    /// wait for it. Returns at once when the keys already exist.
    public func prepare(_ algorithms: [SignatureAlgorithm]) throws {
        try reload()
        let now = clock.now
        let missing = algorithms.filter { algorithm in
            !state.withLock { $0.entries.contains { $0.algorithm == algorithm && $0.record.canSign(at: now) } }
        }
        guard !missing.isEmpty else { return }
        readiness.close()
        let thread = Thread { [self] in
            do { try ensureSigningKeys(missing) } catch {
                FileHandle.standardError.write(Data("signing key generation failed: \(error)\n".utf8))
            }
            readiness.open()
        }
        thread.start()
    }

    /// Waits until background key generation started by `prepare` has finished.
    public func waitUntilReady() { readiness.wait() }

    /// Re-reads the keys if the store's generation moved (keys rotated or retired by another
    /// process or node). Cheap when nothing changed.
    public func reload() throws {
        let generation = try store.keysGeneration()
        if state.withLock({ $0.generation == generation }) { return }
        var entries: [Entry] = []
        for record in try store.allKeys() {
            entries.append(try decrypt(record))
        }
        entries.sort { $0.record.activatesAt > $1.record.activatesAt }
        let snapshot = buildSnapshot(generation: generation, entries: entries)
        state.withLock { $0 = snapshot }
    }

    /// Makes sure each algorithm has a key that can sign now, creating one active at once where
    /// none does (first start, or after every key of an algorithm was retired).
    @discardableResult
    public func ensureSigningKeys(_ algorithms: [SignatureAlgorithm]) throws -> [SigningKeyRecord] {
        try reload()
        let now = clock.now
        var created: [SigningKeyRecord] = []
        for algorithm in algorithms where !state.withLock({ $0.entries.contains { $0.algorithm == algorithm && $0.record.canSign(at: now) } }) {
            // Another node may have created one meanwhile: the store inserts only if none can sign.
            let record = try makeKey(algorithm, activatesAt: now)
            if try store.insertKeyUnlessOneCanSign(record, now: now) { created.append(record) }
        }
        // Always re-read: a key another node stored meanwhile must be in this node's set too.
        try reload()
        readiness.open()
        return created
    }

    /// Rotates an algorithm's key: the new key is published now and signs after `prepublish`
    /// seconds; the keys it replaces stop signing then and stay published for `retentionSeconds`.
    public func rotate(_ algorithm: SignatureAlgorithm, prepublishSeconds: Int) throws -> SigningKeyRecord {
        try reload()
        let now = clock.now
        let activation = now.addingTimeInterval(TimeInterval(prepublishSeconds))
        let replaced = state.withLock { $0.entries.filter { $0.algorithm == algorithm && $0.record.retiredAt == nil } }
        let record = try createKey(algorithm, activatesAt: activation)
        for entry in replaced {
            try store.retireKey(id: entry.record.id, retiredAt: max(activation, entry.record.activatesAt),
                                removeAfter: activation.addingTimeInterval(TimeInterval(retentionSeconds)))
        }
        try reload()
        return record
    }

    /// Stops a key signing now; it stays published for `retentionSeconds`. If it was the last
    /// key of its algorithm able to sign, a replacement is created at once.
    public func retire(keyID: String) throws -> SigningKeyRecord? {
        try reload()
        let now = clock.now
        guard let entry = state.withLock({ $0.entries.first { $0.record.id == keyID } }) else {
            throw StoreError.notFound
        }
        try store.retireKey(id: keyID, retiredAt: now, removeAfter: now.addingTimeInterval(TimeInterval(retentionSeconds)))
        try reload()
        return try ensureSigningKeys([entry.algorithm]).first
    }

    /// Every stored key, newest activation first.
    public func records() throws -> [SigningKeyRecord] {
        try reload()
        return state.withLock { $0.entries.map(\.record) }
    }

    /// The signer for an algorithm: the newest key of that algorithm that may sign now.
    public func signer(for algorithm: SignatureAlgorithm) throws(OAuthSigningError) -> JWSSigner {
        readiness.wait()
        let now = clock.now
        guard let entry = state.withLock({ $0.entries.first { $0.algorithm == algorithm && $0.record.canSign(at: now) } }) else {
            throw OAuthSigningError(algorithm: algorithm)
        }
        return entry.signer
    }

    /// The keys a verifier of Signet's own tokens should trust (every published key).
    public var verificationKeys: [VerificationKey] {
        let now = clock.now
        return state.withLock { $0.entries.filter { $0.record.isPublished(at: now) }.map(\.verificationKey) }
    }

    /// The JWKS document (RFC 7517): every published key, deterministic bytes.
    public var jwksDocument: [UInt8] {
        readiness.wait()
        let now = clock.now
        if let current = state.withLock({ now < $0.jwksValidUntil ? $0.jwks : nil }) { return current }
        return state.withLock { snapshot in
            snapshot = buildSnapshot(generation: snapshot.generation, entries: snapshot.entries)
            return snapshot.jwks
        }
    }

    private func buildSnapshot(generation: Int64, entries: [Entry]) -> Snapshot {
        let now = clock.now
        let published = entries.filter { $0.record.isPublished(at: now) }.sorted { $0.record.createdAt < $1.record.createdAt }
        let body = published.map(\.record.publicJWK).joined(separator: ",")
        let nextRemoval = entries.compactMap(\.record.removeAfter).filter { $0 > now }.min() ?? .distantFuture
        return Snapshot(generation: generation, entries: entries, jwks: Array(#"{"keys":["#.utf8) + Array(body.utf8) + Array("]}".utf8),
                        jwksValidUntil: nextRemoval)
    }

    private func createKey(_ algorithm: SignatureAlgorithm, activatesAt: Date) throws -> SigningKeyRecord {
        let record = try makeKey(algorithm, activatesAt: activatesAt)
        try store.insertKey(record)
        return record
    }

    /// A new key pair as a record (the private key sealed), not stored yet.
    private func makeKey(_ algorithm: SignatureAlgorithm, activatesAt: Date) throws -> SigningKeyRecord {
        let keyType: KeyType = switch algorithm {
        case .rs256, .ps256: .rsa(bits: 2048)
        case .es256: .p256
        case .edDSA: .ed25519
        }
        let key = try PrivateKey.generate(keyType)
        // The key id is the RFC 7638 thumbprint, which does not depend on the kid member.
        let keyID = try JWK(publicKey: key.publicKey, keyID: "", algorithm: algorithm).thumbprint()
        let jwk = try JWK(publicKey: key.publicKey, keyID: keyID, algorithm: algorithm)
        let sealed = try AESGCM.seal(key.pkcs8DER, key: encryptionKey, associatedData: Array(keyID.utf8))
        let record = SigningKeyRecord(id: keyID, algorithm: algorithm.rawValue, encryptedPrivateKey: sealed,
                                      publicJWK: String(decoding: jwk.jsonBytes(), as: UTF8.self), createdAt: clock.now, activatesAt: activatesAt)
        return record
    }

    private func decrypt(_ record: SigningKeyRecord) throws -> Entry {
        guard let algorithm = SignatureAlgorithm(rawValue: record.algorithm) else {
            throw CryptoError("key \(record.id) has an unknown algorithm")
        }
        let der = try AESGCM.open(record.encryptedPrivateKey, key: encryptionKey, associatedData: Array(record.id.utf8))
        let key = try PrivateKey(pkcs8DER: der)
        return Entry(record: record, algorithm: algorithm,
                     signer: try JWSSigner(key: key, keyID: record.id, algorithm: algorithm),
                     verificationKey: try VerificationKey(keyID: record.id, algorithm: algorithm, publicKey: key.publicKey))
    }
}

/// A gate that is open unless background key generation is running; waiting is free when open.
final class Readiness: Sendable {
    private let isOpen = Atomic<Bool>(true)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Closes the gate until `open()`.
    func close() { isOpen.store(false, ordering: .releasing) }

    func open() {
        if !isOpen.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
    }

    /// Waits (at most 30 s) until the gate is open.
    func wait() {
        guard !isOpen.load(ordering: .acquiring) else { return }
        _ = semaphore.wait(timeout: .now() + 30)
        semaphore.signal()   // pass the wake-up on to the next waiter
    }
}

/// No key can sign for an algorithm right now.
public struct OAuthSigningError: Error, Sendable, CustomStringConvertible {
    /// The algorithm without a usable key.
    public let algorithm: SignatureAlgorithm
    /// Message for the log.
    public var description: String { "no active signing key for \(algorithm.rawValue)" }
}
