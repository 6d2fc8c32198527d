import CSignetOutbound
import SignetClientCore

/// An upstream's response, as the bytes read until the peer closed. The C transport stops reading
/// where `signet_outbound_response_length` finds the response whole; the Swift parser must then
/// see what it would have seen with every byte: the same response, or none at all. Also: a body
/// within the size limit, a Content-Length body of exactly that length, and a chunked body that
/// decodes the same when chunked again in other sizes.
enum OutboundFuzz {
    static let sizeLimit = 4096

    static func run(_ input: [UInt8]) {
        let whole = responseLength(input)
        require(whole <= input.count, "the response's length is past the bytes read")
        if whole > 0 {
            require(responseLength(Array(input[..<whole])) == whole, "the whole response is not whole when read alone")
            require(responseLength(Array(input[..<(whole - 1)])) == 0, "the response is whole one byte before its end")
        }
        guard let full = try? OutboundTransport.parse(input, sizeLimit: sizeLimit, method: "GET") else { return }
        require(full.body.count <= sizeLimit, "a body past the size limit")
        if whole > 0 {
            let read = try? OutboundTransport.parse(Array(input[..<whole]), sizeLimit: sizeLimit, method: "GET")
            require(read.map { same($0, full) } == true, "stopping where the C transport stops changes the response")
        }
        let chunked = OutboundTransport.isChunked(full.headers)
        if !chunked, ![204, 304].contains(full.status), let declared = full.headers["content-length"] {
            require(Int(declared) == full.body.count, "a Content-Length body of another length")
        }
        if chunked {
            let step = Int(input.first ?? 0) % 7 + 1
            var encoded: [UInt8] = []
            var index = 0
            while index < full.body.count {
                let end = min(index + step, full.body.count)
                encoded += Array(String(end - index, radix: 16).utf8) + [13, 10] + full.body[index..<end] + [13, 10]
                index = end
            }
            encoded += Array("0\r\n\r\n".utf8)
            let decoded = try? OutboundTransport.dechunk(encoded, sizeLimit: sizeLimit)
            require(decoded == full.body, "a chunked body decodes otherwise when chunked again")
            let head = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            require(responseLength(head + encoded) == head.count + encoded.count, "a chunked body chunked again is not whole")
        }
    }

    static func responseLength(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { Int(signet_outbound_response_length($0.baseAddress, $0.count)) }
    }

    static func same(_ a: OutboundResponse, _ b: OutboundResponse) -> Bool {
        a.status == b.status && a.headers == b.headers && a.body == b.body
    }
}
