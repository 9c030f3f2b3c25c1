#include "cli/handin_report.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

namespace arena::cli {

void HandinReport::stage(const std::string& name, bool ok, const std::string& detail,
                         double seconds, const std::string& status) {
  nlohmann::json s = {{"stage", name}, {"ok", ok}, {"detail", detail}};
  if (seconds >= 0) s["seconds"] = seconds;
  if (!status.empty()) s["status"] = status;
  stages_.push_back(std::move(s));
  if (!json_) {
    fmt::print("{:<8} {}\n", name + ":", detail);
    std::fflush(stdout);  // a course server follows the stages as they pass
  }
}

void HandinReport::quote(const std::string& text) {
  if (text.empty()) return;
  quoted_ += text;
  if (!json_) {
    fmt::print("{}", text);
    std::fflush(stdout);
  }
}

int HandinReport::finish(const std::filesystem::path& out, bool accepted,
                         const std::string& reason) {
  const std::string line = (accepted ? "accepted: " : "rejected: ") + reason;
  nlohmann::json v = {{"verdict", accepted ? "accepted" : "rejected"},
                      {"reason", reason},
                      {"line", line},
                      {"how", how_},
                      {"run", run_},
                      {"stages", stages_},
                      {"games", games_},
                      {"out", out.string()}};
  if (!root_.empty()) v["root"] = root_;
  if (!quoted_.empty()) v["quoted"] = quoted_;
  if (!grade_.is_null()) v["grade"] = grade_;
  // A build log or agent output quoted here need not be UTF-8: bad bytes become U+FFFD.
  constexpr auto replace = nlohmann::json::error_handler_t::replace;
  std::ofstream(out / "verdict.json") << v.dump(2, ' ', false, replace) << "\n";
  fmt::print("{}\n", json_ ? v.dump(-1, ' ', false, replace) : line);
  std::fflush(stdout);
  return accepted ? 0 : 1;
}

}  // namespace arena::cli
