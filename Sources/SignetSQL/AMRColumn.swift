import Foundation
import SignetStore

/// A code's `amr` as `authorization_codes.payload` holds it: `{"amr":[...]}`, the JSON the column
/// has carried since migration 1. The compact form this writes is read without a Foundation
/// decoder (`StringList`); any other JSON is decoded. Decoding never fails: a payload without
/// `amr`, or not JSON, is no method, as the token endpoint has always read it.
enum AMRColumn {
    private static let prefix = "{\"amr\":"
    private struct Payload: Decodable { var amr: [String]? }

    static func encode(_ amr: [String]) throws -> String {
        prefix + (try StringList.json(amr)) + "}"
    }

    static func decode(_ payload: String) -> [String] {
        if payload.hasPrefix(prefix), payload.hasSuffix("}"),
           let amr = try? StringList.decode(String(payload.dropFirst(prefix.count).dropLast()), column: "payload") {
            return amr
        }
        return (try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)))?.amr ?? []
    }
}
