import Foundation
import SignetCrypto

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
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"), let channels = Hex.decode(bytes[1...]) else { return nil }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// `#rrggbb` in lower case: safe to write into CSS and HTML as it is.
    public var description: String {
        "#" + Hex.encode([red, green, blue])
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
