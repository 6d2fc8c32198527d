import Synchronization

/// One counter series: a count that only goes up.
public final class Counter: Sendable {
    private let value = Atomic<UInt64>(0)

    init() {}

    /// Adds `amount` (one by default).
    public func increment(by amount: UInt64 = 1) { value.add(amount, ordering: .relaxed) }

    /// The count.
    public var count: UInt64 { value.load(ordering: .relaxed) }
}

/// A counter family: one `Counter` per combination of label values.
public final class CounterFamily: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String]
    private let series: SeriesTable<Counter>

    init(name: String, help: String, labelNames: [String], limit: Int) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.series = SeriesTable(arity: labelNames.count, limit: limit) { Counter() }
    }

    /// The series for these label values, in the order the labels were declared.
    public func labels(_ values: String...) -> Counter { series.series(values) }

    func render(into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
        for (values, counter) in series.all() {
            text += "\(name)\(MetricName.labels(labelNames, values)) \(counter.count)\n"
        }
    }
}

/// A gauge read at scrape time.
final class GaugeFamily: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String] = []
    let read: @Sendable () -> Double

    init(name: String, help: String, read: @escaping @Sendable () -> Double) {
        self.name = name
        self.help = help
        self.read = read
    }

    func render(into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(MetricName.number(read()))\n"
    }
}

/// A gauge family read at scrape time with one series per label combination (for example one
/// age per signing-key algorithm). The reader returns at most the registry's series limit.
final class LabeledGaugeFamily: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String]
    let limit: Int
    let read: @Sendable () -> [([String], Double)]

    init(name: String, help: String, labelNames: [String], limit: Int, read: @escaping @Sendable () -> [([String], Double)]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.limit = limit
        self.read = read
    }

    func render(into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
        let series = read().filter { $0.0.count == labelNames.count }.prefix(limit).sorted { $0.0.lexicographicallyPrecedes($1.0) }
        for (values, value) in series {
            text += "\(name)\(MetricName.labels(labelNames, values)) \(MetricName.number(value))\n"
        }
    }
}
