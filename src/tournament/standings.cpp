#include "tournament/standings.hpp"

#include <algorithm>
#include <tuple>

namespace arena::tournament {
namespace {

bool is_fault(EndKind k) {
  return k == EndKind::Timeout || k == EndKind::IllegalMove || k == EndKind::Crash ||
         k == EndKind::Disconnect || k == EndKind::Limit;
}

void count(Wdl& w, int points) {
  if (points == kWinPoints)
    ++w.wins;
  else if (points == kDrawPoints)
    ++w.draws;
  else
    ++w.losses;
}

}  // namespace

int points_for(Outcome outcome, Side side) {
  if (outcome == Outcome::Draw || outcome == Outcome::Ongoing) return kDrawPoints;
  return outcome == win_for(side) ? kWinPoints : 0;
}

std::vector<StandingRow> compute_standings(const std::vector<Participant>& participants,
                                           const std::vector<GameResult>& games) {
  const std::size_t n = participants.size();
  std::vector<StandingRow> rows(n);
  for (std::size_t i = 0; i < n; ++i) rows[i].participant = static_cast<int>(i);
  for (const GameResult& g : games) {
    for (Side s : {Side::White, Side::Black}) {
      StandingRow& r = rows[static_cast<std::size_t>(s == Side::White ? g.white : g.black)];
      const int pts = points_for(g.outcome, s);
      r.points += pts;
      count(r.total, pts);
      count(s == Side::White ? r.as_white : r.as_black, pts);
      if (pts == 0 && is_fault(g.end)) ++r.fault_losses;
    }
  }
  for (const GameResult& g : games) {
    auto& w = rows[static_cast<std::size_t>(g.white)];
    auto& b = rows[static_cast<std::size_t>(g.black)];
    w.sonneborn_berger += points_for(g.outcome, Side::White) * static_cast<double>(b.points);
    b.sonneborn_berger += points_for(g.outcome, Side::Black) * static_cast<double>(w.points);
  }
  const auto key = [](const StandingRow& r) {
    return std::make_tuple(r.points, r.sonneborn_berger, r.total.wins);
  };
  std::sort(rows.begin(), rows.end(), [&](const StandingRow& a, const StandingRow& b) {
    if (key(a) != key(b)) return key(a) > key(b);
    return participants[static_cast<std::size_t>(a.participant)].name <
           participants[static_cast<std::size_t>(b.participant)].name;
  });
  for (std::size_t i = 0; i < rows.size(); ++i)
    rows[i].rank =
        i > 0 && key(rows[i]) == key(rows[i - 1]) ? rows[i - 1].rank : static_cast<int>(i) + 1;
  return rows;
}

Crosstable compute_crosstable(int participants, const std::vector<GameResult>& games) {
  const auto n = static_cast<std::size_t>(participants);
  Crosstable t(n, std::vector<CrossCell>(n));
  for (const GameResult& g : games) {
    for (Side s : {Side::White, Side::Black}) {
      const int me = s == Side::White ? g.white : g.black;
      const int them = s == Side::White ? g.black : g.white;
      CrossCell& c = t[static_cast<std::size_t>(me)][static_cast<std::size_t>(them)];
      const int pts = points_for(g.outcome, s);
      (s == Side::White ? c.as_white : c.as_black) = pts == kWinPoints    ? 'W'
                                                     : pts == kDrawPoints ? 'D'
                                                                          : 'L';
      c.points += pts;
    }
  }
  return t;
}

}  // namespace arena::tournament
