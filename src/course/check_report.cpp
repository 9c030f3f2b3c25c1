#include "course/check_report.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "core/file_tail.hpp"
#include "referee/record.hpp"

namespace arena::course {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxVerdict = 4 * 1024 * 1024;  // verdict.json, a smoke record

std::string bounded(std::string text) {
  if (text.size() > kMaxKeptLog) text.erase(0, text.size() - kMaxKeptLog);
  return text;
}

}  // namespace

CheckProgress check_progress(const std::string& output_tail) {
  CheckProgress p;
  std::istringstream lines(output_tail);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || colon > 8) continue;
    const std::string name = line.substr(0, colon);
    // `arena handin check`'s stages (cli/handin_prepare.cpp): building until the build has
    // passed, then checking (the run command, "game 1", "game 2", the grading).
    static constexpr std::array kBuilding = {"unpack", "recipe", "flags", "build"};
    const bool building = std::find(kBuilding.begin(), kBuilding.end(), name) != kBuilding.end();
    const bool checking = name == "run" || name.starts_with("game") || name == "grade";
    if (!building && !checking) continue;
    p.stage = line.substr(0, 300);
    if (checking) p.built = true;
  }
  return p;
}

CheckReport read_check_folder(const fs::path& out, const fs::path& output, std::string status) {
  CheckReport r;
  r.status = std::move(status);
  r.verdict = nlohmann::json::parse(read_tail(out / "verdict.json", kMaxVerdict), nullptr, false);
  r.build_log = read_tail(out / "build.log", kMaxKeptLog);
  r.output = read_tail(output, kMaxKeptLog);
  if (!r.verdict.is_object()) return r;
  for (const auto& g : r.verdict.value("games", nlohmann::json::array())) {
    if (!g.is_object()) continue;
    const fs::path record_file = out / g.value("record", "");
    CheckReport::Game game;
    game.side = g.value("side", "") == "white" ? "white" : "black";
    game.reason = g.value("reason", "");
    game.plies = g.value("plies", 0);
    game.record = nlohmann::json::parse(read_tail(record_file, kMaxVerdict), nullptr, false);
    if (game.record.is_discarded()) continue;
    fs::path log = record_file;
    log.replace_extension("." + game.side + ".log");
    game.log = read_tail(log, kMaxKeptLog);
    r.games.push_back(std::move(game));
  }
  return r;
}

CheckReport check_report_from_json(const nlohmann::json& posted) {
  CheckReport r;
  r.status = posted.at("status").get<std::string>().substr(0, 200);
  r.verdict = posted.contains("verdict") ? posted.at("verdict") : nlohmann::json();
  r.build_log = bounded(posted.value("build_log", ""));
  r.output = bounded(posted.value("output", ""));
  for (const auto& g : posted.value("games", nlohmann::json::array())) {
    CheckReport::Game game;
    game.side = g.at("side").get<std::string>() == "white" ? "white" : "black";
    game.reason = g.value("reason", "").substr(0, 300);
    game.plies = g.value("plies", 0);
    game.record = g.at("record");
    game.log = bounded(g.value("log", ""));
    r.games.push_back(std::move(game));
  }
  return r;
}

nlohmann::json check_report_json(const CheckReport& r) {
  nlohmann::json games = nlohmann::json::array();
  for (const auto& g : r.games)
    games.push_back({{"side", g.side},
                     {"reason", g.reason},
                     {"plies", g.plies},
                     {"record", g.record},
                     {"log", g.log}});
  nlohmann::json j{
      {"status", r.status}, {"build_log", r.build_log}, {"output", r.output}, {"games", games}};
  if (r.verdict.is_object()) j["verdict"] = r.verdict;
  return j;
}

std::string valid_utf8_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::string> refused_worker_check_option(const std::vector<std::string>& words) {
  for (const std::string& word : words)
    if (word.starts_with("--sandbox") || word.starts_with("--out") || word.starts_with("-o"))
      return "a worker does not take the check option '" + word +
             "' from the server (its own --sandbox decides its protection)";
  return std::nullopt;
}

std::vector<std::string> check_folder_prefixes(const fs::path& dir) {
  return {(dir / "check" / "agent").string() + "/", (dir / "check").string() + "/",
          dir.string() + "/", dir.string()};
}

std::string without_prefixes(std::string text, const std::vector<std::string>& prefixes) {
  for (const std::string& prefix : prefixes)
    for (std::size_t at; !prefix.empty() && (at = text.find(prefix)) != std::string::npos;)
      text.erase(at, prefix.size());
  return text;
}

CheckResult judge_check(const Submission& s, const CheckReport& r,
                        const std::function<std::string(std::string)>& without_paths) {
  CheckResult o;
  if (!r.verdict.is_object() || !r.verdict.contains("verdict")) {
    // The check itself broke (not the hand-in): say so; staff can re-check it.
    o.broken = true;
    o.reason = "the check did not finish (" + r.status + ")";
    o.verdict = valid_utf8_json({{"verdict", "rejected"}, {"reason", o.reason}});
    o.build_log = without_paths(r.output);
    return o;
  }
  auto verdict = nlohmann::json::parse(without_paths(valid_utf8_json(r.verdict)), nullptr, false);
  if (verdict.is_discarded() || !verdict.is_object())
    verdict = nlohmann::json{{"verdict", "rejected"}, {"reason", r.status}};
  o.accepted = verdict.value("verdict", "") == "accepted";
  o.reason = verdict.value("reason", "");
  if (verdict.contains("grade")) o.grade = valid_utf8_json(verdict["grade"]);
  for (const CheckReport::Game& g : r.games) {
    if (!g.record.is_object()) continue;
    NewGame game;
    game.kind = "smoke";
    const bool white = g.side == "white";
    const std::string me = s.login + " #" + std::to_string(s.id);
    game.white = white ? me : "random";
    game.black = white ? "random" : me;
    (white ? game.white_submission : game.black_submission) = s.id;
    nlohmann::json record = g.record;
    try {
      game.result = std::string(outcome_key(record_from_json(record).outcome));
    } catch (const std::exception&) {
      continue;  // not a record arena wrote: nothing to show
    }
    game.reason = g.reason;
    game.plies = g.plies;
    // The viewer names the hand-in as the pages do, not by the check's name for it.
    if (record.contains("players") && record["players"].is_object() &&
        record["players"].contains(g.side) && record["players"][g.side].is_object())
      record["players"][g.side]["name"] = me;
    game.record = without_paths(valid_utf8_json(record));
    game.logs.emplace_back(s.id, g.log);
    o.games.push_back(std::move(game));
  }
  o.verdict = valid_utf8_json(verdict);
  o.build_log = without_paths(r.build_log);
  return o;
}

}  // namespace arena::course
