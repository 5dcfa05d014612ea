// SQLite run history: opening the file (read-write, or read-only: through an existing -shm where
// the folder cannot hold one, immutable when there is no write-ahead log to read), its
// connection settings, and statements without results.
// See store.h for the schema and the crash-safety contract; the rest of Store lives in
// store_schema.cpp (tables, migrations), store_updates.cpp (writes) and store_queries.cpp (reads);
// the statement wrapper in sqlite_statement.h; StoreWriter in store_writer.cpp.
#include "store/store.h"

#include <sqlite3.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "store/sqlite_statement.h"

namespace dplab::store {

namespace {

// A URI path: '%', '?' and '#' percent-encoded.
std::string uri_path(const std::string& path) {
  std::string escaped;
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      escaped += hex;
    } else {
      escaped += c;
    }
  }
  return escaped;
}

bool readable(const std::string& file) {
  return ::access(file.c_str(), R_OK) == 0;
}

}  // namespace

Store::Store(const std::string& path, StoreOptions options)
    : path_(path), read_only_(options.read_only) {
  if (path.empty()) {
    // SQLite opens "" as a private temporary database, deleted when closed: nothing would be
    // kept while every write reports success.
    throw InvalidArgument(
        "run history: the file name is empty (SQLite would use a temporary database that is "
        "deleted when closed, so nothing would be kept)");
  }
  // A WAL database is read through its -shm file. A folder that cannot be written cannot create
  // one: there an existing -shm is used (SQLite reads a read-only -shm), and without -wal the
  // file is opened immutable (nothing can change it on a read-only disk). A -wal that exists
  // and cannot be read is an error: opening immutable would silently miss the runs it holds.
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const bool folder_writable = !options.assume_folder_read_only &&
                               ::access(parent.empty() ? "." : parent.c_str(), W_OK) == 0;
  std::string name = path;
  if (read_only_ && !folder_writable) {
    const std::string wal = path + "-wal", shm = path + "-shm";
    std::error_code ec;
    const bool has_wal =
        std::filesystem::exists(wal, ec) && std::filesystem::file_size(wal, ec) > 0;
    if (!has_wal) {
      name = "file:" + uri_path(path) + "?immutable=1";
    } else if (!readable(wal) || !std::filesystem::exists(shm, ec) || !readable(shm)) {
      throw IoError(path + ": cannot read the run history's write-ahead log (" + wal +
                    (readable(wal) ? " needs " + shm +
                                         ", which is missing or unreadable and this "
                                         "folder cannot hold"
                                   : " is not readable") +
                    "): the runs it holds would be missing; open it where it can be written, "
                    "or give read access to both files");
    } else {
      name = "file:" + uri_path(path);
    }
  }
  const int rc = sqlite3_open_v2(name.c_str(), &db_,
                                 read_only_ ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                                            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                 nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw IoError(path + ": cannot open the run history: " + message);
  }
  try {
    sqlite3_busy_timeout(db_, options.busy_timeout_ms);
    // A damaged or hostile file (a shard store copied from another machine): SQLite checks each
    // B-tree cell's size as it reads it, so the damage is an error (SQLITE_CORRUPT: an IoError
    // naming the file) as soon as a query meets it. Without the check, listing the runs of a
    // 19 KB file with one damaged page (tests/fuzz/corpus/store/timeout-damaged-page, found by
    // tests/fuzz/fuzz_store.cpp) ran for more than a minute instead of failing.
    exec("PRAGMA cell_size_check = ON");
    if (read_only_) {
      migrate();  // only checks the schema
      return;
    }
    exec("PRAGMA foreign_keys = ON");
    exec("PRAGMA journal_mode = WAL");
    // WAL + NORMAL: a committed transaction survives a process crash or kill (not a power cut).
    exec("PRAGMA synchronous = NORMAL");
    if (options.max_page_count > 0) {
      exec(("PRAGMA max_page_count = " + std::to_string(options.max_page_count)).c_str());
    }
    migrate();
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
  // Stale runs: best effort (a busy database must not make opening fail).
  try {
    mark_interrupted_runs();
  } catch (const Error&) {
  }
}

Store::~Store() {
  sqlite3_close(db_);
}

void Store::exec(const char* sql) const {
  execute(db_, path_, sql);
}

}  // namespace dplab::store
