// Memory budget for big allocations: every loader, encoder and size from a file or a flag is
// checked against it BEFORE allocating, so a huge size becomes a message naming the field (or
// column, or feature index) and the memory it would need instead of "std::bad_alloc" or the
// kernel's OOM killer.
//
// The budget (one rule for the CLI, the GUI and the tests):
// - set explicitly (dplab-cli --max-memory, set_memory_limit_bytes), or else
// - kDefaultAvailableShare (half) of the memory the kernel said was AVAILABLE when the process
//   started (Linux /proc/meminfo "MemAvailable": free memory plus reclaimable caches), read once,
//   before main(); or half of the physical memory where MemAvailable is unknown.
// Half, because an estimate counts the data's own copies, not the rest of the process (model,
// optimizer state, the GUI) nor other programs that start later. Once: MemAvailable read at each
// check shrinks by what dplab itself holds, so a run that had loaded 9 GB was refused its next
// buffer against a budget that had fallen to 7.5 GB (issue #45 item 12); the budget is a fixed
// promise for the whole run.
#pragma once

#include <optional>
#include <string>

namespace dplab {

// Share of the available memory the default budget allows.
inline constexpr double kDefaultAvailableShare = 0.5;

// Physical memory of this machine in bytes (0 if unknown).
double physical_memory_bytes();

// MemAvailable from /proc/meminfo in bytes (0 if unknown, e.g. not Linux).
double available_memory_bytes();

// Sets the budget require_memory checks against (--max-memory; the fuzzers and tests lower it);
// 0 restores the default (see above). Not thread-safe: call before any work starts.
void set_memory_limit_bytes(double bytes);

// The default budget: kDefaultAvailableShare of MemAvailable at process start (see above), the
// same value at every call; 0 if nothing is known about this machine's memory.
double default_memory_budget_bytes();

// The budget in bytes: the one set by set_memory_limit_bytes, else the default.
double memory_budget_bytes();

// What the budget is, for messages: "the memory budget is 1.0 GB (--max-memory)" or "... is
// 7.9 GB (half of the 15.8 GB available at start; change it with --max-memory)".
std::string memory_budget_description();

// "4G", "512M", "2.5GB", "1500000000", "800 MiB" -> bytes (K/M/G/T are powers of 1000, KiB/MiB/
// GiB/TiB of 1024; no unit = bytes). nullopt for anything else, zero, negative or non-finite.
std::optional<double> parse_memory_size(const std::string& text);

// "1.5 GB", "512 MB", "2.3 TB", "1e+21 bytes" (powers of 1000, one decimal).
std::string format_bytes(double bytes);

// Throws InvalidArgument "<what> would need <bytes> of memory; <budget description>" when
// `bytes` exceeds the budget (or is not finite). `what` names the field, flag, column or index,
// e.g. "model.hidden_units = 4294967297 (the weight matrix)".
void require_memory(const std::string& what, double bytes);

}  // namespace dplab
