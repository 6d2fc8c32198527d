import CSignetResolver

/// A DNS answer message, as a resolver (or anyone spoofing one) sends it, through the C reader of
/// TXT records. A found answer is a run of length-prefixed records that fills exactly the length
/// reported, no more records than the answer section holds; the same bytes come out when the
/// buffer has exactly that room, and one byte less is `TOO_LONG`.
enum TXTFuzz {
    static func run(_ input: [UInt8]) {
        let (status, records) = read(input, capacity: 16_384)
        let known = [SIGNET_TXT_FOUND, SIGNET_TXT_NO_RECORD, SIGNET_TXT_FAILED, SIGNET_TXT_TOO_LONG].map { Int32($0.rawValue) }
        require(known.contains(status), "an unknown status \(status)")
        guard status == Int32(SIGNET_TXT_FOUND.rawValue) else {
            require(records.isEmpty, "bytes written for an answer with no records")
            return
        }
        var index = 0
        var count = 0
        while index < records.count {
            require(index + 2 <= records.count, "a record's length is cut")
            index += 2 + (Int(records[index]) << 8 | Int(records[index + 1]))
            require(index <= records.count, "a record runs past the reported length")
            count += 1
        }
        require(count > 0, "found, but no record written")
        let answers = input.count >= 8 ? Int(input[6]) << 8 | Int(input[7]) : 0
        require(count <= answers, "more records than the answer section holds")
        let exact = read(input, capacity: records.count)
        require(exact.status == status && exact.records == records, "an exact buffer reads otherwise")
        require(read(input, capacity: records.count - 1).status == Int32(SIGNET_TXT_TOO_LONG.rawValue),
                "a buffer one byte short is not too short")
    }

    static func read(_ input: [UInt8], capacity: Int) -> (status: Int32, records: [UInt8]) {
        var out = [UInt8](repeating: 0, count: capacity)
        var length = 0
        let status = input.withUnsafeBufferPointer { answer in
            out.withUnsafeMutableBufferPointer { signet_txt_read_answer(answer.baseAddress, answer.count, $0.baseAddress, capacity, &length) }
        }
        return (status, status == Int32(SIGNET_TXT_FOUND.rawValue) ? Array(out.prefix(length)) : [])
    }
}
