// One student of a batch: `arena handin check` (or `grade`) run as a child process, so a hand-in
// that crashes or hangs its checker costs that student only. The child writes verdict.json; its
// absence, or a child over its time, makes the student an "error" with the child's output's end.
#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/handin_batch.hpp"
#include "cli/handin_build.hpp"
#include "core/text.hpp"
#include "sandbox/child_process.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uintmax_t kMaxVerdictBytes = 64 * kMiB;
constexpr std::uint64_t kChildLogBytes = 1 * kMiB;

StudentResult error_result(const HandIn& h, std::string reason, std::string quoted) {
  StudentResult r;
  r.name = h.name;
  r.file = h.file;
  r.verdict = "error";
  r.reason = std::move(reason);
  if (!quoted.empty()) r.check = nlohmann::json{{"quoted", std::move(quoted)}};
  return r;
}

}  // namespace

nlohmann::json BatchOptions::verdict_options() const {
  return {{"game", game},
          {"command", grade ? "grade" : "check"},
          {"move_time_ms", move_time_ms},
          {"smoke_plies", smoke_plies},
          {"levels", levels},
          {"sandbox", std::string(sandbox_mode_key(sandbox))},
          {"build_timeout_s", build_timeout_s},
          {"build_cpu_s", build_cpu_s},
          {"build_memory_mb", build_memory_mb},
          {"build_processes", build_processes},
          {"log_limit_mb", log_limit_mb},
          {"forbid_flags", forbid_flags},
          {"student_timeout_s", student_timeout_s}};
}

std::vector<std::string> BatchOptions::child_arguments(const fs::path& input,
                                                       const fs::path& student_out) const {
  std::vector<std::string> a = {"handin",
                                grade ? "grade" : "check",
                                game,
                                input.string(),
                                "--out",
                                student_out.string(),
                                "--json",
                                "--sandbox",
                                std::string(sandbox_mode_key(sandbox))};
  if (move_time_ms > 0) a.insert(a.end(), {"--move-time", std::to_string(move_time_ms)});
  a.insert(a.end(), {"--smoke-plies", std::to_string(smoke_plies)});
  if (grade && !levels.empty()) a.insert(a.end(), {"--levels", levels});
  a.insert(a.end(),
           {"--build-timeout", std::to_string(build_timeout_s), "--build-cpu",
            std::to_string(build_cpu_s), "--build-memory", fmt::format("{}", build_memory_mb),
            "--build-processes", std::to_string(build_processes), "--log-limit",
            fmt::format("{}", log_limit_mb)});
  if (!forbid_flags.empty()) a.insert(a.end(), {"--forbid-flags", forbid_flags});
  return a;
}

nlohmann::json StudentResult::to_json() const {
  return {{"name", name},     {"file", file},       {"hash", hash},     {"verdict", verdict},
          {"reason", reason}, {"seconds", seconds}, {"checks", checks}, {"check", check}};
}

StudentResult StudentResult::from_json(const nlohmann::json& j) {
  StudentResult r;
  r.name = j.value("name", "");
  r.file = j.value("file", "");
  r.hash = j.value("hash", "");
  r.verdict = j.value("verdict", "");
  r.reason = j.value("reason", "");
  r.seconds = j.value("seconds", 0.0);
  r.checks = j.value("checks", 0);
  if (j.contains("check")) r.check = j["check"];
  return r;
}

void remove_student_folder(const fs::path& folder) {
  std::error_code ec;
  fs::remove_all(folder, ec);
  if (!ec) return;
  // A build may have taken the write permission from its folders: given back, then removed.
  for (fs::recursive_directory_iterator
           it(folder, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0700);
  ::chmod(folder.c_str(), 0700);
  fs::remove_all(folder);  // throws with the reason when it still cannot
}

StudentResult run_child_check(const BatchOptions& o, const HandIn& h, const fs::path& student_out) {
  remove_student_folder(student_out);
  fs::create_directories(student_out);
  const fs::path log = student_out / "check.log";
  std::string command = "exec " + shell_quote(own_binary().string());
  for (const auto& a : o.child_arguments(fs::absolute(h.path), student_out))
    command += " " + shell_quote(a);
  DetachedChildOptions options;
  options.command = command;
  options.working_dir = student_out;
  options.output_file = log;
  options.output_cap = kChildLogBytes;
  const auto start = Clock::now();
  ChildProcess child(std::move(options));
  const bool ended = child.wait_exit(std::chrono::seconds(o.student_timeout_s));
  if (!ended) {
    // SIGTERM first: the check then ends its own build and agents.
    child.signal_group(SIGTERM);
    if (!child.wait_exit(std::chrono::seconds(3))) child.kill_group();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!ended) {
    auto r = error_result(
        h, fmt::format("the check took longer than {} s and was stopped", o.student_timeout_s),
        last_lines(log, 20));
    r.seconds = seconds;
    return r;
  }
  const std::string how = child.exit_description();
  const fs::path verdict = student_out / "verdict.json";
  std::error_code ec;
  const auto size = fs::file_size(verdict, ec);
  nlohmann::json j;
  if (!ec && size <= kMaxVerdictBytes) {
    std::ifstream in(verdict, std::ios::binary);
    j = nlohmann::json::parse(in, nullptr, false);
  }
  if (!j.is_object() || !j.contains("verdict") || !j["verdict"].is_string() ||
      (j["verdict"] != "accepted" && j["verdict"] != "rejected")) {
    // Why, in the child's words: its "error: ..." line, else its output's first line.
    const std::string quoted = last_lines(log, 20);
    std::string why;
    std::istringstream lines(quoted);
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("  | ")) line = line.substr(4);
      if (why.empty() || line.starts_with("error")) why = line;
    }
    const std::string last = why;
    auto r = error_result(h,
                          fmt::format("the check gave no verdict ({}){}", how,
                                      last.empty() ? "" : ": " + printable(last, 160)),
                          quoted);
    r.seconds = seconds;
    return r;
  }
  StudentResult r;
  r.name = h.name;
  r.file = h.file;
  r.verdict = j["verdict"].get<std::string>();
  r.reason = j.value("reason", "");
  r.check = std::move(j);
  r.seconds = seconds;
  return r;
}

}  // namespace arena::cli
