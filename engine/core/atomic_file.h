// Output files written so that a crash, a full disk or a kill never leaves a truncated file
// where a good one stood (issue #11 item 3): the text goes to a temporary file in the same
// folder, is flushed to disk (fsync), then renamed over the target. Errors say why, with the
// system's text: "results/curves.csv: cannot write: No space left on device".
#pragma once

#include <string>

namespace dplab {

// Writes `text` to `path` atomically (temp file + fsync + rename). Throws IoError with errno text.
// A path that exists and is not a regular file (a device such as /dev/stdout or /dev/full, a
// FIFO) is written in place instead, never replaced by a rename; its write errors are reported
// the same way.
void write_file_atomically(const std::string& path, const std::string& text);

// The system's text for errno `error`, with what it means when the disk is full:
// "No space left on device (disk full)". One wording for every file and stream dplab writes.
std::string os_error_text(int error);

// The one output-folder rule of every command with --out: creates `folder` if needed and checks
// that a file can be created and written in it (a probe file, removed again). Throws
// InvalidArgument "<what>: the folder name is empty" for "" (a usage error, exit status 2), IoError
// "<what> '<folder>': <reason>" otherwise: "exists and is not a folder (a file)", "cannot use it
// as a folder: Too many levels of symbolic links", "Read-only file system", "Permission denied",
// "No space left on device". Call it before long work.
void require_writable_folder(const std::string& folder, const std::string& what);

}  // namespace dplab
