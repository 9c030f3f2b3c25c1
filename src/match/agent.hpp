#pragma once
// The two sides of `arena match`: built-in players of this arena, played in this process, or an
// engine-protocol program (another arena build's `arena engine GAME`, or any program speaking
// that protocol: docs/match.md) driven over pipes. Either starts from any position. A
// course-protocol agent (`command ...`) starts only from the course's start position: a match
// with one plays every game through the game's course referee instead (course_match.hpp).
//
//   [NAME:] engine [time=MS | depth=N | nodes=N]   the built-in engine
//   [NAME:] greedy | random                        built-in players
//   [NAME:] soccer-ref 0|1|2                       a Paper Soccer reference level
//   [NAME:] arena=PATH [engine ... | greedy | random]   the same agents of another arena build
//   [NAME:] protocol SHELL-COMMAND                 any engine-protocol program
//   [NAME:] command SHELL-COMMAND                  a course-protocol program (a tournament's)
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"
#include "games/registry.hpp"
#include "match/book.hpp"

namespace arena::match {

// What one move may spend: an agent's own (spec) or the match's.
struct MoveLimit {
  enum Kind { Time, Nodes, Depth } kind = Time;
  std::uint64_t value = 1000;  // ms, nodes or plies
};
std::string limit_text(const MoveLimit& l);  // "100 ms", "5000 nodes", "depth 3"

struct AgentSpec {
  enum Kind { Engine, Greedy, Random, SoccerRef, Protocol, Course } kind = Engine;
  std::string name;                // given with "NAME:" or made from the spec
  std::string spec;                // as given, without the name
  std::optional<MoveLimit> limit;  // engine time=/depth=/nodes=
  int level = 0;                   // soccer-ref's level; the engine's level=
  int threads = 1;                 // engine threads=
  int table_mb = 0;                // engine table= (0: the default)
  std::string arena_binary;        // arena=PATH: that build's `arena engine`
  std::string command;             // protocol, command: the shell command
  bool external() const { return kind == Protocol || kind == Course || !arena_binary.empty(); }
};

Parsed<AgentSpec> parse_agent(std::string_view text);

enum class MoveStatus { Ok, Timeout, Crash };

struct MoveAnswer {
  MoveStatus status = MoveStatus::Ok;
  std::string move;    // the agent's text, not checked yet
  std::string detail;  // why not Ok
  std::chrono::milliseconds elapsed{0};
  std::optional<int> eval;  // the engine's score of its move, when it said
  std::optional<int> depth;
};

// The settings every agent of a match gets.
struct AgentContext {
  const GameInfo* game = nullptr;
  RuleOptions rules;
  MoveLimit limit;           // the match's (an agent's own limit replaces it)
  int time_margin_ms = 50;   // with a time limit: a move later than limit + this loses
  int max_move_ms = 60'000;  // with nodes or depth: a move later than this loses
  std::uint64_t seed = 1;    // random and greedy players
};

// One agent for one game (a fresh player or process per game: nothing carries over).
class MatchAgent {
 public:
  virtual ~MatchAgent() = default;
  // A move for `state`, reached from the start by `moves`.
  virtual MoveAnswer choose(const AnyState& state, const Opening& moves) = 0;
  // Ends the game for the agent (a process is told to quit and reaped).
  virtual void finish() {}
};

// Throws std::runtime_error when the agent cannot be made at all (a soccer-ref in another game,
// a course-protocol agent: its games are played by course_match.hpp).
// A program that fails to start is not an error here: its first move is a crash.
std::unique_ptr<MatchAgent> make_agent(const AgentSpec& spec, const AgentContext& context);

// The limit an agent plays with: its own or the context's.
MoveLimit effective_limit(const AgentSpec& spec, const AgentContext& context);
// The longest a move may take before it loses on time.
std::chrono::milliseconds move_deadline(const MoveLimit& limit, const AgentContext& context);

}  // namespace arena::match
