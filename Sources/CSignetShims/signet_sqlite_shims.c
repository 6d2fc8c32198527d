#include "signet_sqlite_shims.h"

sqlite3_destructor_type signet_sqlite_transient(void) { return SQLITE_TRANSIENT; }

int signet_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int byteCount) {
    return sqlite3_bind_text(stmt, index, text, byteCount, SQLITE_TRANSIENT);
}

int signet_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int byteCount) {
    if (byteCount == 0) return sqlite3_bind_zeroblob(stmt, index, 0);
    return sqlite3_bind_blob(stmt, index, bytes, byteCount, SQLITE_TRANSIENT);
}

int signet_sqlite_constraint_unique(void) { return SQLITE_CONSTRAINT_UNIQUE; }
int signet_sqlite_constraint_primarykey(void) { return SQLITE_CONSTRAINT_PRIMARYKEY; }
int signet_sqlite_constraint_foreignkey(void) { return SQLITE_CONSTRAINT_FOREIGNKEY; }
