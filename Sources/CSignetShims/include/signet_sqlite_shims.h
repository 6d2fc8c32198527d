#pragma once
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer.
sqlite3_destructor_type signet_sqlite_transient(void);
