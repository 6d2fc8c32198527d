/// The few DER (X.690) encodings SignetCrypto builds and parses by hand: lengths, unsigned
/// INTEGERs and SEQUENCEs. Enough for ECDSA-Sig-Value and SubjectPublicKeyInfo, nothing more.
enum DER {
    /// Encodes a definite length.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xff), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// Encodes a TLV with `tag` around `content`.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    /// Encodes a non-negative INTEGER from unsigned big-endian magnitude bytes (leading zeros are
    /// dropped, and one zero byte is added when the high bit is set, as DER requires).
    static func unsignedInteger(_ magnitude: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    /// Encodes a SEQUENCE around already-encoded elements.
    static func sequence(_ elements: [UInt8]...) -> [UInt8] {
        tlv(0x30, elements.flatMap { $0 })
    }

    /// A strict cursor over DER bytes: definite minimal lengths only.
    struct Reader {
        private let bytes: [UInt8]
        private(set) var offset: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            self.offset = 0
        }

        var isAtEnd: Bool { offset == bytes.count }

        /// Reads one TLV with the expected tag and returns its content.
        mutating func read(tag: UInt8) -> ArraySlice<UInt8>? {
            guard offset < bytes.count, bytes[offset] == tag, offset + 1 < bytes.count else { return nil }
            var cursor = offset + 1
            let first = bytes[cursor]
            cursor += 1
            var count = 0
            if first < 0x80 {
                count = Int(first)
            } else {
                let lengthBytes = Int(first & 0x7f)
                guard lengthBytes >= 1, lengthBytes <= 4, cursor + lengthBytes <= bytes.count else { return nil }
                for _ in 0..<lengthBytes {
                    count = count << 8 | Int(bytes[cursor])
                    cursor += 1
                }
                // Minimal encoding: long form only for lengths >= 128, no leading zero length byte.
                guard count >= 0x80, bytes[cursor - lengthBytes] != 0 else { return nil }
            }
            guard count <= bytes.count - cursor else { return nil }
            offset = cursor + count
            return bytes[cursor..<offset]
        }

        /// Reads a non-negative, minimally encoded INTEGER and returns its magnitude without
        /// leading zero bytes.
        mutating func readUnsignedInteger() -> ArraySlice<UInt8>? {
            guard let content = read(tag: 0x02), let first = content.first else { return nil }
            if first & 0x80 != 0 { return nil }  // negative
            if first == 0, content.count > 1 {
                // A leading zero is only allowed (and required) before a byte with the high bit set.
                guard content[content.startIndex + 1] & 0x80 != 0 else { return nil }
                return content.dropFirst()
            }
            return first == 0 ? content.dropFirst() : content
        }
    }
}
