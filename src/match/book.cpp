#include "match/book.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "core/rng.hpp"
#include "core/text.hpp"

#ifndef ARENA_SOURCE_DIR
#define ARENA_SOURCE_DIR ""
#endif

namespace arena::match {

namespace fs = std::filesystem;

Opening split_moves(std::string_view line) {
  Opening out;
  line = trim(line);
  if (line.empty()) return out;
  while (true) {
    const auto semi = line.find(';');
    out.emplace_back(trim(line.substr(0, semi)));
    if (semi == std::string_view::npos) break;
    line = line.substr(semi + 1);
  }
  return out;
}

std::string join_moves(const Opening& moves) {
  std::string out;
  for (const auto& m : moves) {
    if (!out.empty()) out += "; ";
    out += m;
  }
  return out;
}

Parsed<std::unique_ptr<AnyState>> position_after(const GameInfo& game, const RuleOptions& rules,
                                                 const Opening& moves, std::vector<Side>* sides) {
  using P = Parsed<std::unique_ptr<AnyState>>;
  auto state = game.start(rules);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (state->result().over())
      return P::fail(
          fmt::format("the game is over before move {} '{}'", i + 1, printable(moves[i])));
    if (sides) sides->push_back(state->side_to_move());
    const auto played = state->play(moves[i]);
    if (!played)
      return P::fail(fmt::format("move {} '{}': {}", i + 1, printable(moves[i]), played.error));
  }
  return P::ok(std::move(state));
}

Parsed<Book> parse_book(const GameInfo& game, const RuleOptions& rules, std::string_view text) {
  Book book;
  int number = 0;
  while (!text.empty()) {
    ++number;
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    line = trim(line.substr(0, line.find('#')));  // a comment: the whole line or its end
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty()) continue;
    Opening moves = split_moves(line);
    auto pos = position_after(game, rules, moves);
    if (!pos) return Parsed<Book>::fail(fmt::format("line {}: {}", number, pos.error));
    if ((*pos.value)->result().over())
      return Parsed<Book>::fail(fmt::format("line {}: the game is over after the opening", number));
    book.openings.push_back(std::move(moves));
  }
  if (book.openings.empty()) return Parsed<Book>::fail("the book has no openings");
  return Parsed<Book>::ok(std::move(book));
}

Parsed<Book> read_book(const GameInfo& game, const RuleOptions& rules, const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return Parsed<Book>::fail(fmt::format("cannot read {}: {}", path.string(), ec.message()));
  if (size > (16u << 20))
    return Parsed<Book>::fail(fmt::format("{} is larger than 16 MB", path.string()));
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  if (!in) return Parsed<Book>::fail(fmt::format("cannot read {}", path.string()));
  auto book = parse_book(game, rules, buf.str());
  if (!book) return Parsed<Book>::fail(fmt::format("{}: {}", path.string(), book.error));
  return book;
}

fs::path default_book_path(std::string_view game) {
  const std::string name = std::string(game) + ".txt";
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    candidates.push_back(exe.parent_path().parent_path().parent_path() / "data/books" / name);
  if (const std::string_view src = ARENA_SOURCE_DIR; !src.empty())
    candidates.push_back(fs::path(src) / "data/books" / name);
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c;
  return {};
}

namespace {

struct Candidate {
  Opening moves;
  std::unique_ptr<AnyState> state;
  int attempt = 0;
};

// The side to move's score at a fixed depth (one thread, fresh table, no contempt: the balance
// of the position, not what the engine would risk); nullopt when the search gave none.
std::optional<int> judge(const GameInfo& game, const AnyState& state, int depth) {
  PlayerSpec spec;
  spec.kind = PlayerKind::Engine;
  spec.depth = depth;
  spec.contempt = false;
  auto engine = game.make_player(spec);
  engine->choose(state);
  const auto summary = engine->last_search();
  if (!summary) return std::nullopt;
  return summary->eval;
}

// The score an opening is kept with, or nullopt when a judging search rejects it.
std::optional<int> judged_eval(const GameInfo& game, const BookRecipe& recipe,
                               const AnyState& state) {
  auto eval = judge(game, state, recipe.depth);
  if (!eval || std::abs(*eval) > recipe.max_eval) return std::nullopt;
  for (const int depth : recipe.confirm_depths) {
    eval = judge(game, state, depth);
    if (!eval || std::abs(*eval) > recipe.max_eval) return std::nullopt;
  }
  return eval;
}

// Judges a batch on `threads` threads; each candidate's verdict depends only on its position.
std::vector<std::optional<int>> judge_batch(const GameInfo& game, const BookRecipe& recipe,
                                            const std::vector<Candidate>& batch) {
  std::vector<std::optional<int>> verdicts(batch.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < batch.size(); i = next++)
      verdicts[i] = judged_eval(game, recipe, *batch[i].state);
  };
  const int helpers = std::clamp(recipe.threads, 1, static_cast<int>(batch.size())) - 1;
  std::vector<std::thread> pool;
  for (int t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return verdicts;
}

}  // namespace

std::vector<BookEntry> make_book(const GameInfo& game, const RuleOptions& rules,
                                 const BookRecipe& recipe,
                                 const std::function<void(const BookEntry&, int)>& on_entry) {
  std::vector<BookEntry> out;
  std::set<std::uint64_t> seen;
  Rng rng(recipe.seed);
  const int max_attempts = recipe.max_attempts > 0 ? recipe.max_attempts : 100 * recipe.positions;
  const int batch_size = 64 * std::max(1, recipe.threads);
  int attempt = 0;
  while (attempt < max_attempts && static_cast<int>(out.size()) < recipe.positions) {
    // The random openings are drawn in order, as one thread would, so the book does not depend
    // on the number of threads.
    std::vector<Candidate> batch;
    while (attempt < max_attempts && static_cast<int>(batch.size()) < batch_size) {
      ++attempt;
      PlayerSpec random_spec;
      random_spec.kind = PlayerKind::Random;
      random_spec.seed = rng.next();
      auto random = game.make_player(random_spec);
      Candidate c{{}, game.start(rules), attempt};
      for (int i = 0; i < recipe.plies && !c.state->result().over(); ++i) {
        const std::string move = random->choose(*c.state);
        const auto played = c.state->play(move);
        if (!played) break;  // cannot happen with the built-in random player
        c.moves.push_back(*played.value);
      }
      if (c.state->result().over() || static_cast<int>(c.moves.size()) != recipe.plies) continue;
      if (!seen.insert(c.state->hash()).second) continue;
      batch.push_back(std::move(c));
    }
    const auto verdicts = judge_batch(game, recipe, batch);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (!verdicts[i]) continue;
      out.push_back({std::move(batch[i].moves), *verdicts[i]});
      if (on_entry) on_entry(out.back(), batch[i].attempt);
      if (static_cast<int>(out.size()) == recipe.positions) return out;
    }
  }
  return out;
}

}  // namespace arena::match
