#pragma once
// What `arena handin check` (and grade) tells: one line per stage as it passes (or nothing with
// --json), then one verdict line or one JSON object, and the same object in OUT/verdict.json.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/handin_smoke.hpp"

namespace arena::cli {

class HandinReport {
 public:
  explicit HandinReport(bool json) : json_(json) {}
  // A stage and how it went; `seconds` < 0: not timed; `status`: the build's exit status.
  void stage(const std::string& name, bool ok, const std::string& detail, double seconds = -1,
             const std::string& status = "");
  // Lines quoted after a stage (a log's tail), kept with the verdict.
  void quote(const std::string& text);
  void game(const SmokeGame& g) { games_.push_back(g.to_json()); }
  void set_how(std::string how) { how_ = std::move(how); }
  void set_run(std::string run) { run_ = std::move(run); }
  // `arena handin grade`'s grade: the object's "grade" member.
  void set_grade(nlohmann::json grade) { grade_ = std::move(grade); }
  // The hand-in's root (where it builds and runs): a tournament's dir= for it.
  void set_root(std::string root) { root_ = std::move(root); }
  // Prints the verdict, writes out/verdict.json; gives the exit status (0 accepted, 1 rejected).
  int finish(const std::filesystem::path& out, bool accepted, const std::string& reason);

 private:
  bool json_;
  nlohmann::json stages_ = nlohmann::json::array();
  nlohmann::json games_ = nlohmann::json::array();
  std::string quoted_, how_, run_, root_;
  nlohmann::json grade_;
};

}  // namespace arena::cli
