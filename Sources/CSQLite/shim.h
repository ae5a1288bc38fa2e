#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: it tells SQLite to copy bound text.
static inline void (*livery_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
