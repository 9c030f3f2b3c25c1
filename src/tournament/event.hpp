#pragma once
// An event's settings and its games' results: what the journal stores and the reports read.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/rules.hpp"
#include "core/side.hpp"
#include "sandbox/sandbox.hpp"
#include "tournament/participants.hpp"

namespace arena::tournament {

// How an external Morris agent learns the server's ports. It always gets White or Black as its
// first argument (as the course's agents did) and ARENA_HOST, ARENA_WHITE_PORT and
// ARENA_BLACK_PORT in its environment; Args also appends "--white-port P --black-port Q"; Course
// serves on the course's fixed ports 5800/5801 instead (one game at a time).
enum class MorrisPorts { Env, Args, Course };
std::string_view morris_ports_key(MorrisPorts m);  // "env", "args", "course"

struct EventSettings {
  std::string game;
  std::vector<Participant> participants;
  std::uint64_t seed = 1;
  int move_time_ms = 0;  // 0: the game's course limit
  RuleOptions rules;     // moves_per_player unset: the game's own limit
  int warmup_ms = 1000;
  int connect_timeout_ms = 10000;
  int game_timeout_ms = 0;                      // 0: derived from the move time and move limit
  std::filesystem::path working_dir;            // where external agents' commands run
  MorrisPorts morris_ports = MorrisPorts::Env;  // Morris only
  SandboxMode sandbox = SandboxMode::Auto;      // the agents' sandbox (docs/sandbox.md)
  AgentLimits limits;                           // each agent's, unless its line says otherwise
};

// A participant's limits: the event's, with what its line sets.
AgentLimits limits_of(const EventSettings& s, const Participant& p);

nlohmann::json to_json(const EventSettings& s);
// Throws std::runtime_error naming what is wrong.
EventSettings settings_from_json(const nlohmann::json& j);

// How a game ended, in the categories the event reports: the rules decided it (win or draw), or
// a player's fault did (timeout, illegal move, crash, disconnect, a limit of its sandbox broken:
// memory-limit or too-many-processes); aborted when the referee had to stop it (a draw).
enum class EndKind { Win, Draw, Timeout, IllegalMove, Crash, Disconnect, Limit, Aborted };
inline constexpr EndKind kAllEndKinds[] = {
    EndKind::Win,   EndKind::Draw,       EndKind::Timeout, EndKind::IllegalMove,
    EndKind::Crash, EndKind::Disconnect, EndKind::Limit,   EndKind::Aborted};
std::string_view end_kind_key(EndKind k);  // "win", "draw", "timeout", "illegal-move", ...
std::optional<EndKind> end_kind_from_key(std::string_view key);
// The category of a record's reason code and outcome.
EndKind end_kind_of(Outcome outcome, std::string_view reason);

struct GameResult {
  int index = 0;
  int round = 0;
  int white = 0, black = 0;         // participant indices
  Outcome outcome = Outcome::Draw;  // never Ongoing: an aborted game counts as a draw
  EndKind end = EndKind::Draw;
  std::string reason;  // the referee's code: no-stones, move-limit, timeout, illegal-move, ...
  std::string detail;
  int plies = 0;
  std::string record;  // the game's JSON record, relative to the event directory
  std::int64_t duration_ms = 0;
};

nlohmann::json to_json(const GameResult& r);
GameResult game_result_from_json(const nlohmann::json& j);

}  // namespace arena::tournament
