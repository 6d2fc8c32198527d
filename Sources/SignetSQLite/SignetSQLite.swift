// SignetSQLite: filled in by its owner.
