import Foundation

/// A policy that carries its `TokenLimits`: its `leeway`, `maxTokenBytes` and `clock` are the
/// limits', read and written in place.
public protocol TokenLimited {
    /// The size and time bounds.
    var limits: TokenLimits { get set }
}

extension TokenLimited {
    /// `limits.leeway`: clock skew tolerated, in seconds.
    public var leeway: TimeInterval {
        get { limits.leeway }
        set { limits.leeway = newValue }
    }

    /// `limits.maxTokenBytes`: the longest accepted token, in bytes.
    public var maxTokenBytes: Int {
        get { limits.maxTokenBytes }
        set { limits.maxTokenBytes = newValue }
    }

    /// `limits.clock`: the current time.
    public var clock: @Sendable () -> Date {
        get { limits.clock }
        set { limits.clock = newValue }
    }
}
