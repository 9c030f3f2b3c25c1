#pragma once
// One job of a course worker (`arena course worker`): the hand-ins it plays fetched by hash and
// built once into the worker's cache (`arena handin check --no-smoke`, sandboxed), then the game
// played through the game's course protocol in the sandbox, exactly as in a tournament; or a
// hand-in's whole check, as the server's own checker does it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/course_client.hpp"
#include "sandbox/sandbox.hpp"

namespace arena::cli {

struct WorkerSettings {
  std::filesystem::path cache;  // built hand-ins by hash, and each game's files while it plays
  std::string check_args;       // more options for the build (shell words)
  SandboxMode sandbox = SandboxMode::Auto;
  std::vector<int> cores;  // this slot's cores (empty: not pinned)
};

struct PlayedJob {
  bool played = false;
  std::string why_not;  // when not played: why (a hand-in that does not build here)
  nlohmann::json record;
  std::string white_log, black_log;
  std::string summary;  // "alice #3 - bob #5: white (no-stones), 41 plies, 12.3 s"
};

// Builds the sides and plays the game of a lease (the server's /api/worker/lease answer).
PlayedJob play_job(CourseClient& client, const nlohmann::json& lease,
                   const WorkerSettings& settings);

struct CheckedJob {
  bool checked = false;
  std::string why_not;    // when not checked: why (the server asked for something odd)
  nlohmann::json report;  // what the check left (course::check_report_json)
  std::string summary;    // "alice #3: accepted, 12.3 s"
};

// Checks the hand-in of a "check" lease as the server would (`arena handin check` or `grade`,
// in the sandbox), telling the server its stage as it goes.
CheckedJob check_job(CourseClient& client, const nlohmann::json& lease,
                     const WorkerSettings& settings);

}  // namespace arena::cli
