import SignetCore

/// How `logging.format` writes each line.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One JSON object per line (for a log collector).
    case json
    /// `time level [request id] message`, for a terminal.
    case text
}

/// The least severe line `logging.level` lets through.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    /// Everything, including per-step detail.
    case debug
    /// What an operator should know (the default).
    case info
    /// Something unusual that Signet handled.
    case warning
    /// Something failed.
    case error

    var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    /// Less severe first.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

extension SignetConfiguration {
    /// The `audit` settings.
    public struct AuditSettings: Sendable {
        /// How long audit events are kept, in seconds (0: forever).
        public var retention: Int = Settings.auditRetention.defaultValue
    }

    /// The `logging` settings.
    public struct LoggingSettings: Sendable {
        /// The least severe level written.
        public var level: LogLevel = Settings.loggingLevel.defaultValue
        /// JSON lines or text.
        public var format: LogFormat = Settings.loggingFormat.defaultValue
    }
}

extension Settings {
    // MARK: audit
    /// How long audit events are kept.
    public static let auditRetention = Setting(\SignetConfiguration.audit.retention, "retention", 34_560_000, .seconds(0...315_360_000),
        "How long an audit event is kept (default 400 days) before the periodic purge (maintenance.purge_interval) or `signet purge` deletes it; 0 keeps every event. Deleting the oldest events keeps the hash chain verifiable: the last deleted event's hash is kept as the checkpoint `signet audit verify` starts from, and `verify` reports a checkpoint younger than this retention (events deleted before their time).")
    /// The settings of the `audit` object, in reference order.
    public static let audit = SettingsGroup<SignetConfiguration>(key: "audit", title: "Audit trail", settings: [
        auditRetention.entry,
    ])

    // MARK: logging
    /// The least severe level logged.
    public static let loggingLevel = Setting(\SignetConfiguration.logging.level, "level", LogLevel.info, .oneOf,
        "The least severe line written to standard error: debug, info, warning or error.")
    /// The line format.
    public static let loggingFormat = Setting(\SignetConfiguration.logging.format, "format", LogFormat.json, .oneOf,
        "json: one JSON object per line (`time`, `level`, `msg`, `request_id` during a request, and the request's fields on request lines); text: `time level [request id] message`, for a terminal, with every control character of the message written as `\\u{XX}` (upstream or SMTP text cannot start a forged line). Neither ever holds a code, token, verifier, nonce, password, email or callback URL.")
    /// The settings of the `logging` object, in reference order.
    public static let logging = SettingsGroup<SignetConfiguration>(key: "logging", title: "Logging", settings: [
        loggingLevel.entry, loggingFormat.entry,
    ])
}
