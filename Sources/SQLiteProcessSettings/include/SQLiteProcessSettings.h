#ifndef SQLITE_PROCESS_SETTINGS_H
#define SQLITE_PROCESS_SETTINGS_H

/// SQLite's process-wide settings that FeedBench changes, in C because `sqlite3_config` is a
/// variadic function, which Swift cannot call.
///
/// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`). With them on (the library's
/// default), every allocation and free inside SQLite takes one process-wide mutex to update the
/// counters, so simulations running on several threads — each with its own in-memory feed store —
/// queue on that lock: `bench sweep --jobs 2` spent a sixth of its time waiting there. FeedBench
/// never reads the statistics (`sqlite3_memory_used`, soft heap limits).
///
/// Must run before SQLite initializes (before the first connection opens); later it changes
/// nothing. Returns SQLITE_OK (0) when the setting took effect, SQLITE_MISUSE otherwise.
int sqlite_process_settings_disable_memory_statistics(void);

#endif
