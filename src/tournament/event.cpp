#include "tournament/event.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace arena::tournament {
namespace {

Outcome outcome_from(const std::string& key) {
  if (key == "white") return Outcome::WhiteWins;
  if (key == "black") return Outcome::BlackWins;
  if (key == "draw") return Outcome::Draw;
  throw std::runtime_error(fmt::format("unknown game result '{}'", key));
}

}  // namespace

AgentLimits limits_of(const EventSettings& s, const Participant& p) {
  AgentLimits l = s.limits;
  if (p.memory_bytes) l.memory_bytes = *p.memory_bytes;
  if (p.cpus) l.cpus = *p.cpus;
  if (p.max_processes) l.max_processes = *p.max_processes;
  if (p.log_bytes) l.log_bytes = *p.log_bytes;
  return l;
}

std::string_view morris_ports_key(MorrisPorts m) {
  switch (m) {
    case MorrisPorts::Env:
      return "env";
    case MorrisPorts::Args:
      return "args";
    case MorrisPorts::Course:
      return "course";
  }
  return "env";
}

nlohmann::json to_json(const EventSettings& s) {
  nlohmann::json participants = nlohmann::json::array();
  for (const auto& p : s.participants)
    participants.push_back({{"name", p.name}, {"agent", p.spec}});
  nlohmann::json j = {
      {"game", s.game},
      {"participants", participants},
      {"seed", s.seed},
      {"move_time_ms", s.move_time_ms},
      {"limit_rule", limit_rule_key(s.rules.limit_rule)},
      {"warmup_ms", s.warmup_ms},
      {"connect_timeout_ms", s.connect_timeout_ms},
      {"game_timeout_ms", s.game_timeout_ms},
      {"working_dir", s.working_dir.string()},
  };
  j["moves_per_player"] = s.rules.moves_per_player ? nlohmann::json(*s.rules.moves_per_player)
                                                   : nlohmann::json(nullptr);
  if (s.game == "morris") j["morris_ports"] = morris_ports_key(s.morris_ports);
  j["sandbox"] = {{"mode", sandbox_mode_key(s.sandbox)}, {"limits", to_json(s.limits)}};
  return j;
}

EventSettings settings_from_json(const nlohmann::json& j) {
  try {
    EventSettings s;
    s.game = j.at("game").get<std::string>();
    for (const auto& p : j.at("participants")) {
      auto parsed = parse_participant(p.at("agent").get<std::string>());
      if (!parsed) throw std::runtime_error("participant " + p.dump() + ": " + parsed.error);
      parsed.value->name = p.at("name").get<std::string>();
      s.participants.push_back(std::move(*parsed.value));
    }
    s.seed = j.at("seed").get<std::uint64_t>();
    s.move_time_ms = j.at("move_time_ms").get<int>();
    if (!j.at("moves_per_player").is_null())
      s.rules.moves_per_player = j.at("moves_per_player").get<int>();
    const auto rule = j.at("limit_rule").get<std::string>();
    if (rule == "draw")
      s.rules.limit_rule = LimitRule::Draw;
    else if (rule == "more-stones")
      s.rules.limit_rule = LimitRule::MoreStones;
    else
      throw std::runtime_error("unknown limit rule '" + rule + "'");
    s.warmup_ms = j.at("warmup_ms").get<int>();
    s.connect_timeout_ms = j.at("connect_timeout_ms").get<int>();
    s.game_timeout_ms = j.at("game_timeout_ms").get<int>();
    s.working_dir = j.at("working_dir").get<std::string>();
    if (j.contains("morris_ports")) {
      const auto key = j.at("morris_ports").get<std::string>();
      bool known = false;
      for (MorrisPorts m : {MorrisPorts::Env, MorrisPorts::Args, MorrisPorts::Course})
        if (key == morris_ports_key(m)) {
          s.morris_ports = m;
          known = true;
        }
      if (!known) throw std::runtime_error("unknown morris_ports '" + key + "'");
    }
    // Events from before the sandbox ran their agents without one.
    s.sandbox = SandboxMode::Off;
    if (j.contains("sandbox")) {
      const auto& box = j.at("sandbox");
      const auto mode = sandbox_mode_from_key(box.at("mode").get<std::string>());
      if (!mode) throw std::runtime_error("unknown sandbox mode " + box.at("mode").dump());
      s.sandbox = *mode;
      s.limits = agent_limits_from_json(box.at("limits"));
    }
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("invalid event settings: ") + e.what());
  }
}

std::string_view end_kind_key(EndKind k) {
  switch (k) {
    case EndKind::Win:
      return "win";
    case EndKind::Draw:
      return "draw";
    case EndKind::Timeout:
      return "timeout";
    case EndKind::IllegalMove:
      return "illegal-move";
    case EndKind::Crash:
      return "crash";
    case EndKind::Disconnect:
      return "disconnect";
    case EndKind::Limit:
      return "limit";
    case EndKind::Aborted:
      return "aborted";
  }
  return "?";
}

std::optional<EndKind> end_kind_from_key(std::string_view key) {
  for (EndKind k : kAllEndKinds)
    if (end_kind_key(k) == key) return k;
  return std::nullopt;
}

EndKind end_kind_of(Outcome outcome, std::string_view reason) {
  if (reason == "timeout") return EndKind::Timeout;
  if (reason == "illegal-move") return EndKind::IllegalMove;
  if (reason == "crash") return EndKind::Crash;
  if (reason == "disconnect") return EndKind::Disconnect;
  if (reason == "memory-limit" || reason == "too-many-processes") return EndKind::Limit;
  if (reason == "aborted" || outcome == Outcome::Ongoing) return EndKind::Aborted;
  return outcome == Outcome::Draw ? EndKind::Draw : EndKind::Win;
}

nlohmann::json to_json(const GameResult& r) {
  return {{"game", r.index + 1},  // 1-based, as everywhere users see it
          {"round", r.round},           {"white", r.white},
          {"black", r.black},           {"winner", outcome_key(r.outcome)},
          {"end", end_kind_key(r.end)}, {"reason", r.reason},
          {"detail", r.detail},         {"plies", r.plies},
          {"record", r.record},         {"duration_ms", r.duration_ms}};
}

GameResult game_result_from_json(const nlohmann::json& j) {
  try {
    GameResult r;
    r.index = j.at("game").get<int>() - 1;
    r.round = j.at("round").get<int>();
    r.white = j.at("white").get<int>();
    r.black = j.at("black").get<int>();
    r.outcome = outcome_from(j.at("winner").get<std::string>());
    const auto end = end_kind_from_key(j.at("end").get<std::string>());
    if (!end) throw std::runtime_error("unknown end '" + j.at("end").get<std::string>() + "'");
    r.end = *end;
    r.reason = j.at("reason").get<std::string>();
    r.detail = j.value("detail", std::string{});
    r.plies = j.value("plies", 0);
    r.record = j.value("record", std::string{});
    r.duration_ms = j.value("duration_ms", std::int64_t{0});
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("invalid game result: ") + e.what());
  }
}

}  // namespace arena::tournament
