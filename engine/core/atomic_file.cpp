// See atomic_file.h.
#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.h"

namespace dplab {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw IoError(path + ": " + what + ": " + os_error_text(error));
}

// Writes all of `text` to `fd`; returns 0 or errno.
int write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return 0;
}

// A device or FIFO named as output: written in place (a rename would replace the node).
void write_in_place(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open for writing", errno);
  int error = write_all(fd, text);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) fail(path, "cannot write", error);
}

}  // namespace

std::string os_error_text(int error) {
  std::string text = std::strerror(error);
  if (error == ENOSPC || error == EDQUOT) text += " (disk full)";
  return text;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  std::error_code ec;
  const auto status = std::filesystem::status(target, ec);
  if (!ec && std::filesystem::exists(status)) {
    if (std::filesystem::is_directory(status)) fail(path, "cannot write", EISDIR);
    if (!std::filesystem::is_regular_file(status)) return write_in_place(path, text);
  }
  if (target.has_parent_path()) {
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec)
      throw IoError(target.parent_path().string() + ": cannot create the folder: " + ec.message());
  }
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, "cannot create a temporary file beside it", errno);
  int error = write_all(fd, text);
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  // mkstemp makes 0600; outputs are ordinary readable files.
  if (error == 0 && ::chmod(temp.c_str(), 0644) != 0) error = errno;
  if (error == 0 && ::rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temp.c_str());
    fail(path, "cannot write", error);
  }
}

void require_writable_folder(const std::string& folder, const std::string& what) {
  // One output-folder rule for every command (issue #45 item 10): each problem is named here,
  // before any work, never as std::filesystem's "internal error: filesystem error" afterwards.
  if (folder.empty())
    throw InvalidArgument(what + ": the folder name is empty (give a folder, e.g. " + what +
                          " results)");
  std::error_code ec;
  const auto status = std::filesystem::status(folder, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)  // a symlink loop, a file as a parent...
    throw IoError(what + " '" + folder + "': cannot use it as a folder: " + ec.message());
  if (std::filesystem::exists(status) && !std::filesystem::is_directory(status))
    throw IoError(what + " '" + folder + "': exists and is not a folder (" +
                  (std::filesystem::is_regular_file(status) ? "a file" : "not a regular folder") +
                  "); give a folder, or remove it");
  std::filesystem::create_directories(folder, ec);
  if (ec) throw IoError(what + " '" + folder + "': cannot create the folder: " + ec.message());
  if (!std::filesystem::is_directory(folder, ec))
    throw IoError(what + " '" + folder + "': not a folder");
  std::string probe = (std::filesystem::path(folder) / ".dplab-write-test-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    throw IoError(what + " '" + folder + "': cannot write there: " + os_error_text(errno));
  // A byte and an fsync: a full disk fails here, not after an hour of training.
  int error = write_all(fd, std::string(4096, '\n'));
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  ::close(fd);
  ::unlink(probe.c_str());
  if (error != 0)
    throw IoError(what + " '" + folder + "': cannot write there: " + os_error_text(error));
}

}  // namespace dplab
