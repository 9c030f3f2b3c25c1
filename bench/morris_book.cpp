// Makes the Morris engine book (data/engine/morris-book.txt, docs/morris.md): searches placement
// positions to a fixed depth and writes each with the move found. The positions are the game
// trees from the start (or from each opening of a match book) in which one side plays the book's
// moves and the other every move, so whatever the opponent places, the book answers. Resumable:
// positions already in the output are not searched again, and each line is written as it is found.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_set>
#include <vector>

#include "core/bits.hpp"
#include "core/text.hpp"
#include "games/morris/engine_book.hpp"
#include "games/morris/eval.hpp"
#include "search/search.hpp"

using namespace arena;
using namespace arena::morris;

namespace {

struct Options {
  std::string out;
  int depth = 15;
  int start_plies = 0;
  std::vector<std::string> openings;
  int opening_plies = 1;
  int jobs = 2;
  int table_mb = 256;
  bool crossings_first = false;
};

// The middle ring's midpoints, the only points with four neighbours.
const Points kCrossings = [] {
  Points out = 0;
  for (int p = 0; p < kPoints; ++p)
    if (popcount(kAdjacent[p]) == 4) out |= point_bit(p);
  return out;
}();

// How many neighbours the points of the side that just moved have: strong players take the
// points with most neighbours first, so the positions they reach sort first, and a run stopped
// part way has searched the likely positions.
int likelihood(const State& s) {
  const Position p = s.position();
  Bitboard theirs = p.to_move == Side::White ? p.black : p.white;
  int neighbours = 0;
  while (theirs) neighbours += popcount(kAdjacent[pop_lsb(theirs)]);
  return neighbours;
}

// The opponent's placements the tree follows: all, or with --crossings-first only the crossings
// while one is free (as Sanmill places in every game recorded in data/matches).
void opponent_moves(const State& s, bool crossings_first, MoveList<Move, State::kMaxMoves>& out) {
  const Position p = s.position();
  const Points free_crossings = kCrossings & ~(p.white | p.black);
  if (!crossings_first || free_crossings == 0) {
    s.legal_moves(out);
    return;
  }
  MoveList<Move, State::kMaxMoves> all;
  s.legal_moves(all);
  for (const Move m : all)
    if (free_crossings & point_bit(m.to)) out.push(m);
}

State plain(const State& s) {
  Position p = s.position();
  p.ply = 0;
  return *State::from_position(p).value;
}

// The position after each line of a match book ("e5; e4; b6; ...").
std::vector<State> read_openings(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<State> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string_view text = trim(std::string_view(line).substr(0, line.find('#')));
    if (text.empty()) continue;
    State s = State::start();
    for (std::size_t at = 0; at <= text.size();) {
      const std::size_t semi = std::min(text.find(';', at), text.size());
      const auto move = s.parse_move(trim(text.substr(at, semi - at)));
      if (!move) throw std::runtime_error(fmt::format("{} line {}: {}", path, number, move.error));
      s.apply(*move.value);
      at = semi + 1;
    }
    out.push_back(plain(s));
  }
  return out;
}

class BookMaker {
 public:
  BookMaker(const Options& o, EngineBook book) : o_(o), book_(std::move(book)) {
    out_.open(o.out, std::ios::app);
    if (!out_) throw std::runtime_error("cannot write " + o.out);
  }

  // Searches every position of each side's trees from `roots` where that side moves within
  // `plies`, a level of all trees at a time (so that the jobs share the work).
  void grow(const std::vector<State>& roots, int plies) {
    for (const Side side : {Side::White, Side::Black}) {
      std::vector<State> level = roots;
      for (int ply = 0; ply < plies && !level.empty(); ++ply) {
        std::vector<State> ours;
        for (const State& s : level)
          if (s.side_to_move() == side && s.stage(side) == Stage::Placing && !s.result().over())
            ours.push_back(s);
        search_all(ours);
        std::vector<State> next;
        std::unordered_set<std::uint64_t> seen;
        for (const State& s : level) {
          if (s.result().over() || s.stage(s.side_to_move()) != Stage::Placing) continue;
          MoveList<Move, State::kMaxMoves> moves;
          if (s.side_to_move() == side) {
            const auto book = book_.find(s);
            if (!book) continue;
            moves.push(book->move);
          } else {
            opponent_moves(s, o_.crossings_first, moves);
          }
          for (const Move m : moves) {
            State child = s;
            child.apply(m);
            child = plain(child);
            if (seen.insert(EngineBook::key(child)).second) next.push_back(child);
          }
        }
        level = std::move(next);
      }
    }
  }

 private:
  const Options& o_;
  EngineBook book_;
  std::ofstream out_;
  std::mutex mutex_;
  int searched_ = 0;

  void search_all(const std::vector<State>& positions) {
    std::vector<State> todo;
    std::unordered_set<std::uint64_t> seen;
    for (const State& s : positions)
      if (!book_.find(s) && seen.insert(EngineBook::key(s)).second) todo.push_back(s);
    if (todo.empty()) return;
    std::stable_sort(todo.begin(), todo.end(),
                     [](const State& a, const State& b) { return likelihood(a) > likelihood(b); });
    fmt::print(stderr, "searching {} positions to depth {}\n", todo.size(), o_.depth);
    std::atomic<std::size_t> next{0};
    const auto started = std::chrono::steady_clock::now();
    auto work = [&] {
      Searcher<State> searcher(static_cast<std::size_t>(o_.table_mb));
      SearchLimits limits;
      limits.max_depth = o_.depth;
      for (std::size_t i; (i = next++) < todo.size();) {
        const auto found = searcher.search(todo[i], limits);
        if (!found.has_move) continue;  // a finished game: nothing to keep
        const BookMove<Move> entry{found.best, found.depth, found.score};
        std::lock_guard lock(mutex_);
        book_.add(todo[i], entry);
        out_ << EngineBook::line(todo[i], entry) << '\n' << std::flush;
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const std::size_t done = ++searched_, here = i + 1;
        fmt::print(stderr, "[{}/{}] {} ({:.0f} s, {} in all)\n", here, todo.size(),
                   EngineBook::line(todo[i], entry), seconds, done);
      }
    };
    std::vector<std::jthread> workers;
    for (int j = 0; j < o_.jobs; ++j) workers.emplace_back(work);
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Makes the Morris engine book: searches the placement positions of the game trees from the "
      "start and from a match book's openings, where one side plays the book's moves and the "
      "other any move, and appends each with its move to OUT (positions already there are kept)."};
  Options o;
  app.add_option("--out", o.out, "The book to extend (data/engine/morris-book.txt)")->required();
  app.add_option("--depth", o.depth, "Search depth of each position")->check(CLI::Range(1, 40));
  app.add_option("--start-plies", o.start_plies,
                 "Plies of the tree from the start position (0: none)")
      ->check(CLI::Range(0, 18));
  app.add_option("--openings", o.openings, "Match books whose openings are roots too");
  app.add_option("--opening-plies", o.opening_plies, "Plies of the tree from each opening")
      ->check(CLI::Range(1, 18));
  app.add_option("-j,--jobs", o.jobs, "Positions searched at once")->check(CLI::Range(1, 64));
  app.add_option("--table", o.table_mb, "Transposition table per job, MB")
      ->check(CLI::Range(1, 16384));
  app.add_flag("--crossings-first", o.crossings_first,
               "In the trees the opponent places on the middle ring's midpoints while one is free");
  CLI11_PARSE(app, argc, argv);
  try {
    EngineBook book;
    if (std::ifstream in(o.out); in) {
      std::stringstream text;
      text << in.rdbuf();
      auto parsed = EngineBook::parse(text.str());
      if (!parsed) throw std::runtime_error(o.out + ": " + parsed.error);
      book = std::move(*parsed.value);
    }
    fmt::print(stderr, "{}: {} positions\n", o.out, book.size());
    load_endgame_tables(std::type_identity<State>{});
    BookMaker maker(o, std::move(book));
    if (o.start_plies > 0) maker.grow({State::start()}, o.start_plies);
    std::vector<State> openings;
    for (const std::string& path : o.openings)
      for (const State& root : read_openings(path)) openings.push_back(root);
    if (!openings.empty()) maker.grow(openings, o.opening_plies);
  } catch (const std::exception& e) {
    fmt::print(stderr, "morris_book: {}\n", e.what());
    return 1;
  }
  return 0;
}
