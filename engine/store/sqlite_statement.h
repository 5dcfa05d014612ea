// The store's thin layer over SQLite's C API (internal to store/): a prepared statement that
// finalises itself, binds NaN as NULL and reads NULL back as NaN, and turns every SQLite failure
// into a dplab::IoError naming the file and SQLite's message with what it means for the user.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace dplab::store {

// SQLite's message plus what it means for the user: "database or disk is full (disk full)".
std::string describe(sqlite3* db);

// Runs `sql` (statements without results); throws IoError "<path>: SQLite: <message> (<what it
// means>)" on failure.
void execute(sqlite3* db, const std::string& path, const char* sql);

// A prepared statement with RAII finalisation; errors name the file and SQLite's message.
class Statement {
 public:
  // `path` is the database file named in errors; it must outlive the statement.
  Statement(sqlite3* db, const std::string& path, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, double v);  // NaN is stored as NULL (see real())
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, std::string_view v);  // copied by SQLite
  // A vector of doubles as a BLOB of their bytes (IEEE 754, this machine's byte order); an empty
  // vector as NULL. reals() reads it back (NULL or an empty BLOB: empty).
  Statement& bind(int i, const std::vector<double>& v);
  // The same for floats (a trained model's parameters); floats() reads them back.
  Statement& bind(int i, const std::vector<float>& v);
  // True while rows come; false when done.
  bool step();
  void run() {
    while (step()) {
    }
  }
  void reset();                // for the next row: bindings cleared
  double real(int col) const;  // NULL reads as NaN
  std::int64_t integer(int col) const;
  std::string text(int col) const;  // NULL reads as ""
  std::vector<double> reals(int col) const;
  std::vector<float> floats(int col) const;
  bool is_null(int col) const;

 private:
  void check(int rc);
  [[noreturn]] void fail(const char* what) const;
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace dplab::store
