import Testing
@testable import SignetWire

@Suite struct RequestParametersTests {
    @Test func repeatedNamesAreReportedOnceInOrderOfTheirRepeat() {
        let parameters = RequestParameters([("b", "1"), ("a", "1"), ("a", "2"), ("b", "2"), ("a", "3"), ("c", "")])
        #expect(parameters.repeatedNames == ["a", "b"])
        #expect(RequestParameters([("a", "1"), ("b", "2")]).repeatedNames.isEmpty)
    }

    /// Linear, proven by counting: a name that counts its equality checks. With hashing, an
    /// equality check happens only against the few occupied buckets of a probe (Swift's sets keep
    /// no hashes; about 3.6 checks per name measured), so n names each sent twice cost O(n);
    /// the former `Array.contains` over the names already reported cost n²/2 (2,000,000 here).
    @Test func findingRepeatsComparesNamesALinearNumberOfTimes() {
        let comparisons = Comparisons()
        let count = 2_000
        let names = (0..<count).map { CountingName(value: $0, comparisons: comparisons) }
        let repeated = RequestParameters.repeated(in: names + names)
        #expect(repeated.map(\.value) == Array(0..<count))
        let checks = comparisons.count
        #expect(checks > 0 && checks <= 16 * count, "\(checks) equality checks for \(count) names sent twice")
    }
}

/// An element whose `==` is counted; its hash is its value, so distinct values rarely collide.
private struct CountingName: Hashable {
    let value: Int
    let comparisons: Comparisons

    static func == (lhs: CountingName, rhs: CountingName) -> Bool {
        lhs.comparisons.count += 1
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The number of equality checks made (one test, one thread).
private final class Comparisons {
    var count = 0
}
