#pragma once
// Plays one tournament game between two participants through the game's real course protocol,
// and gives its record. One runner per protocol; match_runner_for() picks it from the game.
//
// Extension point: a game whose course used another protocol gets a MatchRunner subclass here
// (the Morris two-port server, the Paper Soccer stdin/stdout referee) and a line in
// match_runner_for(). A runner must never hang (respect request.deadline), must kill every agent
// process it started before returning, and reports agents' faults with the record's reason codes
// "timeout", "illegal-move", "crash" or "disconnect".
#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "games/registry.hpp"
#include "referee/record.hpp"
#include "sandbox/sandbox.hpp"
#include "tournament/event.hpp"

namespace arena::tournament {

struct MatchRequest {
  const GameInfo* game = nullptr;
  const EventSettings* settings = nullptr;
  const Participant* white = nullptr;
  const Participant* black = nullptr;
  std::uint64_t seed = 0;              // the built-in agents' seeds are derived from it
  int move_time_ms = 0;                // resolved: the event's or the game's
  std::filesystem::path arena_binary;  // runs the built-in agents
  // Where this game's files go: <stem>.json (written by the caller), <stem>.server.txt (referee
  // transcript), <stem>.white.log / <stem>.black.log (the agents' output), and the course's log.
  std::filesystem::path stem;
  std::chrono::steady_clock::time_point deadline;  // the game is cut off here, whatever happens
  // The agents' sandbox (never null in an event; mode off: plain child processes), each side's
  // cores, and the event folder (hidden from every agent).
  const SandboxPlan* sandbox = nullptr;
  std::array<std::vector<int>, 2> cores;
  std::filesystem::path event_dir;
  // >0: the game is stopped after this many plies, a draw with reason "ply-limit" (a hand-in's
  // smoke game needs only its opening). 0: played to its end, as in tournaments.
  int max_plies = 0;
};

// What the agent of `side` is given in its sandbox: its limits, cores and folder; the event
// folder and every other participant's folder hidden.
AgentJailSpec agent_jail_spec(const MatchRequest& request, Side side);
// Its jail, or null when the event runs agents without a sandbox.
std::unique_ptr<AgentJail> make_agent_jail(const MatchRequest& request, Side side);
// The record's "sandbox" block for the game (limits and protections; usage is added by the
// runner).
nlohmann::json sandbox_block(const MatchRequest& request);
// Cores one game's agents need: two agents, each with as many as the hungriest participant.
int cores_per_game(const EventSettings& settings);
// The cores of the game played in `slot` (0 to the games at once - 1): a slice of `cores` (the
// machine's) per slot, wrapping round when more games run at once than the cores allow. Empty
// without the CPU protection.
std::array<std::vector<int>, 2> game_cores(const EventSettings& settings, const SandboxPlan& plan,
                                           const std::vector<int>& cores, int slot,
                                           const Participant& white, const Participant& black);
// Where a participant's agent runs: its dir=, or the event's working directory.
std::filesystem::path agent_dir(const EventSettings& settings, const Participant& p);

class MatchRunner {
 public:
  virtual ~MatchRunner() = default;
  // Plays the game. The record's players carry the participants' names. Throws only for trouble
  // of arena's own (cannot listen, cannot write files), never for a misbehaving agent.
  virtual GameRecord play(const MatchRequest& request) = 0;
};

enum class TournamentProtocol { CourseLines, MorrisTwoPort, SoccerReferee, None };

// Which protocol a game's course used, hence which runner plays its tournament games.
TournamentProtocol tournament_protocol(const GameInfo& game);
// The runner for a game; throws std::runtime_error with a clear message when arena cannot run
// tournaments of it yet.
std::unique_ptr<MatchRunner> match_runner_for(const GameInfo& game);
// How the game's agents talk to their referee: over TCP, or on stdin/stdout (Paper Soccer).
AgentChannel agent_channel(const GameInfo& game);
// Whether match_runner_for(game) works.
bool tournament_supported(const GameInfo& game);

// Checks that every participant can play this game (soccer-ref only in Paper Soccer, engine
// time within the move time); throws std::runtime_error naming the participant.
void check_participants_for(const GameInfo& game, const EventSettings& settings);

// The deadline for a game: connecting, warm-up and every allowed move at its full time, doubled,
// plus a minute. settings.game_timeout_ms overrides it.
std::chrono::milliseconds game_time_cap(const GameInfo& game, const EventSettings& settings);

// The record of a game decided before it began (an agent that could not start or connect).
GameRecord forfeit_record(const MatchRequest& request, Side loser, std::string reason,
                          std::string detail);

}  // namespace arena::tournament
