import Foundation
import SignetCrypto

/// A logo file Signet serves itself (`branding.logo_file`): at most `maximumBytes`, its type taken
/// from its first bytes, never from its name, and only an image type browsers render without
/// running anything (PNG, JPEG, WebP, or SVG, which `BrandAssets` serves with a CSP of its own).
struct LogoFile: Sendable {
    /// The largest logo accepted.
    static let maximumBytes = 256 * 1024

    /// The image types accepted, with their content type and file extension.
    enum Kind: String, Sendable {
        case png, jpeg, webp, svg

        var contentType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            case .svg: "image/svg+xml"
            }
        }
    }

    /// Why a logo file is refused.
    struct Problem: Error {
        let message: String
    }

    let kind: Kind
    let bytes: [UInt8]

    /// Reads and checks the file at `path`.
    init(contentsOf path: String) throws(Problem) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Problem(message: "cannot read the file \(path)") }
        defer { try? handle.close() }
        // One byte more than allowed tells a file that is too large without reading all of it.
        let data = (try? handle.read(upToCount: Self.maximumBytes + 1)) ?? Data()
        guard data.count <= Self.maximumBytes else {
            throw Problem(message: "the logo is larger than \(Self.maximumBytes / 1024) KiB")
        }
        try self.init(bytes: Array(data))
    }

    /// Checks `bytes` as a logo.
    init(bytes: [UInt8]) throws(Problem) {
        guard let kind = Self.kind(of: bytes) else {
            throw Problem(message: "the logo must be a PNG, JPEG, WebP or SVG image (recognised by its first bytes)")
        }
        self.kind = kind
        self.bytes = bytes
    }

    /// The image type `bytes` start with (their magic number), or nil.
    static func kind(of bytes: [UInt8]) -> Kind? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if isSVG(bytes) { return .svg }
        return nil
    }

    /// UTF-8 text whose first element is `<svg` (after a BOM, white space, an XML declaration,
    /// comments and a doctype).
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        guard var text = String(validating: bytes, as: UTF8.self)?[...] else { return false }
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!--"), let end = text.range(of: "-->") {
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!DOCTYPE"), let end = text.firstIndex(of: ">") {
                text = text[text.index(after: end)...]
            } else {
                break
            }
        }
        guard text.hasPrefix("<svg") else { return false }
        let next = text.dropFirst(4).first
        return next == nil || next == ">" || next?.isWhitespace == true
    }

    /// `/assets/logo-HASH.EXT`: the hash of the content, so a new logo is a new URL.
    var path: String {
        "/assets/logo-" + Base64URL.encode(Array(Digest.sha256(bytes).prefix(9))) + "." + kind.rawValue
    }
}
