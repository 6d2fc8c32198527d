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
        let tuples = (0..<max(1, rows)).map { row in
            "(" + (1...count).map { "$\(row * count + $0)" }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO \(table) (\(columns)) VALUES " + tuples.joined(separator: ", ")
    }
}
