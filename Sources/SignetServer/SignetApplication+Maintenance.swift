import Foundation

extension SignetApplication {
    /// Starts the periodic purge the configuration asks for (nil when `maintenance.purge_interval`
    /// is 0). The caller stops it when the server stops.
    public func startPeriodicPurge() -> PeriodicPurge? {
        let maintenance = environment.configuration.maintenance
        guard maintenance.purgeInterval > 0 else { return nil }
        return PeriodicPurge(storage: environment.storage, clock: environment.clock,
                             interval: maintenance.purgeInterval, retention: maintenance.purgeRetention, pace: maintenance.purgePace,
                             auditRetention: environment.configuration.audit.retention)
    }

    /// Starts sending the outbox when mail is configured (nil otherwise). The caller stops it when
    /// the server stops.
    public func startMailSender(retry: MailRetry = .standard, pollInterval: TimeInterval = 5) throws -> MailSender? {
        guard let delivery = try environment.configuration.mailDelivery() else { return nil }
        return MailSender(queue: environment.mail, transport: delivery.transport, from: delivery.from, fromName: delivery.fromName,
                          clock: environment.clock, random: environment.random, retry: retry, lease: delivery.lease,
                          pollInterval: pollInterval)
    }
}
