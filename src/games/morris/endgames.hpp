#pragma once
// The set of Morris endgame tables a process uses, where they live, and how they are built.
// The cache folder is $ARENA_ENDGAMES if set, else $XDG_CACHE_HOME/arena/endgames, else
// ~/.cache/arena/endgames. It is loaded once per process, when an engine player is made or else
// at the first probe; without tables it says so once on stderr and plays on.
#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "games/morris/endgame_build.hpp"
#include "games/morris/endgame_table.hpp"
#include "games/morris/state.hpp"

namespace arena::morris::endgame {

// The tables built by default: every M-O with M + O at most this (3-3, 4-3, 3-4, 4-4, 5-3, 3-5).
inline constexpr int kDefaultMaxPieces = 8;

// Piece counts (M, O) with M + O <= max_pieces, each after the tables its captures lead to.
std::vector<std::pair<int, int>> build_order(int max_pieces);

std::filesystem::path default_directory();

class TableSet {
 public:
  // Every valid table file in `dir` up to max_pieces; a missing file is skipped, a bad one is
  // reported through `warn` and skipped.
  static TableSet load(const std::filesystem::path& dir,
                       const std::function<void(const std::string&)>& warn,
                       int max_pieces = 2 * kPiecesPerSide);

  void add(Table t);
  const Table* find(int movers, int others) const;
  std::size_t count() const { return tables_.size(); }
  std::uint64_t bytes() const;
  // The value for the side to move, or nullopt (pieces in hand, a game already over, no table).
  std::optional<EndgameValue> probe(const State& s) const;

 private:
  std::vector<std::unique_ptr<Table>> tables_;
  std::array<std::array<const Table*, kPiecesPerSide + 1>, kPiecesPerSide + 1> by_count_{};
};

// Builds the tables up to max_pieces missing from `dir` (valid files there are reused unless
// `force`), writing each as it is solved. False with the reason in `error` on a failure.
bool build_tables(const std::filesystem::path& dir, int max_pieces, bool force,
                  const Progress& progress, std::string& error);

// The tables the searches of this process probe: on first use, those of default_directory().
const TableSet& active_tables();
// Replaces them (tests; the bench uses none, so its signature is the same on every machine).
// Call it before searches run, not during.
void use_tables(TableSet tables);

}  // namespace arena::morris::endgame
