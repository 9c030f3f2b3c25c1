#pragma once
// `arena engine GAME`: arena's players behind a UCI-like protocol on stdin/stdout, so that a match
// can start them from any position and compare two builds (docs/match.md):
//
//   > uci                                   < id name arena GAME PLAYER
//                                           < uciok
//   > isready                               < readyok
//   > ucinewgame                            (forget the last game: a fresh player)
//   > position startpos [moves M1; M2; ...] (moves as wire text, ';' between them)
//   > go [movetime MS | nodes N | depth N]  < info depth D score S   (engines)
//                                           < bestmove M
//   > quit
//
// Anything wrong (an illegal move in `position`, `go` without a position or with the game over,
// an unknown command) is answered with one line "error ..." and the engine waits for the next
// command.
#include <cstdint>
#include <iosfwd>

#include "games/registry.hpp"

namespace arena::match {

struct EngineProtocolOptions {
  RuleOptions rules;
  PlayerKind kind = PlayerKind::Engine;
  std::uint64_t seed = 1;
  // A bare "go": at most one of these, else move_time_ms.
  int depth = 0;
  std::uint64_t nodes = 0;
  int move_time_ms = 1000;
  int threads = 1;   // engine: search threads
  int level = 0;     // engine: strength level (0: full)
  int table_mb = 0;  // engine: transposition table in MB (0: the default)
};

// Serves commands until "quit" or the end of input; gives the exit status (0).
int run_engine_protocol(const GameInfo& game, const EngineProtocolOptions& options,
                        std::istream& in, std::ostream& out);

}  // namespace arena::match
