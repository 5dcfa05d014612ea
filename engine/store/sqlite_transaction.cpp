#include "store/sqlite_transaction.h"

#include <sqlite3.h>

#include "store/sqlite_statement.h"

namespace dplab::store {

Transaction::Transaction(sqlite3* db, const std::string& path) : db_(db), path_(path) {
  execute(db_, path_, "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  // SQLite may already have rolled back by itself (after some I/O or full-disk errors): then the
  // connection is in autocommit mode and there is nothing to undo.
  if (!committed_ && !sqlite3_get_autocommit(db_))
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  execute(db_, path_, "COMMIT");
  committed_ = true;
}

}  // namespace dplab::store
