#include "games/morris/endgame_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "games/morris/endgame_index.hpp"

namespace arena::morris::endgame {
namespace {

// The retrograde state of one table besides its values: `left` counts the moves without capture
// not yet known to lose (a position whose every move loses is lost), `floor` the least distance
// its loss can have (its captures' losses), or for `kWinsByCapture` positions the distance of
// the best capture's win.
constexpr std::uint8_t kWinsByCapture = 0xFF;   // a capture wins: never lost nor drawn
constexpr std::uint8_t kDrawsByCapture = 0xFE;  // a capture draws: never lost

struct Work {
  int movers = 0, others = 0;
  std::vector<std::uint8_t> value, left, floor;
  Work* next = nullptr;  // where a move without capture leads (the other table, or itself)
};

// Calls f(index, movers, others) for every position of table m-o, in index order: colex order
// is the numeric order of the masks, so the next set comes from Gosper's hack.
template <class F>
void for_each_position(int m, int o, F&& f) {
  const auto next = [](Points x) {
    const Points c = x & (~x + 1), r = x + c;
    return (((r ^ x) >> 2) / c) | r;
  };
  const std::uint64_t per = binomial(kPoints - m, o);
  std::uint64_t index = 0;
  Points us = (Points{1} << m) - 1;
  for (std::uint64_t i = 0; i < binomial(kPoints, m); ++i, us = next(us)) {
    Points squeezed = (Points{1} << o) - 1;
    for (std::uint64_t j = 0; j < per; ++j, squeezed = next(squeezed))
      f(index++, us, spread(squeezed, us));
  }
}

void check_distance(int plies) {
  if (plies > kMaxDistance)
    throw std::runtime_error(fmt::format("a distance of {} plies does not fit a byte", plies));
}

// Every move of every position: moves without capture are counted, captures looked up.
void initialise(Work& w, const Table* captured) {
  const int m = w.movers, o = w.others;
  for_each_position(m, o, [&](std::uint64_t index, Points us, Points them) {
    const Points empty = kAllPoints & ~(us | them);
    Points removable = them & ~in_mills(them);
    if (!removable) removable = them;
    int quiet = 0, win = kMaxDistance + 1, loss = 0;
    bool draw = false;
    for (Points f = us; f; f &= f - 1) {
      const int from = std::countr_zero(f);
      const Points rest = us & ~point_bit(from);
      for (Points t = m == 3 ? empty : kAdjacent[from] & empty; t; t &= t - 1) {
        const int to = std::countr_zero(t);
        const Points after = rest | point_bit(to);
        if (!mill_through(after, to)) {
          ++quiet;
          continue;
        }
        if (o == 3) {  // the other side drops to 2 pieces
          win = 1;
          continue;
        }
        for (Points r = removable; r; r &= r - 1) {
          const std::uint8_t code =
              (*captured)[position_index(them & ~point_bit(std::countr_zero(r)), after)];
          const EndgameValue v = decode(code);
          if (v.kind == EndgameValue::Kind::Draw) draw = true;
          if (v.kind == EndgameValue::Kind::Loss) win = std::min(win, v.plies + 1);
          if (v.kind == EndgameValue::Kind::Win) loss = std::max(loss, v.plies + 1);
        }
      }
    }
    if (win <= kMaxDistance) {
      w.left[index] = kWinsByCapture;
      w.floor[index] = static_cast<std::uint8_t>(win);
    } else if (draw) {
      w.left[index] = kDrawsByCapture;
    } else {
      check_distance(loss);
      w.left[index] = static_cast<std::uint8_t>(quiet);
      w.floor[index] = static_cast<std::uint8_t>(loss);
    }
  });
}

// Calls f(index in w.next) for every position of w.next whose move without capture leads to
// (us to move, them): one of `them` went back to where it came from.
template <class F>
void for_each_predecessor(const Work& w, Points us, Points them, F&& f) {
  const Points empty = kAllPoints & ~(us | them);
  for (Points x = them; x; x &= x - 1) {
    const int to = std::countr_zero(x);
    if (mill_through(them, to)) continue;  // that move closed a mill: a capture, not this
    const Points rest = them & ~point_bit(to);
    for (Points y = w.others == 3 ? empty : kAdjacent[to] & empty; y; y &= y - 1)
      f(position_index(rest | point_bit(std::countr_zero(y)), us));
  }
}

}  // namespace

std::vector<Table> solve_pair(int a, int b, const SolvedTables& solved, const Progress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::vector<Work> works(a == b ? 1 : 2);
  for (std::size_t i = 0; i < works.size(); ++i) {
    Work& w = works[i];
    w.movers = i == 0 ? a : b;
    w.others = i == 0 ? b : a;
    const std::uint64_t n = table_size(w.movers, w.others);
    w.value.assign(n, 0);
    w.left.assign(n, 0);
    w.floor.assign(n, 0);
    w.next = &works[works.size() - 1 - i];
  }
  for (Work& w : works) {
    const Table* captured = nullptr;
    if (w.others > 3) {
      captured = solved(w.others - 1, w.movers);
      if (!captured)
        throw std::runtime_error(fmt::format("table {}-{} needs table {}-{} first", w.movers,
                                             w.others, w.others - 1, w.movers));
    }
    initialise(w, captured);
  }
  if (progress) progress(fmt::format("  moves counted ({:.1f} s)", seconds()));

  int last_change = 0, pending = 0;
  for (const Work& w : works)
    for (std::uint64_t i = 0; i < w.floor.size(); ++i) pending = std::max<int>(pending, w.floor[i]);
  for (int d = 0; d <= kMaxDistance && (d <= last_change + 2 || d <= pending); ++d) {
    const std::uint8_t code = encode(d);
    const bool losses = d % 2 == 0;
    // Positions decided at this distance by their counters or their captures.
    for (Work& w : works) {
      for (std::uint64_t i = 0; i < w.value.size(); ++i) {
        if (w.value[i]) continue;
        if (losses ? w.left[i] == 0 && w.floor[i] <= d
                   : w.left[i] == kWinsByCapture && w.floor[i] == d) {
          w.value[i] = code;
          last_change = d;
        }
      }
    }
    // Their predecessors: a loss here wins there at d + 1; a win here takes a move from there.
    for (Work& w : works) {
      Work& to = *w.next;
      for (std::uint64_t i = 0; i < w.value.size(); ++i) {
        if (w.value[i] != code) continue;
        const PointSets p = position_at(i, w.movers, w.others);
        for_each_predecessor(w, p.movers, p.others, [&](std::uint64_t j) {
          if (to.value[j]) return;
          if (losses) {
            check_distance(d + 1);
            to.value[j] = encode(d + 1);
            last_change = d + 1;
          } else if (to.left[j] < kDrawsByCapture && --to.left[j] == 0) {
            to.floor[j] = static_cast<std::uint8_t>(std::max(int{to.floor[j]}, d + 1));
            last_change = d + 1;
          }
        });
      }
    }
    if (progress && d % 16 == 15) progress(fmt::format("  distance {} ({:.1f} s)", d, seconds()));
  }

  std::vector<Table> out;
  for (Work& w : works) out.emplace_back(w.movers, w.others, std::move(w.value));
  return out;
}

Counts count_values(const Table& t) {
  Counts c;
  for (std::uint64_t i = 0; i < t.size(); ++i) {
    const EndgameValue v = decode(t[i]);
    if (v.kind == EndgameValue::Kind::Draw) ++c.draws;
    if (v.kind == EndgameValue::Kind::Win) ++c.wins;
    if (v.kind == EndgameValue::Kind::Loss) ++c.losses;
    c.longest = std::max(c.longest, v.plies);
  }
  return c;
}

}  // namespace arena::morris::endgame
