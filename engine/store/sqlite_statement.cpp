#include "store/sqlite_statement.h"

#include <sqlite3.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"

namespace dplab::store {

std::string describe(sqlite3* db) {
  std::string text = sqlite3_errmsg(db);
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_FULL:
      text += " (disk full)";
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      text += " (another process holds the lock)";
      break;
    case SQLITE_READONLY:
      text += " (read-only file or folder)";
      break;
    case SQLITE_IOERR:
      text += " (I/O error)";
      break;
    default:
      break;
  }
  return text;
}

void execute(sqlite3* db, const std::string& path, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    const std::string meaning = describe(db);
    if (const auto at = meaning.rfind(" ("); at != std::string::npos) text += meaning.substr(at);
    throw IoError(path + ": SQLite: " + text);
  }
}

Statement::Statement(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
  if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int i, double v) {
  // SQLite stores NaN as NULL; NULL reads back as NaN (see real()).
  check(std::isnan(v) ? sqlite3_bind_null(stmt_, i) : sqlite3_bind_double(stmt_, i, v));
  return *this;
}

Statement& Statement::bind(int i, std::int64_t v) {
  check(sqlite3_bind_int64(stmt_, i, v));
  return *this;
}

Statement& Statement::bind(int i, std::string_view v) {
  // An empty view may carry no pointer, which SQLite would bind as NULL: bind "" as text.
  const char* data = v.data() ? v.data() : "";
  check(sqlite3_bind_text(stmt_, i, data, static_cast<int>(v.size()), SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind(int i, const std::vector<double>& v) {
  if (v.empty()) {
    check(sqlite3_bind_null(stmt_, i));
  } else {
    check(sqlite3_bind_blob64(stmt_, i, v.data(), v.size() * sizeof(double), SQLITE_TRANSIENT));
  }
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail("step");
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

double Statement::real(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL ? std::numeric_limits<double>::quiet_NaN()
                                                        : sqlite3_column_double(stmt_, col);
}

std::int64_t Statement::integer(int col) const {
  return sqlite3_column_int64(stmt_, col);
}

std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
}

std::vector<double> Statement::reals(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col));
  std::vector<double> out(p ? bytes / sizeof(double) : 0);
  if (!out.empty()) std::memcpy(out.data(), p, out.size() * sizeof(double));
  return out;
}

Statement& Statement::bind(int i, const std::vector<float>& v) {
  if (v.empty()) {
    check(sqlite3_bind_null(stmt_, i));
  } else {
    check(sqlite3_bind_blob64(stmt_, i, v.data(), v.size() * sizeof(float), SQLITE_TRANSIENT));
  }
  return *this;
}

std::vector<float> Statement::floats(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col));
  std::vector<float> out(p ? bytes / sizeof(float) : 0);
  if (!out.empty()) std::memcpy(out.data(), p, out.size() * sizeof(float));
  return out;
}

bool Statement::is_null(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

void Statement::check(int rc) {
  if (rc != SQLITE_OK) fail("bind");
}

void Statement::fail(const char* what) const {
  throw IoError(path_ + ": SQLite " + what + " failed: " + describe(db_));
}

}  // namespace dplab::store
