#pragma once
// Opening books: balanced start positions for matches, one per line as the moves that lead to it
// from the game's start, separated by ';' (Paper Soccer's turns contain spaces):
//
//   # comments (a whole line or a line's end) and blank lines are ignored
//   B4,NE; G5,SW; C3,E; F6,W  # +12
//
// `arena match book GAME` makes one by a fixed procedure (docs/match.md): random openings from a
// seed, kept when a fixed-depth search scores them near 0.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"
#include "games/registry.hpp"

namespace arena::match {

using Opening = std::vector<std::string>;  // moves as wire text, from the start position

struct Book {
  std::vector<Opening> openings;
};

// The moves of one line ("M1; M2; ..."), trimmed; an empty line gives no moves.
Opening split_moves(std::string_view line);
// "M1; M2; ...".
std::string join_moves(const Opening& moves);

// The position after `moves` from the game's start, or why a move is not legal (move number and
// text) or the game ends inside the opening. `sides`, when given, gets the side that played each.
Parsed<std::unique_ptr<AnyState>> position_after(const GameInfo& game, const RuleOptions& rules,
                                                 const Opening& moves,
                                                 std::vector<Side>* sides = nullptr);

// Reads a book's text, checking every line is legal in `game` and leaves the game going; errors
// name the line ("line 7: move 2 'Z9,N': ...").
Parsed<Book> parse_book(const GameInfo& game, const RuleOptions& rules, std::string_view text);
// The same from a file (at most 16 MB); errors name the file.
Parsed<Book> read_book(const GameInfo& game, const RuleOptions& rules,
                       const std::filesystem::path& path);

// The book shipped for a game: data/books/GAME.txt beside the arena binary's source tree (found
// from the binary: <exe>/../../data/books, then the source folder arena was built from). Empty
// when there is none.
std::filesystem::path default_book_path(std::string_view game);

// How `arena match book` makes a book.
struct BookRecipe {
  int positions = 50;  // openings wanted
  int plies = 4;       // random moves (turns) from the start
  int depth = 4;       // the fixed-depth search that judges them
  int max_eval = 100;  // kept when |score| <= this (engine units, side to move's view)
  // Deeper searches, in order, that an opening which passed `depth` must pass too: a cheap
  // search sorts out most attempts and the deep ones judge the rest.
  std::vector<int> confirm_depths;
  std::uint64_t seed = 1;
  int max_attempts = 0;  // 0: 100 per position wanted
  int threads = 1;       // openings judged at once; the book is the same for any number
};

struct BookEntry {
  Opening moves;
  int eval = 0;  // the judging search's score (the deepest), side to move's view
};

// Deterministic for a recipe and a build: random openings from the seed (each with its own
// random player seeded from the recipe's generator), duplicates of a position skipped, the game
// not over, kept when the fixed-depth search's score is within max_eval. `on_entry` hears each
// kept one (for progress).
std::vector<BookEntry> make_book(
    const GameInfo& game, const RuleOptions& rules, const BookRecipe& recipe,
    const std::function<void(const BookEntry&, int attempts)>& on_entry = {});

}  // namespace arena::match
