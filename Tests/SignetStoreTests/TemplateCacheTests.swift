import SignetSQL
import SignetTesting
import Testing

/// `TemplateCache`: a template's value is found by the literal's address, an equal string built at
/// run time finds the same value by its text, and the cache grows with the templates, not the calls.
@Suite("TemplateCache: values per statement template", .endToEndLimit)
struct TemplateCacheTests {
    static let select = "SELECT token_hash, grant_id FROM refresh_tokens WHERE token_hash = $1"
    static let update = "UPDATE refresh_tokens SET consumed_at = $1 WHERE token_hash = $2"

    @Test func aLiteralAndAnEqualBuiltStringFindTheSameValue() {
        var cache = TemplateCache<Int>()
        #expect(cache[Self.select] == nil)
        cache.insert(1, for: Self.select)
        cache.insert(2, for: Self.update)
        #expect(cache[Self.select] == 1)
        #expect(cache[Self.update] == 2)
        for _ in 0..<100 {
            // A new string with its own buffer, equal to the literal.
            let built = String(decoding: Array(Self.select.utf8), as: UTF8.self)
            #expect(cache[built] == 1)
        }
        #expect(cache.count == 2)
        #expect(cache.values.sorted() == [1, 2])
    }

    @Test func aBuiltTemplateIsKeptByItsTextOnce() {
        var cache = TemplateCache<String>()
        let first = "SELECT v FROM t WHERE k IN (" + Array(repeating: "?", count: 3).joined(separator: ", ") + ")"
        cache.insert("s1", for: first)
        let again = "SELECT v FROM t WHERE k IN (" + Array(repeating: "?", count: 3).joined(separator: ", ") + ")"
        #expect(cache[again] == "s1")
        #expect(cache["SELECT v FROM t WHERE k IN (?, ?)"] == nil)
        #expect(cache.count == 1)
    }

    @Test func shortTemplatesAreKeptByText() {
        var cache = TemplateCache<Int>()
        cache.insert(7, for: "BEGIN")
        cache.insert(8, for: "COMMIT")
        #expect(cache["BEGIN"] == 7)
        #expect(cache[String("COMMIT".reversed().reversed())] == 8)
        #expect(cache["ROLLBACK"] == nil)
        #expect(cache.count == 2)
    }
}
