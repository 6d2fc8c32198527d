/// Values kept per statement template (a connection's prepared statements, the metrics recorder
/// of a statement), found without hashing the template's text.
///
/// Statements are string literals, so a template arrives as the same immortal string every time,
/// and the address and length of its UTF-8 bytes name it. A lookup hashes those two words instead
/// of the whole text (a rotation runs five statements of 100–400 bytes, and hashing them for two
/// text-keyed lookups each was about 2 % of its instructions, bench/README.md "Session 15
/// (lead)"). An entry found by address is used only if its template equals the one asked for,
/// which for the same literal is one comparison of the two strings' bits (an entry holds its
/// string, so those bytes stay where they are while it is kept). Small strings (15 bytes or
/// fewer) have no address of their own and are found by their text.
///
/// Inlinable, so that each backend's use is specialized: called through the generic entry points
/// from another module, a lookup cost 3,500 instructions of value-witness calls.
public struct TemplateCache<Value> {
    @usableFromInline struct Address: Hashable {
        @usableFromInline let start: UnsafeRawPointer
        @usableFromInline let count: Int

        @inlinable init(start: UnsafeRawPointer, count: Int) {
            self.start = start
            self.count = count
        }
    }

    /// The first string seen of each template, by address, with its value.
    @usableFromInline var byAddress: [Address: (template: String, value: Value)] = [:]
    /// Every template's value, by text: the whole cache, bounded by the templates.
    @usableFromInline var byText: [String: Value] = [:]

    /// An empty cache.
    @inlinable public init() {}

    /// Every value in the cache.
    @inlinable public var values: Dictionary<String, Value>.Values { byText.values }

    /// How many templates have a value.
    @inlinable public var count: Int { byText.count }

    /// The value kept for `template`, if any.
    @inlinable public subscript(template: String) -> Value? {
        if let address = Self.address(of: template), let entry = byAddress[address], entry.template == template {
            return entry.value
        }
        return byText[template]
    }

    /// Keeps `value` for `template`, which has none yet (a value is kept once). Only the first
    /// string of a template is found by its address; an equal one built at run time is found by
    /// its text, so the cache grows with the templates, never with the calls.
    @inlinable public mutating func insert(_ value: Value, for template: String) {
        assert(byText[template] == nil, "a template's value is kept once")
        byText[template] = value
        // The entry holds its string, so no other string can be at that address while it is kept.
        if let address = Self.address(of: template), byAddress[address] == nil { byAddress[address] = (template, value) }
    }

    /// Where `template`'s UTF-8 bytes are, for a string that has its own storage.
    @inlinable static func address(of template: String) -> Address? {
        let count = template.utf8.count
        guard count > 15 else { return nil }
        return template.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { Address(start: UnsafeRawPointer($0), count: count) }
        } ?? nil
    }
}
