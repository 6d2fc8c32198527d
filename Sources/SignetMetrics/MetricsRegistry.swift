import Synchronization

/// Counters, gauges and histograms, and their Prometheus text exposition (format 0.0.4).
///
/// Families are declared once at start-up; updating a series is one atomic add, with a lock only
/// the first time a label combination is seen. Each family holds at most `seriesLimit` label
/// combinations; past that, new ones are counted under label values `"other"`, so a label fed
/// from outside can never grow memory without bound.
public final class MetricsRegistry: Sendable {
    /// The most label combinations one family keeps.
    public let seriesLimit: Int
    private let families = Mutex<[any MetricFamily]>([])

    /// An empty registry.
    public init(seriesLimit: Int = 1000) { self.seriesLimit = seriesLimit }

    /// Declares a counter family. `name` must be a Prometheus metric name ending in `_total`.
    public func counter(_ name: String, help: String, labels: [String] = []) -> CounterFamily {
        register(CounterFamily(name: name, help: help, labelNames: labels, limit: seriesLimit))
    }

    /// Declares a histogram family with upper bucket bounds `buckets` (ascending; `+Inf` is added).
    public func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double] = Histogram.latencyBuckets) -> HistogramFamily {
        register(HistogramFamily(name: name, help: help, labelNames: labels, buckets: buckets, limit: seriesLimit))
    }

    /// Declares a gauge read when the registry is scraped (for example, open connections).
    public func gauge(_ name: String, help: String, read: @escaping @Sendable () -> Double) {
        _ = register(GaugeFamily(name: name, help: help, read: read))
    }

    /// Declares a gauge family read when scraped, one value per combination of `labels`; series
    /// beyond `seriesLimit` are dropped.
    public func gauge(_ name: String, help: String, labels: [String], read: @escaping @Sendable () -> [([String], Double)]) {
        _ = register(LabeledGaugeFamily(name: name, help: help, labelNames: labels, limit: seriesLimit, read: read))
    }

    private func register<Family: MetricFamily>(_ family: Family) -> Family {
        precondition(MetricName.isValid(family.name) && family.labelNames.allSatisfy(MetricName.isValidLabel),
                     "not a Prometheus metric or label name: \(family.name) \(family.labelNames)")
        families.withLock { $0.append(family) }
        return family
    }

    /// Every family in the text format, in the order declared, each series sorted by its labels.
    public func exposition() -> String {
        var text = ""
        for family in families.withLock({ $0 }) { family.render(into: &text) }
        return text
    }

    /// The content type of `exposition()`.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}

/// A family of series that can write itself in the text format.
protocol MetricFamily: Sendable {
    var name: String { get }
    var labelNames: [String] { get }
    func render(into text: inout String)
}

/// Metric and label names (Prometheus data model), and label-value escaping.
enum MetricName {
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first == "_" || first == ":" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0 == ":" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    static func isValidLabel(_ name: String) -> Bool { isValid(name) && !name.contains(":") && !name.hasPrefix("__") && name != "le" }

    /// `{a="x",b="y"}` with `\`, `"` and line feeds escaped; empty when there are no labels.
    static func labels(_ names: [String], _ values: [String], extra: (String, String)? = nil) -> String {
        var pairs = zip(names, values).map { ($0, $1) }
        if let extra { pairs.append(extra) }
        guard !pairs.isEmpty else { return "" }
        return "{" + pairs.map { name, value in
            var escaped = ""
            for character in value.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return "\(name)=\"\(escaped)\""
        }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// The series of one family, by label values, bounded.
///
/// Finding a series takes no lock: the series sit in an insert-only open-addressing table whose
/// slots are each set once, so a reader sees a slot empty or holding its final entry. Only adding
/// a series takes the lock. Under one shared lock, 16 request threads updating the same series
/// spent a fifth of the server's CPU waiting for it (bench/README.md, "Session 11 (http)").
///
/// A slot is an atomic word holding the entry's retained pointer (released with the table):
/// `AtomicLazyReference.load`, which the standard library does not inline, cost 600 instructions
/// per lookup in its generic metadata calls, eight lookups per refresh (bench/README.md,
/// "Session 15 (lead)").
final class SeriesTable<Series: Sendable>: Sendable {
    private final class Entry: Sendable {
        let values: [String]
        let series: Series

        init(values: [String], series: Series) {
            self.values = values
            self.series = series
        }
    }

    /// An entry's address once set (retained by the table), 0 while empty; set once.
    private final class Slot: Sendable {
        private let bits = Atomic<UInt>(0)

        var entry: Entry? {
            let value = bits.load(ordering: .acquiring)
            guard let pointer = UnsafeRawPointer(bitPattern: value) else { return nil }
            return Unmanaged<Entry>.fromOpaque(pointer).takeUnretainedValue()
        }

        /// Sets the slot to `entry` if it is empty; true when it took it.
        func take(_ entry: Entry) -> Bool {
            let retained = Unmanaged.passRetained(entry)
            let value = UInt(bitPattern: retained.toOpaque())
            if bits.compareExchange(expected: 0, desired: value, ordering: .acquiringAndReleasing).exchanged { return true }
            retained.release()
            return false
        }

        deinit {
            if let pointer = UnsafeRawPointer(bitPattern: bits.load(ordering: .acquiring)) {
                Unmanaged<Entry>.fromOpaque(pointer).release()
            }
        }
    }

    /// A power of two above twice `limit + 1` (the limit's series and the overflow one), so
    /// probes stay short and an empty slot always ends one.
    private let slots: [Slot]
    /// Series added; held while adding one, so one thread at a time fills slots.
    private let added = Mutex(0)
    private let arity: Int
    private let limit: Int
    private let make: @Sendable () -> Series

    init(arity: Int, limit: Int, make: @escaping @Sendable () -> Series) {
        self.arity = arity
        self.limit = limit
        self.make = make
        var capacity = 16
        while capacity < 2 * (limit + 1) { capacity *= 2 }
        slots = (0..<capacity).map { _ in Slot() }
    }

    func series(_ values: [String]) -> Series {
        precondition(values.count == arity, "expected \(arity) label values, got \(values.count)")
        if let found = find(values) { return found.series }
        return added.withLock { added in
            if let found = find(values) { return found.series }
            let key = added < limit ? values : Array(repeating: "other", count: arity)
            if let overflow = find(key) { return overflow.series }
            let entry = Entry(values: key, series: make())
            var index = key.hashValue & (slots.count - 1)
            // Only this thread fills slots now, so the first empty one takes the entry.
            while !slots[index].take(entry) { index = (index + 1) & (slots.count - 1) }
            added += 1
            return entry.series
        }
    }

    private func find(_ values: [String]) -> Entry? {
        var index = values.hashValue & (slots.count - 1)
        while let entry = slots[index].entry {
            if entry.values == values { return entry }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Every series, sorted by label values.
    func all() -> [([String], Series)] {
        slots.compactMap(\.entry).map { ($0.values, $0.series) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }
}
