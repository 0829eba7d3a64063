/* SQLite (libsqlite3.so.0), opened when the inbox is first opened: encode never needs it,
 * and its 1,600 symbol bindings cost every process that loads it. The functions
 * Database+sqlite.swift calls. */
#include <sqlite3.h>
#include "lazy.h"

#define SQLITE_FUNCTIONS(F, V)                                                                \
    F(const char *, sqlite3_libversion, (void), (), NULL)                                     \
    F(int, sqlite3_open_v2, (const char *filename, sqlite3 **db, int flags, const char *vfs), \
      (filename, db, flags, vfs), SQLITE_CANTOPEN)                                            \
    F(int, sqlite3_close_v2, (sqlite3 *db), (db), SQLITE_MISUSE)                              \
    F(int, sqlite3_extended_result_codes, (sqlite3 *db, int onoff), (db, onoff), SQLITE_MISUSE) \
    F(int, sqlite3_busy_timeout, (sqlite3 *db, int ms), (db, ms), SQLITE_MISUSE)              \
    F(int, sqlite3_db_readonly, (sqlite3 *db, const char *name), (db, name), -1)              \
    F(const char *, sqlite3_errmsg, (sqlite3 *db), (db), "SQLite is not loaded")              \
    F(int, sqlite3_exec, (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), \
                          void *argument, char **errmsg), (db, sql, callback, argument, errmsg), SQLITE_MISUSE) \
    V(sqlite3_free, (void *pointer), (pointer))                                               \
    F(int, sqlite3_changes, (sqlite3 *db), (db), 0)                                           \
    F(sqlite3_int64, sqlite3_last_insert_rowid, (sqlite3 *db), (db), 0)                       \
    F(int, sqlite3_create_function_v2,                                                        \
      (sqlite3 *db, const char *name, int nArg, int eTextRep, void *app,                      \
       void (*xFunc)(sqlite3_context *, int, sqlite3_value **),                               \
       void (*xStep)(sqlite3_context *, int, sqlite3_value **), void (*xFinal)(sqlite3_context *), \
       void (*xDestroy)(void *)),                                                             \
      (db, name, nArg, eTextRep, app, xFunc, xStep, xFinal, xDestroy), SQLITE_MISUSE)         \
    V(sqlite3_result_int, (sqlite3_context *context, int value), (context, value))            \
    F(const unsigned char *, sqlite3_value_text, (sqlite3_value *value), (value), NULL)       \
    F(int, sqlite3_value_bytes, (sqlite3_value *value), (value), 0)                           \
    F(int, sqlite3_prepare_v2, (sqlite3 *db, const char *sql, int nByte, sqlite3_stmt **statement, \
                                const char **tail), (db, sql, nByte, statement, tail), SQLITE_MISUSE) \
    F(int, sqlite3_finalize, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)           \
    F(int, sqlite3_reset, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)              \
    F(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)     \
    F(int, sqlite3_step, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)               \
    F(int, sqlite3_bind_null, (sqlite3_stmt *statement, int index), (statement, index), SQLITE_MISUSE) \
    F(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value),     \
      (statement, index, value), SQLITE_MISUSE)                                               \
    F(int, sqlite3_bind_text, (sqlite3_stmt *statement, int index, const char *text, int n,   \
                               void (*destructor)(void *)), (statement, index, text, n, destructor), SQLITE_MISUSE) \
    F(int, sqlite3_bind_blob, (sqlite3_stmt *statement, int index, const void *blob, int n,   \
                               void (*destructor)(void *)), (statement, index, blob, n, destructor), SQLITE_MISUSE) \
    F(int, sqlite3_column_count, (sqlite3_stmt *statement), (statement), 0)                   \
    F(int, sqlite3_column_type, (sqlite3_stmt *statement, int column), (statement, column), SQLITE_NULL) \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column), (statement, column), NULL) \
    F(const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int column), (statement, column), NULL) \
    F(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column), 0)

QRSEAL_LAZY_LIBRARY(qrseal_lazy_sqlite, "libsqlite3.so.0", SQLITE_FUNCTIONS)
