// The store's one write transaction (internal to store/): BEGIN IMMEDIATE when constructed, an
// explicit commit(), and a ROLLBACK in the destructor when commit() was not reached - so a write
// that throws half-way (SQLITE_FULL, a constraint, a bad value) leaves no partial rows behind and
// the connection usable for the next write. The destructor never throws.
#pragma once

#include <string>

struct sqlite3;

namespace dplab::store {

class Transaction {
 public:
  // BEGIN IMMEDIATE: takes the write lock now (waiting up to the busy timeout), so the writes
  // inside never fail half-way on a lock. Throws IoError "<path>: SQLite: <message>" (execute).
  // `path` names the database in errors; it must outlive the transaction.
  Transaction(sqlite3* db, const std::string& path);
  // Rolls back unless committed; errors of the rollback are ignored (nothing to report them to).
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // COMMIT; throws IoError as execute does, and then the destructor rolls back.
  void commit();

 private:
  sqlite3* db_;
  const std::string& path_;
  bool committed_ = false;
};

}  // namespace dplab::store
