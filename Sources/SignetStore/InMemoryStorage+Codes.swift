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
}
