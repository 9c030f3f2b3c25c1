#pragma once
// What `arena handin check` and `arena handin grade` share: their options, and the check itself
// (unpack, recipe, forbidden flags, sandboxed build, the two smoke games), reported stage by stage.
// The caller gives the verdict (HandinReport::finish), after grading if it grades.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "cli/handin_report.hpp"
#include "cli/handin_smoke.hpp"
#include "games/registry.hpp"
#include "sandbox/sandbox.hpp"

namespace arena::cli {

struct CheckOptions {
  std::string game;
  std::filesystem::path input;
  std::filesystem::path out;
  bool json = false;
  int move_time_ms = 0;
  int smoke_plies = kDefaultSmokePlies;
  SandboxMode sandbox = SandboxMode::Auto;
  int build_timeout_s = 300;
  int build_cpu_s = 600;
  double build_memory_mb = 2048;
  int build_processes = 256;
  double log_limit_mb = 4;
  std::string forbid_flags;
  bool no_smoke = false;  // build only (a worker building a hand-in the server has checked)
};

// Adds GAME, PATH and the options above to a command; `games` names the games --move-time times,
// `files` what --out holds.
void add_check_options(CLI::App& cmd, CheckOptions& o, const std::string& games,
                       const std::string& files);

struct CheckedHandin {
  bool accepted = false;
  std::string reason;          // the verdict's reason
  std::filesystem::path out;   // absolute
  std::filesystem::path root;  // the unpacked hand-in (accepted only)
  std::string run;             // its run command template (accepted only)
};

// Checks the hand-in, each stage into `report`. Throws std::runtime_error for bad usage (an --out
// that holds a hand-in already).
CheckedHandin check_handin(const GameInfo& game, const CheckOptions& o, HandinReport& report);

}  // namespace arena::cli
