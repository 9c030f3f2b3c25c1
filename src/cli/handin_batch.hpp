#pragma once
// `arena handin batch GAME DIR`: a cohort's hand-ins, each checked by a child `arena handin
// check` (or `grade`), remembered by content hash so a rerun redoes only what changed.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/handin_smoke.hpp"
#include "sandbox/sandbox.hpp"

namespace arena::cli {

struct BatchOptions {
  std::string game;
  std::filesystem::path dir, out;
  int jobs = 0;  // 0: what the sandbox's core rule allows
  bool grade = false;
  int move_time_ms = 0;
  int smoke_plies = kDefaultSmokePlies;
  std::string levels;  // with grade: the levels to play; "": grade's default
  SandboxMode sandbox = SandboxMode::Auto;
  int build_timeout_s = 300;
  int build_cpu_s = 600;
  double build_memory_mb = 2048;
  int build_processes = 256;
  double log_limit_mb = 4;
  std::string forbid_flags;
  int student_timeout_s = 3600;

  // Everything that can change a verdict: a rerun with other values redoes every hand-in.
  nlohmann::json verdict_options() const;
  // The child's command line after `arena`: `handin check|grade GAME PATH --out OUT --json ...`.
  std::vector<std::string> child_arguments(const std::filesystem::path& input,
                                           const std::filesystem::path& out) const;
};

// One entry of DIR that is a hand-in.
struct HandIn {
  std::string name;  // from the file name, only [A-Za-z0-9._-]
  std::string file;  // the file name as found, made printable
  std::filesystem::path path;
  std::string problem;  // not checked, and why (two files giving one name)
};

struct Listing {
  std::vector<HandIn> handins;                               // sorted by name
  std::vector<std::pair<std::string, std::string>> skipped;  // file, why
};

// The hand-ins in `dir` (the folder `out` left out when it is inside). Throws std::runtime_error
// when `dir` cannot be read.
Listing list_handins(const std::filesystem::path& dir, const std::filesystem::path& out);

// What the batch knows of one student: kept in OUT/batch.json between runs.
struct StudentResult {
  std::string name, file, hash;
  std::string verdict;  // accepted, rejected or error
  std::string reason;
  nlohmann::json check;  // the child's JSON (null for an error)
  double seconds = 0;    // the child's wall clock
  int checks = 0;        // how often this student was checked (a rerun of unchanged ones: not)
  bool fresh = false;    // checked by this run (not kept in batch.json)

  nlohmann::json to_json() const;
  static StudentResult from_json(const nlohmann::json& j);
};

// The result of one child check: its JSON, or an error with the child's output's end.
StudentResult run_child_check(const BatchOptions& o, const HandIn& h,
                              const std::filesystem::path& student_out);

// Removes a student's folder whatever a build left in it (folders without write permission).
void remove_student_folder(const std::filesystem::path& folder);

}  // namespace arena::cli
