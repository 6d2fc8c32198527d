#include "signet_sqlite_shims.h"

sqlite3_destructor_type signet_sqlite_transient(void) { return SQLITE_TRANSIENT; }
