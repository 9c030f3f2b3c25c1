#include "games/morris/endgames.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "core/bits.hpp"
#include "games/morris/endgame_index.hpp"
#include "games/morris/eval.hpp"

namespace arena::morris {
namespace endgame {
namespace {

// What building the default set takes on a two-core machine, for the warning.
constexpr const char* kBuildCost = "about 2 minutes, 161 MB";

std::atomic<const TableSet*> g_active{nullptr};
std::mutex g_mutex;
std::vector<std::unique_ptr<TableSet>> g_sets;  // every set installed: probes may still read one

const TableSet& install(TableSet tables) {
  g_sets.push_back(std::make_unique<TableSet>(std::move(tables)));
  g_active.store(g_sets.back().get(), std::memory_order_release);
  return *g_sets.back();
}

}  // namespace

std::vector<std::pair<int, int>> build_order(int max_pieces) {
  std::vector<std::pair<int, int>> order;
  for (int total = 6; total <= std::min(max_pieces, 2 * kPiecesPerSide); ++total)
    for (int m = std::min(total - 3, kPiecesPerSide); m >= 3 && total - m <= kPiecesPerSide; --m)
      if (m >= total - m) order.emplace_back(m, total - m);  // a pair: m-o and o-m together
  return order;
}

std::filesystem::path default_directory() {
  if (const char* d = std::getenv("ARENA_ENDGAMES"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::filesystem::path(x) / "arena" / "endgames";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::filesystem::path(h) / ".cache" / "arena" / "endgames";
  return std::filesystem::path(".cache") / "arena" / "endgames";
}

TableSet TableSet::load(const std::filesystem::path& dir,
                        const std::function<void(const std::string&)>& warn, int max_pieces) {
  TableSet set;
  for (const auto& [a, b] : build_order(max_pieces)) {
    std::vector<std::pair<int, int>> tables = {{a, b}};
    if (a != b) tables.emplace_back(b, a);  // a-a is one table
    for (const auto& [m, o] : tables) {
      if (set.find(m, o)) continue;
      const auto path = dir / table_file_name(m, o);
      std::error_code ec;
      if (!std::filesystem::exists(path, ec)) continue;
      std::string error;
      if (auto t = Table::load(path, error)) {
        if (t->movers() == m && t->others() == o) {
          set.add(std::move(*t));
          continue;
        }
        error = fmt::format("{}: holds table {}-{}", path.string(), t->movers(), t->others());
      }
      if (warn) warn(error);
    }
  }
  return set;
}

void TableSet::add(Table t) {
  tables_.push_back(std::make_unique<Table>(std::move(t)));
  by_count_[tables_.back()->movers()][tables_.back()->others()] = tables_.back().get();
}

const Table* TableSet::find(int movers, int others) const {
  if (movers < 0 || others < 0 || movers > kPiecesPerSide || others > kPiecesPerSide)
    return nullptr;
  return by_count_[movers][others];
}

std::uint64_t TableSet::bytes() const {
  std::uint64_t n = 0;
  for (const auto& t : tables_) n += t->size();
  return n;
}

std::optional<EndgameValue> TableSet::probe(const State& s) const {
  if (s.in_hand(Side::White) || s.in_hand(Side::Black)) return std::nullopt;
  const Side us = s.side_to_move();
  const Points own = s.points(us), opp = s.points(opposite(us));
  const int m = popcount(own), o = popcount(opp);
  if (m < 3 || o < 3) return std::nullopt;
  const Table* t = find(m, o);
  if (!t) return std::nullopt;
  return decode((*t)[endgame::position_index(own, opp)]);
}

bool build_tables(const std::filesystem::path& dir, int max_pieces, bool force,
                  const Progress& progress, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = fmt::format("cannot create {}: {}", dir.string(), ec.message());
    return false;
  }
  const auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  TableSet set = force ? TableSet{} : TableSet::load(dir, say, max_pieces);
  for (const auto& [a, b] : build_order(max_pieces)) {
    if (set.find(a, b) && set.find(b, a)) {
      say(fmt::format("morris {}-{}{}: present and valid", a, b,
                      a == b ? "" : fmt::format(" and {}-{}", b, a)));
      continue;
    }
    say(fmt::format("morris {}-{}{}: solving {:.1f} M positions", a, b,
                    a == b ? "" : fmt::format(" and {}-{}", b, a),
                    static_cast<double>(table_size(a, b) * (a == b ? 1 : 2)) / 1e6));
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Table> solved;
    try {
      solved = solve_pair(
          a, b, [&](int m, int o) { return set.find(m, o); }, progress);
    } catch (const std::exception& e) {
      error = e.what();
      return false;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (Table& t : solved) {
      const Counts c = count_values(t);
      const auto path = dir / table_file_name(t.movers(), t.others());
      if (!t.save(path, error)) return false;
      say(
          fmt::format("morris {}-{}: {} positions: {} wins, {} draws, {} losses for the side to "
                      "move, longest {} plies; {:.1f} s; {}",
                      t.movers(), t.others(), t.size(), c.wins, c.draws, c.losses, c.longest, secs,
                      path.string()));
      set.add(std::move(t));
    }
  }
  return true;
}

const TableSet& active_tables() {
  if (const TableSet* t = g_active.load(std::memory_order_acquire)) return *t;
  std::lock_guard lock(g_mutex);
  if (const TableSet* t = g_active.load(std::memory_order_acquire)) return *t;
  const auto dir = default_directory();
  const auto warn = [](const std::string& m) {
    fmt::print(stderr, "arena: {}; ignored (rebuild: arena endgames build morris)\n", m);
  };
  TableSet set = TableSet::load(dir, warn);
  if (set.count() == 0)
    fmt::print(stderr,
               "arena: Morris endgame databases not found in {}; build them with `arena endgames "
               "build morris` ({}); the engine plays on without them\n",
               dir.string(), kBuildCost);
  std::fflush(stderr);
  return install(std::move(set));
}

void use_tables(TableSet tables) {
  std::lock_guard lock(g_mutex);
  install(std::move(tables));
}

}  // namespace endgame

void load_endgame_tables(std::type_identity<State>) {
  (void)endgame::active_tables();
}

std::optional<EndgameValue> probe_endgame(const State& s) {
  if (s.in_hand(Side::White) || s.in_hand(Side::Black)) return std::nullopt;  // the usual case
  return endgame::active_tables().probe(s);
}

}  // namespace arena::morris
