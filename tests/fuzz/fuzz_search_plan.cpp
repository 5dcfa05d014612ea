// libFuzzer harness: plan.json (cluster/search_plan.h), the file `tune --plan` writes and
// run-jobs, slurm-status and history merge read on every machine of a cluster. read_plan must
// refuse a bad plan with a dplab::Error (naming plan.json), and a plan that reads must write
// (plan_json_text) and read back to the same text and plan id.
//
//   byte 0   bit 0: give the input the plan_id its content has (the sha256 of the object without
//            "plan_id", as plan_json_text computes it), so mutations of a seed get past the id
//            check to the jobs, the draws and the round trip; bit 1: before writing it again,
//            set the plan's config_path to bytes 1..16 of the input with their high bit set (bytes
//            that are mostly not UTF-8: a Latin-1 folder name)
//   rest     plan.json
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cluster/search_plan.h"
#include "core/error.h"
#include "core/json_guard.h"
#include "core/sha256.h"
#include "fuzz_input_file.h"

namespace {

std::string plan_folder(const char* name) {
  const std::string dir = dplab::fuzz::input_path(name);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool fix_id = (data[0] & 1) != 0;
  const bool odd_path = (data[0] & 2) != 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string path_bytes = text.substr(0, 16);
  for (char& c : path_bytes) c = static_cast<char>(static_cast<unsigned char>(c) | 0x80);
  if (fix_id) {
    try {
      nlohmann::json j = dplab::parse_json_text(text, "fuzz");
      if (j.is_object()) {
        j.erase("plan_id");
        j["plan_id"] = dplab::sha256_hex(j.dump());
        text = j.dump(1) + "\n";
      }
    } catch (const dplab::Error&) {
    }
  }
  static const std::string first = plan_folder("plan-a");
  static const std::string second = plan_folder("plan-b");
  dplab::fuzz::write_file(first + "/" + dplab::cluster::kPlanFile, text);
  dplab::cluster::SearchPlan plan;
  try {
    plan = dplab::cluster::read_plan(first);
  } catch (const dplab::Error&) {
    return 0;
  }
  if (odd_path) plan.config_path = path_bytes;
  std::string written;
  try {
    written = dplab::cluster::plan_json_text(plan);
  } catch (const dplab::Error&) {
    return 0;  // refusing to write is allowed; throwing anything else is not
  }
  dplab::fuzz::write_file(second + "/" + dplab::cluster::kPlanFile, written);
  dplab::cluster::SearchPlan again;
  try {
    again = dplab::cluster::read_plan(second);
  } catch (const dplab::Error& e) {
    std::fprintf(stderr, "fuzz_search_plan: a plan that was read does not read back: %s\n",
                 e.what());
    __builtin_trap();
  }
  if (dplab::cluster::plan_json_text(again) != written || again.plan_id != plan.plan_id) {
    std::fprintf(stderr, "fuzz_search_plan: the plan read back is not the plan written\n");
    __builtin_trap();
  }
  return 0;
}
