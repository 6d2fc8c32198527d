/// Statement templates made from a table's column list, so that a statement's parameters are
/// counted in one place, not by hand beside each list.
enum SQLTemplate {
    /// `INSERT INTO table (columns) VALUES ($1, …, $n)`: one parameter a column, in order.
    static func insert(into table: String, _ columns: String) -> String {
        let count = columns.split(separator: ",").count
        return "INSERT INTO \(table) (\(columns)) VALUES (" + (1...count).map { "$\($0)" }.joined(separator: ", ") + ")"
    }

    /// `INSERT INTO table (columns) VALUES (…), (…), …`: `rows` rows of one parameter a column,
    /// numbered row after row (a bulk load's multi-row insert).
    static func insert(into table: String, _ columns: String, rows: Int) -> String {
        let count = columns.split(separator: ",").count
        let tuple = "(" + (1...count).map { "$\($0)" }.joined(separator: ", ") + ")"
        return insert(into: table, columns, tuple: tuple, rows: rows)
    }

    /// `INSERT INTO table (columns) VALUES tuple, tuple, …`: `rows` copies of `tuple`, a row's
    /// expressions over its parameters `$1` … `$n` (n = the columns), renumbered row after row
    /// (`$1` of the second row is `$(n + 1)`), so a row may use a parameter twice or in a subquery.
    static func insert(into table: String, _ columns: String, tuple: String, rows: Int) -> String {
        let count = columns.split(separator: ",").count
        let tuples = (0..<max(1, rows)).map { row in renumbered(tuple, by: row * count) }
        return "INSERT INTO \(table) (\(columns)) VALUES " + tuples.joined(separator: ", ")
    }

    /// `template` with every parameter `$k` replaced by `$(k + offset)`.
    private static func renumbered(_ template: String, by offset: Int) -> String {
        guard offset > 0 else { return template }
        var output = ""
        var characters = template[...]
        while let next = characters.first {
            characters = characters.dropFirst()
            output.append(next)
            guard next == "$" else { continue }
            let digits = characters.prefix { $0.isASCII && $0.isNumber }
            guard let number = Int(digits) else { continue }
            output += String(number + offset)
            characters = characters.dropFirst(digits.count)
        }
        return output
    }
}
