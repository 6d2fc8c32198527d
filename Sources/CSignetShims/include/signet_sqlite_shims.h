#pragma once
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer.
sqlite3_destructor_type signet_sqlite_transient(void);

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes before returning, so a Swift
/// String's temporary C buffer may die right after the call.
int signet_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int byteCount);

/// sqlite3_bind_blob with SQLITE_TRANSIENT (see signet_sqlite_bind_text). A zero-length blob binds
/// as an empty blob, not NULL.
int signet_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int byteCount);

/// Extended result codes are compound macros Swift does not import.
int signet_sqlite_constraint_unique(void);
int signet_sqlite_constraint_primarykey(void);
int signet_sqlite_constraint_foreignkey(void);
