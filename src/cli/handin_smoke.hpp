#pragma once
// The smoke games of `arena handin check`: the hand-in plays arena's random player twice (as
// White, then as Black) through the game's real course protocol, sandboxed, exactly as in a
// tournament. Losing or drawing is fine; a fault of its own (timeout, illegal move, crash, ...)
// is what the check is for.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/side.hpp"
#include "games/registry.hpp"
#include "sandbox/sandbox.hpp"
#include "tournament/participants.hpp"

namespace arena::cli {

// Ten moves each: enough to see an agent play, short enough for one that thinks a minute a move.
inline constexpr int kDefaultSmokePlies = 20;

struct SmokeOptions {
  std::string command;         // the run template (handin/command_template.hpp), or a command
  std::filesystem::path root;  // the hand-in's folder: the agent's own, read-only
  std::filesystem::path dir;   // the records and logs go here
  int move_time_ms = 0;        // 0: the game's course default
  // Each game is stopped after this many plies (its opening shows the agent starts, speaks the
  // protocol and moves legally in time); 0: played to its end.
  int max_plies = kDefaultSmokePlies;
  SandboxMode sandbox = SandboxMode::Auto;
  std::filesystem::path arena_binary;
};

struct SmokeGame {
  Side side = Side::White;  // the hand-in's
  std::string result;       // "won", "lost", "draw"
  std::string reason, detail;
  int plies = 0;
  bool fault = false;    // the hand-in's own fault ended the game
  std::string log_tail;  // its log's last lines, for a fault
  std::optional<double> cpu_s;
  std::optional<double> peak_memory_mb;
  std::filesystem::path record;
  double seconds = 0;
  nlohmann::json to_json() const;
  // "as White: lost (no-stones), 24 plies, CPU 0.41 s, peak 38 MB"
  std::string summary() const;
};

// Plays one smoke game against the random player, the hand-in on `side`.
SmokeGame play_smoke_game(const GameInfo& game, const SmokeOptions& options, Side side);

// One game of the hand-in against `opponent` (`arena handin grade` plays its grading games
// through this too): `name` is the files' stem in options.dir; `short_game` stops it after
// options.max_plies plies (a smoke game); the others are played to their end.
struct HandinGameSpec {
  tournament::Participant opponent;
  Side side = Side::White;  // the hand-in's
  std::uint64_t seed = 1;
  std::string name;
  bool short_game = false;
};
SmokeGame play_handin_game(const GameInfo& game, const SmokeOptions& options,
                           const HandinGameSpec& spec);

}  // namespace arena::cli
