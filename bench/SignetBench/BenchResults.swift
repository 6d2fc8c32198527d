import Foundation

/// Machine-readable results: `key value` lines appended to the file named by `--results`, which
/// `scripts/bench.sh` reads back to build its summary. Human-readable tables go to stdout.
struct BenchResults {
    private let path: String?
    private var lines: [String] = []

    init(path: String?) { self.path = path }

    /// Records one figure, e.g. `record("crypto.ES256.sign", 51234.5)`.
    mutating func record(_ key: String, _ value: Double) {
        lines.append("\(key) \(String(format: "%.3f", value))")
    }

    /// Appends the recorded lines to the results file (if any).
    func write() throws {
        guard let path, !lines.isEmpty else { return }
        let text = lines.joined(separator: "\n") + "\n"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw BenchUsageError("cannot write \(path)") }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}

/// The median of `values` (mean of the middle two for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
