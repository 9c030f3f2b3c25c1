#include "referee/record.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace arena {
namespace {

Outcome outcome_from_key(const std::string& key) {
  if (key == "white") return Outcome::WhiteWins;
  if (key == "black") return Outcome::BlackWins;
  if (key == "draw") return Outcome::Draw;
  if (key == "ongoing") return Outcome::Ongoing;
  throw std::runtime_error("unknown result '" + key + "'");
}

Side side_from_key(const std::string& key) {
  if (key == "white") return Side::White;
  if (key == "black") return Side::Black;
  throw std::runtime_error("unknown side '" + key + "'");
}

nlohmann::json player_json(const PlayerRecord& p) {
  return {{"name", p.name}, {"address", p.address}};
}

PlayerRecord player_from_json(const nlohmann::json& j) {
  return {j.at("name").get<std::string>(), j.value("address", std::string{})};
}

}  // namespace

nlohmann::json to_json(const GameRecord& r) {
  nlohmann::json moves = nlohmann::json::array();
  for (const MoveRecord& m : r.moves) {
    nlohmann::json move = {
        {"ply", m.ply}, {"side", side_key(m.side)}, {"move", m.move}, {"time_ms", m.time_ms}};
    if (m.cpu_ms) move["cpu_ms"] = *m.cpu_ms;
    if (m.eval) move["eval"] = *m.eval;
    if (m.depth) move["depth"] = *m.depth;
    if (m.note) move["note"] = *m.note;
    moves.push_back(std::move(move));
  }
  nlohmann::json out = {
      {"format", "arena-game-record"},
      {"version", kRecordVersion},
      {"game", r.game},
      {"settings", r.settings},
      {"players", {{"white", player_json(r.white)}, {"black", player_json(r.black)}}},
      {"started_at", r.started_at},
      {"ended_at", r.ended_at},
      {"moves", moves},
      {"result", {{"winner", outcome_key(r.outcome)}, {"reason", r.reason}, {"detail", r.detail}}},
      {"events", r.events},
  };
  if (!r.sandbox.empty()) out["sandbox"] = r.sandbox;
  return out;
}

GameRecord record_from_json(const nlohmann::json& j) {
  try {
    if (j.at("format").get<std::string>() != "arena-game-record")
      throw std::runtime_error("not an arena game record");
    if (j.at("version").get<int>() != kRecordVersion)
      throw std::runtime_error("unsupported record version " + j.at("version").dump());
    GameRecord r;
    r.game = j.at("game").get<std::string>();
    r.settings = j.value("settings", nlohmann::json::object());
    r.white = player_from_json(j.at("players").at("white"));
    r.black = player_from_json(j.at("players").at("black"));
    r.started_at = j.value("started_at", std::string{});
    r.ended_at = j.value("ended_at", std::string{});
    for (const auto& m : j.at("moves")) {
      MoveRecord move{m.at("ply").get<int>(), side_from_key(m.at("side").get<std::string>()),
                      m.at("move").get<std::string>(), m.at("time_ms").get<std::int64_t>()};
      if (m.contains("cpu_ms")) move.cpu_ms = m.at("cpu_ms").get<std::int64_t>();
      if (m.contains("eval")) move.eval = m.at("eval").get<int>();
      if (m.contains("depth")) move.depth = m.at("depth").get<int>();
      if (m.contains("note")) move.note = m.at("note").get<std::string>();
      r.moves.push_back(std::move(move));
    }
    const auto& res = j.at("result");
    r.outcome = outcome_from_key(res.at("winner").get<std::string>());
    r.reason = res.value("reason", std::string{});
    r.detail = res.value("detail", std::string{});
    r.events = j.value("events", std::vector<std::string>{});
    r.sandbox = j.value("sandbox", nlohmann::json::object());
    if (!r.sandbox.is_object()) throw std::runtime_error("'sandbox' is not an object");
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("invalid game record: ") + e.what());
  }
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content,
                           bool durable, unsigned mode) {
  // A name of this writer's own: another process (maybe on another machine sharing the folder)
  // may write the same file at the same time, and each rename must move a whole file.
  static std::atomic<unsigned> counter{0};
  static const std::string writer = [] {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return fmt::format("{}-{}", host, ::getpid());
  }();
  const std::filesystem::path tmp =
      fmt::format("{}.{}-{}.tmp", path.string(), writer, counter.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno)));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw std::runtime_error(
          fmt::format("cannot write {}: {}", tmp.string(), std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  if (durable) ::fsync(fd);
  ::close(fd);
  std::filesystem::rename(tmp, path);
}

void write_record(const std::filesystem::path& path, const GameRecord& r) {
  write_file_atomically(path, to_json(r).dump(2) + "\n");
}

std::string write_live_record(const std::filesystem::path& path, GameRecord r) {
  r.outcome = Outcome::Ongoing;
  r.reason = kInProgressReason;
  r.detail = "the game is being played";
  r.ended_at.clear();
  try {
    // No fsync per move: the final record is durable, a live one only has to be whole.
    write_file_atomically(path, to_json(r).dump(2) + "\n", false);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

GameRecord read_record(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(path.string() + " is not valid JSON");
  return record_from_json(j);
}

std::string result_line(const GameRecord& r) {
  if (r.outcome == Outcome::Ongoing && r.reason == kInProgressReason) return "Game in progress";
  const std::string who = r.outcome == Outcome::WhiteWins   ? "White wins"
                          : r.outcome == Outcome::BlackWins ? "Black wins"
                          : r.outcome == Outcome::Draw      ? "Draw"
                                                            : "Not finished";
  if (r.reason.empty()) return who;
  if (r.detail.empty()) return fmt::format("{} ({})", who, r.reason);
  return fmt::format("{} ({}: {})", who, r.reason, r.detail);
}

bool save_finished_game(const GameRecord& r, const std::filesystem::path& record_path,
                        const std::filesystem::path& log_path, const std::string& log_text,
                        std::ostream& out) {
  bool saved = true;
  try {
    write_record(record_path, r);
    write_file_atomically(log_path, log_text);
    fmt::print(out, "Result: {}\nRecord: {}\n", result_line(r), record_path.string());
  } catch (const std::exception& e) {
    fmt::print(out, "Result: {}\nerror: could not save the record: {}\n", result_line(r), e.what());
    saved = false;
  }
  out.flush();
  return saved;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

std::string ply_limit_detail(int plies) {
  return fmt::format("stopped after {} plies (smoke game)", plies);
}

}  // namespace arena
