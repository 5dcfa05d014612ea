// libFuzzer harness: a hostile SQLite file opened as a run history (store/store.h): what
// `history list/show/export`, `history merge` and the GUI's History tab open, and what a shard
// store copied from another machine is. Opening it and reading every run (the list, each run's
// results with curves, its summaries, attempts and spent budget) must give values or a
// dplab::Error, never a crash, a sanitizer report, a hang or an allocation the file's size does
// not justify.
//
//   byte 0   bit 0: open read-only (history list/show; else read-write: migrations and the
//            interrupted-run repair write to it)
//   rest     the file (seeds: small stores with 512-byte pages, tests/fuzz/corpus/store/)
//
// The file lives on tmpfs (fuzz_input_file.h) and its -wal / -shm files are removed before each
// input, so runs do not see each other's state.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fuzz_input_file.h"
#include "store/attempt_charges.h"
#include "store/store.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string path = dplab::fuzz::input_path("history.sqlite");
  ::unlink((path + "-wal").c_str());
  ::unlink((path + "-shm").c_str());
  (void)dplab::fuzz::write_input("history.sqlite", data + 1, size - 1);
  dplab::store::StoreOptions options;
  options.read_only = (data[0] & 1) != 0;
  options.busy_timeout_ms = 0;
  try {
    dplab::store::Store store(path, options);
    const auto runs = store.list_experiments();
    for (std::size_t i = 0; i < runs.size() && i < 4; ++i) {
      const std::int64_t id = runs[i].id;
      try {
        const auto results = store.load_results(id, true);
        (void)results;
      } catch (const dplab::Error&) {
      }
      try {
        (void)store.load_summary(id, "cluster_shard");
        (void)store.stored_jobs(id);
        (void)store.stored_results(id);
        (void)store.attempts(id);
        (void)store.spent_budget(id);
      } catch (const dplab::Error&) {
      }
    }
  } catch (const dplab::Error&) {
  }
  return 0;
}
