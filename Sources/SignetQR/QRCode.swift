import CLibQREncode
import Foundation

/// A QR code made by libqrencode (Debian's libqrencode-dev): the module grid, and the two
/// drawings Signet needs, SVG for pages and PGM for the tests' decoder.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let width: Int
    /// Row by row, true for a dark module.
    public let modules: [Bool]

    /// Encodes `text` as bytes (8-bit mode, case kept) with error correction level M (15%);
    /// nil when it does not fit in a QR code (more than about 2,300 bytes) or libqrencode fails.
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        self.width = width
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits say what it is part of.
        self.modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
    }

    /// Whether the module at (`x`, `y`) is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * width + x] }

    /// The quiet zone around the code, in modules (ISO/IEC 18004: four).
    public static let quietZone = 4

    /// An SVG drawing: dark modules on a white square with the quiet zone, one path, scaled by
    /// the page (`width`/`height` 100%). Dark on light in dark mode too, as scanners expect.
    public func svg(title: String) -> String {
        let side = width + 2 * Self.quietZone
        var path = ""
        for y in 0..<width {
            var x = 0
            while x < width {
                guard isDark(x: x, y: y) else { x += 1; continue }
                var run = 1
                while x + run < width && isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + Self.quietZone) \(y + Self.quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let escapedTitle = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" width=\"100%\" height=\"100%\" "
            + "role=\"img\" shape-rendering=\"crispEdges\"><title>\(escapedTitle)</title>"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// A binary PGM image (netpbm P5), `scale` pixels per module, with the quiet zone.
    public func pgm(scale: Int = 4) -> [UInt8] {
        let side = (width + 2 * Self.quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<width {
            for x in 0..<width where isDark(x: x, y: y) {
                for dy in 0..<scale {
                    let row = ((y + Self.quietZone) * scale + dy) * side
                    for dx in 0..<scale { pixels[row + (x + Self.quietZone) * scale + dx] = 0 }
                }
            }
        }
        return Array("P5\n\(side) \(side)\n255\n".utf8) + pixels
    }
}
