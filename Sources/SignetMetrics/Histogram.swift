import Synchronization

/// One histogram series: how many observations fell at or below each bound, their count and sum.
/// Observations are durations or sizes; the sum is kept in millionths, exact to a microsecond.
public final class Histogram: Sendable {
    /// Upper bounds for request latencies, in seconds: 0.5 ms to 10 s.
    public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    let bounds: [Double]
    private let buckets: [Counter]
    private let total = Atomic<UInt64>(0)
    private let sumMillionths = Atomic<UInt64>(0)

    init(bounds: [Double]) {
        self.bounds = bounds
        self.buckets = bounds.map { _ in Counter() }
    }

    /// Records one observation (negative values count as zero).
    public func observe(_ value: Double) {
        let clamped = max(0, value)
        if let index = bounds.firstIndex(where: { clamped <= $0 }) { buckets[index].increment() }
        total.add(1, ordering: .relaxed)
        sumMillionths.add(UInt64(min(clamped * 1_000_000, Double(UInt64.max / 2))), ordering: .relaxed)
    }

    /// How many observations there were.
    public var count: UInt64 { total.load(ordering: .relaxed) }

    func render(name: String, labelNames: [String], values: [String], into text: inout String) {
        var cumulative: UInt64 = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += buckets[index].count
            text += "\(name)_bucket\(MetricName.labels(labelNames, values, extra: ("le", MetricName.number(bound)))) \(cumulative)\n"
        }
        // Read after the buckets: observations landing meanwhile never make a bucket exceed +Inf.
        let all = max(count, cumulative)
        text += "\(name)_bucket\(MetricName.labels(labelNames, values, extra: ("le", "+Inf"))) \(all)\n"
        text += "\(name)_sum\(MetricName.labels(labelNames, values)) \(Double(sumMillionths.load(ordering: .relaxed)) / 1_000_000)\n"
        text += "\(name)_count\(MetricName.labels(labelNames, values)) \(all)\n"
    }
}

/// A histogram family: one `Histogram` per combination of label values.
public final class HistogramFamily: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String]
    private let series: SeriesTable<Histogram>

    init(name: String, help: String, labelNames: [String], buckets: [Double], limit: Int) {
        precondition(!buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 }, "buckets must ascend")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.series = SeriesTable(arity: labelNames.count, limit: limit) { Histogram(bounds: buckets) }
    }

    /// The series for these label values, in the order the labels were declared.
    public func labels(_ values: String...) -> Histogram { series.series(values) }

    func render(into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (values, histogram) in series.all() {
            histogram.render(name: name, labelNames: labelNames, values: values, into: &text)
        }
    }
}
