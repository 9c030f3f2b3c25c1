#include "match/book.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

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
                                                 const Opening& moves) {
  using P = Parsed<std::unique_ptr<AnyState>>;
  auto state = game.start(rules);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (state->result().over())
      return P::fail(
          fmt::format("the game is over before move {} '{}'", i + 1, printable(moves[i])));
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

std::vector<BookEntry> make_book(const GameInfo& game, const RuleOptions& rules,
                                 const BookRecipe& recipe,
                                 const std::function<void(const BookEntry&, int)>& on_entry) {
  std::vector<BookEntry> out;
  std::set<std::uint64_t> seen;
  Rng rng(recipe.seed);
  const int max_attempts = recipe.max_attempts > 0 ? recipe.max_attempts : 100 * recipe.positions;
  for (int attempt = 1; attempt <= max_attempts && static_cast<int>(out.size()) < recipe.positions;
       ++attempt) {
    PlayerSpec random_spec;
    random_spec.kind = PlayerKind::Random;
    random_spec.seed = rng.next();
    auto random = game.make_player(random_spec);
    auto state = game.start(rules);
    Opening moves;
    for (int i = 0; i < recipe.plies && !state->result().over(); ++i) {
      const std::string move = random->choose(*state);
      const auto played = state->play(move);
      if (!played) break;  // cannot happen with the built-in random player
      moves.push_back(*played.value);
    }
    if (state->result().over() || static_cast<int>(moves.size()) != recipe.plies) continue;
    if (!seen.insert(state->hash()).second) continue;
    PlayerSpec judge_spec;
    judge_spec.kind = PlayerKind::Engine;
    judge_spec.depth = recipe.depth;
    judge_spec.contempt = false;  // the balance of the position, not what the engine would risk
    auto judge = game.make_player(judge_spec);
    judge->choose(*state);
    const auto summary = judge->last_search();
    if (!summary) continue;
    if (std::abs(summary->eval) > recipe.max_eval) continue;
    out.push_back({std::move(moves), summary->eval});
    if (on_entry) on_entry(out.back(), attempt);
  }
  return out;
}

}  // namespace arena::match
