import Foundation

/// A colour of the brand, `#rrggbb`, with the arithmetic that keeps text readable on it: WCAG 2.2
/// relative luminance and contrast ratio, and mixing toward black or white until a contrast is met.
public struct BrandColor: Sendable, Equatable, CustomStringConvertible {
    /// The red, green and blue channels.
    public let red: UInt8, green: UInt8, blue: UInt8

    /// Signet's own blue, the default primary colour.
    public static let signetBlue = BrandColor(red: 0x24, green: 0x56, blue: 0xc9)
    /// White, the card of the light pages.
    public static let white = BrandColor(red: 0xff, green: 0xff, blue: 0xff)
    /// The near-black text of the light pages.
    public static let ink = BrandColor(red: 0x1d, green: 0x23, blue: 0x30)
    /// The card of the dark pages.
    public static let darkCard = BrandColor(red: 0x1a, green: 0x1e, blue: 0x24)

    init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (either case); nil for anything else (`red`, `#abc`, `url(…)`).
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        var channels: [UInt8] = []
        for index in stride(from: 1, to: 7, by: 2) {
            guard let high = Self.nibble(bytes[index]), let low = Self.nibble(bytes[index + 1]) else { return nil }
            channels.append(high << 4 | low)
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#rrggbb` in lower case: safe to write into CSS and HTML as it is.
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// WCAG 2.2 relative luminance (sRGB channels linearised).
    public var luminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.2 contrast ratio, 1 to 21.
    public func contrast(with other: BrandColor) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// This colour mixed with `other`: 0 is this colour, 1 is `other`.
    func mixed(with other: BrandColor, _ amount: Double) -> BrandColor {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * amount).rounded()) }
        return BrandColor(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
    }

    /// This colour, mixed toward `target` in 5 % steps until its contrast with `background` is at
    /// least `ratio` (`target` itself if no step reaches it).
    public func readable(on background: BrandColor, ratio: Double = 4.5, toward target: BrandColor) -> BrandColor {
        for step in 0...20 {
            let candidate = mixed(with: target, Double(step) / 20)
            if candidate.contrast(with: background) >= ratio { return candidate }
        }
        return target
    }

    /// White or near-black, whichever is the more readable text on this colour.
    public var textOn: BrandColor {
        let dark = BrandColor(red: 0x11, green: 0x14, blue: 0x18)
        return contrast(with: .white) >= contrast(with: dark) ? .white : dark
    }
}
