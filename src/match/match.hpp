#pragma once
// `arena match`: game pairs between two agents (each opening twice, colours swapped), from an
// opening book, `concurrency` pairs at a time, with the statistics of stats.hpp after every pair
// and, with an SPRT, a stop as soon as it accepts H0 or H1.
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "match/agent.hpp"
#include "match/book.hpp"
#include "match/stats.hpp"
#include "referee/record.hpp"

namespace arena::match {

// A fault: how an agent lost by itself.
enum class Fault { IllegalMove, Timeout, Crash };

struct GameResult {
  int pair = 0;     // 0-based
  int game = 0;     // 0: A has White, 1: A has Black
  int opening = 0;  // index in MatchSettings::openings
  Outcome outcome = Outcome::Ongoing;
  double a_points = 0;  // 1, 0.5, 0
  std::string reason;   // the game's end reason, or illegal-move / timeout / crash
  std::string detail;
  int plies = 0;                // played after the opening
  std::optional<int> fault_by;  // 0: A, 1: B
  std::optional<Fault> fault;
};

// One game of the match, for a GamePlayer.
struct GameSlot {
  int pair = 0;     // 0-based
  int game = 0;     // 0: A has White, 1: A has Black
  int opening = 0;  // index in MatchSettings::openings
  int worker = 0;   // which of the `concurrency` games at once plays it
  std::uint64_t seed = 0;
};
// Plays a whole game some other way than move by move here (course_match.hpp). Called from the
// match's threads at once.
using GamePlayer = std::function<GameResult(const GameSlot&)>;

struct MatchSettings {
  AgentContext context;             // game, rules, limit, seed...
  std::array<AgentSpec, 2> agents;  // A, B
  std::vector<Opening> openings;    // at least one (an empty opening: the start position)
  int pairs = 1;
  int concurrency = 1;
  std::optional<SprtSettings> sprt;
  bool shuffle = true;   // the book's order shuffled by the seed; else the file's order
  int max_plies = 5000;  // a game still going then is a draw ("ply-limit")
  GamePlayer player;     // set: plays every game; empty: make_agent's agents, move by move
  // Games played here, move by move: each one's record (docs/records.md) is written to this
  // folder as record_stem(...).json. Empty: none kept.
  std::filesystem::path records;
};

struct FaultCounts {
  int illegal = 0, timeout = 0, crash = 0;
  int total() const { return illegal + timeout + crash; }
};

struct MatchProgress {
  Counts counts;
  std::array<FaultCounts, 2> faults{};
  std::optional<double> llr;
  SprtDecision decision = SprtDecision::Continue;
  int pairs_done = 0;
};

struct MatchCallbacks {
  std::function<void(const GameResult&)> on_game;         // every game, as it ends
  std::function<void(const MatchProgress&)> on_progress;  // after every counted pair
};

struct MatchOutcome {
  MatchProgress progress;
  std::vector<GameResult> games;  // counted games, in the order their pairs were counted
  int discarded_pairs = 0;        // finished after the SPRT had decided: not counted
};

// Plays one game from `opening` with `white` and `black`; the result from White's view in
// `outcome`, a_points for the side `a_side`. With `record`, also the game's record: every move
// from the start (the opening's with time 0), the players named from settings.agents.
GameResult play_game(const MatchSettings& settings, const Opening& opening, MatchAgent& white,
                     MatchAgent& black, Side a_side, GameRecord* record = nullptr);

// The file name (without extension) of a match game's record and logs: "0003-alpha-vs-beta",
// numbered from 1 over the match (pair p's games are 2p+1 and 2p+2), White first.
std::string record_stem(int pair, int game, const std::string& white, const std::string& black);

// Runs the whole match. Callbacks are called one at a time (under a lock). Throws
// std::runtime_error for settings that cannot work (no openings, an agent that cannot play the
// game), and what settings.player throws.
MatchOutcome run_match(const MatchSettings& settings, const MatchCallbacks& callbacks = {});

// The order openings are used in: pair i plays openings[order[i % size]].
std::vector<int> opening_order(std::size_t count, std::uint64_t seed, bool shuffle);

// One line about the match so far (what `arena match` prints after each pair).
std::string progress_line(const MatchSettings& settings, const MatchProgress& p);

}  // namespace arena::match
