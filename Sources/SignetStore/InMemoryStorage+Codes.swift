import Foundation

extension InMemoryStorage: AuthorizationCodeStore {
    /// See `AuthorizationCodeStore.insertCode(_:)`.
    public func insertCode(_ code: AuthorizationCodeRecord) throws {
        try state.withLock { s in
            guard s.codes[code.codeHash] == nil else { throw StoreError.duplicate }
            s.codes[code.codeHash] = code
        }
    }

    /// See `AuthorizationCodeStore.consumeCode(codeHash:now:)`.
    public func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption {
        state.withLock { s in
            guard var code = s.codes[codeHash] else { return .notFound }
            if code.consumedAt != nil { return .alreadyConsumed(code) }
            guard now < code.expiresAt else { return .expired }
            code.consumedAt = now
            s.codes[codeHash] = code
            return .consumed(code)
        }
    }

    /// See `AuthorizationCodeStore.deleteUnredeemedCodes(userID:)`.
    public func deleteUnredeemedCodes(userID: String) throws -> Int {
        state.withLock { s in
            let doomed = s.codes.filter { $0.value.userID == userID && $0.value.consumedAt == nil }.map(\.key)
            for hash in doomed { s.codes[hash] = nil }
            return doomed.count
        }
    }
}
