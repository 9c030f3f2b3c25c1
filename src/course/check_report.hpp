#pragma once
// What a hand-in's check (`arena handin check` or `grade`) leaves behind, and the verdict the
// server stores from it. The server's own checker reads it from the check's folder; a worker
// that checked the hand-in on its machine posts the same parts, and the same code judges both.
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/store.hpp"

namespace arena::course {

// The check's live stage from the tail of its output: its last "name: detail" line, and whether
// the build has passed (the stages after it are "checking").
struct CheckProgress {
  std::string stage;
  bool built = false;
};
CheckProgress check_progress(const std::string& output_tail);

struct CheckReport {
  std::string status;      // how the check's process ended ("exited with status 0")
  nlohmann::json verdict;  // its verdict.json (discarded when missing or broken)
  std::string build_log;   // the tail of its build.log
  std::string output;      // the tail of what it printed (shown when the check broke)
  struct Game {
    std::string side;  // the hand-in's side: white or black
    std::string reason;
    int plies = 0;
    nlohmann::json record;
    std::string log;  // the hand-in's own log
  };
  std::vector<Game> games;
};

// Reads a finished check: its --out folder and the file its output went to.
CheckReport read_check_folder(const std::filesystem::path& out, const std::filesystem::path& output,
                              std::string status);
// As posted by a worker (bounded by the caller); throws nlohmann::json::exception on a bad shape.
CheckReport check_report_from_json(const nlohmann::json& posted);
nlohmann::json check_report_json(const CheckReport& report);

// The server's check options as a worker takes them: nullopt, or why not (one that would move
// the check's output or change the worker's sandbox: the worker decides those).
std::optional<std::string> refused_worker_check_option(const std::vector<std::string>& words);

// JSON text with invalid UTF-8 replaced (a hand-in's output may hold anything).
std::string valid_utf8_json(const nlohmann::json& j);

// The most games a check's report holds (the smoke games, or the grading's).
inline constexpr std::size_t kMaxCheckGames = 200;

// What is kept of a log (a build's, an agent's): its tail.
inline constexpr std::size_t kMaxKeptLog = 64 * 1024;

// The folders of a check run in `dir` (its --out is dir/check), as they appear in what it
// printed, for without_prefixes.
std::vector<std::string> check_folder_prefixes(const std::filesystem::path& dir);

// `text` with every occurrence of each prefix (a checking machine's folders) taken out.
std::string without_prefixes(std::string text, const std::vector<std::string>& prefixes);

// The verdict of `s` from its check; `without_paths` takes the checking machine's paths out of
// what the student sees.
CheckResult judge_check(const Submission& s, const CheckReport& report,
                        const std::function<std::string(std::string)>& without_paths);

}  // namespace arena::course
