#include "SQLiteProcessSettings.h"
#include <sqlite3.h>

int sqlite_process_settings_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
