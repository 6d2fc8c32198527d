import CLibCbor

extension CBORValue {
    /// The deepest nesting `decode` accepts by default (an attestation object needs 3).
    public static let defaultMaximumDepth = 8

    /// Decodes the one CBOR item that `bytes` must consist of; trailing bytes are refused.
    ///
    /// `field` names the input in errors. libcbor's streaming decoder (`cbor_stream_decode`) reads
    /// the encoding; this side builds the values, so a declared length never allocates more than
    /// the input can hold.
    public static func decode(_ bytes: [UInt8], field: String, maximumDepth: Int = defaultMaximumDepth) throws(WebAuthnError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes, field: field, maximumDepth: maximumDepth)
        guard consumed == bytes.count else {
            throw .malformed(field: field, reason: "\(bytes.count - consumed) bytes after the CBOR item")
        }
        return value
    }

    /// Decodes the CBOR item at the start of `bytes` and returns it with the number of bytes it
    /// took (the COSE key inside authenticator data is followed by other data).
    public static func decodePrefix(_ bytes: [UInt8], field: String, maximumDepth: Int = defaultMaximumDepth) throws(WebAuthnError) -> (CBORValue, Int) {
        guard !bytes.isEmpty else { throw .malformed(field: field, reason: "empty") }
        let builder = CBORBuilder(maximumDepth: maximumDepth)
        let context = Unmanaged.passUnretained(builder).toOpaque()
        var offset = 0
        var callbacks = CBORBuilder.callbacks
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while builder.result == nil, builder.failure == nil {
                guard offset < buffer.count else {
                    builder.failure = "truncated"
                    break
                }
                builder.remaining = buffer.count - offset
                let step = cbor_stream_decode(base + offset, buffer.count - offset, &callbacks, context)
                switch step.status {
                case CBOR_DECODER_FINISHED where step.read > 0:
                    offset += step.read
                case CBOR_DECODER_NEDATA:
                    builder.failure = "truncated"
                default:
                    builder.failure = "not well-formed CBOR"
                }
            }
        }
        if let failure = builder.failure { throw .malformed(field: field, reason: failure) }
        guard let result = builder.result else { throw .malformed(field: field, reason: "truncated") }
        return (result, offset)
    }
}

/// Builds `CBORValue`s from libcbor's streaming callbacks: a stack of open arrays and maps.
private final class CBORBuilder {
    private enum Frame {
        case array(expected: Int, items: [CBORValue])
        case map(expected: Int, items: [CBORValue])
    }

    let maximumDepth: Int
    /// Bytes left from the start of the item being decoded: no container can declare more
    /// elements than that (every element takes at least one byte).
    var remaining = 0
    var result: CBORValue?
    var failure: String?
    private var stack: [Frame] = []

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> CBORBuilder? {
        guard let context else { return nil }
        return Unmanaged<CBORBuilder>.fromOpaque(context).takeUnretainedValue()
    }

    func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    func add(_ value: CBORValue) {
        guard failure == nil else { return }
        var value = value
        while true {
            guard let top = stack.popLast() else {
                result = value
                return
            }
            switch top {
            case .array(let expected, var items):
                items.append(value)
                if items.count < expected {
                    stack.append(.array(expected: expected, items: items))
                    return
                }
                value = .array(items)
            case .map(let expected, var items):
                items.append(value)
                if items.count < 2 * expected {
                    stack.append(.map(expected: expected, items: items))
                    return
                }
                guard let map = makeMap(items) else { return }
                value = map
            }
        }
    }

    private func makeMap(_ items: [CBORValue]) -> CBORValue? {
        var entries: [CBORMapEntry] = []
        entries.reserveCapacity(items.count / 2)
        var keys = Set<CBORValue>()
        for index in stride(from: 0, to: items.count, by: 2) {
            guard keys.insert(items[index]).inserted else {
                fail("duplicate map key")
                return nil
            }
            entries.append(CBORMapEntry(key: items[index], value: items[index + 1]))
        }
        return .map(entries)
    }

    func open(array size: Int, map: Bool) {
        guard failure == nil else { return }
        let (elements, overflow) = map ? size.multipliedReportingOverflow(by: 2) : (size, false)
        // size_t arrives as Int: a count of 2^63 or more is negative here.
        guard size >= 0, !overflow, elements < remaining else {
            fail("a container declares more elements than there are bytes")
            return
        }
        if size == 0 {
            add(map ? .map([]) : .array([]))
            return
        }
        guard stack.count < maximumDepth else {
            fail("nested deeper than \(maximumDepth)")
            return
        }
        var items: [CBORValue] = []
        items.reserveCapacity(min(elements, 64))
        stack.append(map ? .map(expected: size, items: items) : .array(expected: size, items: items))
    }

    static let callbacks: cbor_callbacks = {
        var c = cbor_callbacks()
        c.uint8 = { from($0)?.add(.unsigned(UInt64($1))) }
        c.uint16 = { from($0)?.add(.unsigned(UInt64($1))) }
        c.uint32 = { from($0)?.add(.unsigned(UInt64($1))) }
        c.uint64 = { from($0)?.add(.unsigned($1)) }
        c.negint8 = { from($0)?.add(.negative(UInt64($1))) }
        c.negint16 = { from($0)?.add(.negative(UInt64($1))) }
        c.negint32 = { from($0)?.add(.negative(UInt64($1))) }
        c.negint64 = { from($0)?.add(.negative($1)) }
        c.byte_string = { context, data, length in
            guard let builder = from(context) else { return }
            guard let data else { return builder.add(.bytes([])) }
            builder.add(.bytes(Array(UnsafeBufferPointer(start: data, count: length))))
        }
        c.string = { context, data, length in
            guard let builder = from(context) else { return }
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
            guard let text = String(validating: bytes, as: UTF8.self) else { return builder.fail("text is not UTF-8") }
            builder.add(.text(text))
        }
        c.array_start = { from($0)?.open(array: $1, map: false) }
        c.map_start = { from($0)?.open(array: $1, map: true) }
        c.boolean = { from($0)?.add(.bool($1)) }
        c.null = { from($0)?.add(.null) }
        c.byte_string_start = { from($0)?.fail("indefinite-length byte string") }
        c.string_start = { from($0)?.fail("indefinite-length text string") }
        c.indef_array_start = { from($0)?.fail("indefinite-length array") }
        c.indef_map_start = { from($0)?.fail("indefinite-length map") }
        c.indef_break = { from($0)?.fail("unexpected break") }
        c.tag = { context, _ in from(context)?.fail("tags are not accepted") }
        c.float2 = { context, _ in from(context)?.fail("floating-point values are not accepted") }
        c.float4 = { context, _ in from(context)?.fail("floating-point values are not accepted") }
        c.float8 = { context, _ in from(context)?.fail("floating-point values are not accepted") }
        c.undefined = { from($0)?.fail("undefined is not accepted") }
        return c
    }()
}
