import Foundation

extension SignetApplication {
    /// Starts the periodic purge the configuration asks for (nil when `maintenance.purge_interval`
    /// is 0). The caller stops it when the server stops.
    public func startPeriodicPurge() -> PeriodicPurge? {
        let maintenance = environment.configuration.maintenance
        guard maintenance.purgeInterval > 0 else { return nil }
        return PeriodicPurge(storage: environment.storage, clock: environment.clock,
                             interval: maintenance.purgeInterval, retention: maintenance.purgeRetention)
    }
}
