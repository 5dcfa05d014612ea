// Writer identity from /proc (Linux). See writer_identity.h.
#include "store/writer_identity.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace dplab::store {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Field 22 (starttime) of /proc/PID/stat; -1 if the process does not exist.
std::int64_t process_start_ticks(std::int64_t pid) {
  const std::string stat = first_line("/proc/" + std::to_string(pid) + "/stat");
  // The command name (field 2) is in parentheses and may contain spaces: skip past the last ')'.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int k = 3; k <= 22 && fields >> field; ++k) {
    if (k == 3 && (field == "Z" || field == "X")) return -1;  // a zombie is a dead writer
    if (k == 22) {
      try {
        return std::stoll(field);
      } catch (const std::exception&) {
        return -1;
      }
    }
  }
  return -1;
}

std::string host_name() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0) return "";
  return buffer;
}

}  // namespace

WriterIdentity current_writer() {
  WriterIdentity w;
  w.host = host_name();
  w.boot_id = first_line("/proc/sys/kernel/random/boot_id");
  w.pid = getpid();
  w.start_ticks = process_start_ticks(w.pid);
  return w;
}

WriterState writer_state(const WriterIdentity& writer) {
  if (writer.pid <= 0 || writer.host.empty() || writer.boot_id.empty())
    return WriterState::kUnknown;
  const WriterIdentity me = current_writer();
  if (writer.host != me.host) return WriterState::kUnknown;
  if (writer.boot_id != me.boot_id) return WriterState::kGone;  // the machine rebooted since
  const std::int64_t start = process_start_ticks(writer.pid);
  if (start < 0 || start != writer.start_ticks) return WriterState::kGone;
  return WriterState::kAlive;
}

}  // namespace dplab::store
