#include "course/matchmaking.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "tournament/ratings.hpp"

namespace arena::course {
namespace {

// The error bar shown for a version without games: wider than any fitted one (a single game
// gives a few hundred Elo), finite so that it stays valid JSON.
constexpr double kUnratedError95 = 1000;

// An unsettled version seeds before settled ones only until it has this many times
// `settle_games`: a version that loses (or wins) every game keeps a wide error bar for good, and
// must not take every pairing of the term.
constexpr int kUnsettledPriorityFactor = 3;

// Plain uses of the generator rather than std::uniform_*_distribution, whose results differ
// between standard libraries: the same rng state gives the same pairings everywhere.
std::size_t uniform_index(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>(rng() % n);
}
double uniform_unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace

std::vector<LadderStanding> rate_ladder(const std::vector<std::int64_t>& versions,
                                        const std::vector<LadderGame>& games,
                                        const MatchmakingPolicy& policy) {
  std::map<std::int64_t, std::size_t> index;
  std::vector<LadderStanding> out;
  for (std::int64_t v : versions)
    if (index.emplace(v, out.size()).second) out.push_back({.version = v});

  std::vector<const LadderGame*> among;
  for (const LadderGame& g : games) {
    const auto w = index.find(g.white), b = index.find(g.black);
    if (w == index.end() || b == index.end() || g.white == g.black) continue;
    among.push_back(&g);
    ++out[w->second].games;
    ++out[b->second].games;
  }

  // Only versions with games take part in the fit (one without would make it regularise), plus
  // a virtual opponent that draws once with each of them: a weak prior that keeps the ratings
  // finite when a version wins or loses every game. The tournament's own fallback (a virtual
  // draw between every pair) would outweigh the real games of a ladder of hundreds.
  std::vector<int> participant(out.size(), -1);
  int rated = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].games > 0) participant[i] = rated++;
  if (rated > 0) {
    const int anchor = rated;
    std::vector<tournament::GameResult> results;
    results.reserve(among.size() + static_cast<std::size_t>(rated));
    for (const LadderGame* g : among) {
      tournament::GameResult r;
      r.white = participant[index.at(g->white)];
      r.black = participant[index.at(g->black)];
      r.outcome = g->white_score > 0.75   ? Outcome::WhiteWins
                  : g->white_score < 0.25 ? Outcome::BlackWins
                                          : Outcome::Draw;
      results.push_back(r);
    }
    for (int p = 0; p < rated; ++p) {
      tournament::GameResult r;
      r.white = p;
      r.black = anchor;
      r.outcome = Outcome::Draw;
      results.push_back(r);
    }
    const tournament::Ratings fit = tournament::compute_ratings(rated + 1, results);
    // Centre on the versions rated, without the virtual opponent.
    double mean = 0;
    for (int p = 0; p < rated; ++p) mean += fit.players[static_cast<std::size_t>(p)].elo;
    mean /= rated;
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (participant[i] < 0) continue;
      const tournament::Rating& r = fit.players[static_cast<std::size_t>(participant[i])];
      out[i].rating = r.elo - mean;
      out[i].error95 = r.error95;
    }
  }
  for (LadderStanding& s : out) {
    if (s.games == 0) s.error95 = kUnratedError95;
    s.settled = s.games >= policy.settle_games && s.error95 <= policy.settle_error95;
  }
  std::sort(out.begin(), out.end(), [](const LadderStanding& a, const LadderStanding& b) {
    return a.rating != b.rating ? a.rating > b.rating : a.version < b.version;
  });
  return out;
}

std::vector<Pairing> choose_pairings(const std::vector<LadderStanding>& standings,
                                     const std::vector<LadderGame>& played,
                                     const std::vector<Pairing>& pending, int count,
                                     const MatchmakingPolicy& policy, std::mt19937_64& rng) {
  const std::size_t n = standings.size();
  std::vector<Pairing> out;
  if (n < 2 || count <= 0) return out;
  // The versions are distinct, as rate_ladder gives them.
  std::map<std::int64_t, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index.emplace(standings[i].version, i);

  // Per version its games (played and pending); per ordered pair (i, j) the games i had White.
  std::vector<int> games(n);
  for (std::size_t i = 0; i < n; ++i) games[i] = standings[i].games;
  std::vector<std::vector<int>> whites(n, std::vector<int>(n, 0));
  const auto count_game = [&](std::int64_t white, std::int64_t black, bool is_pending) {
    const auto w = index.find(white), b = index.find(black);
    if (w == index.end() || b == index.end() || w->second == b->second) return;
    ++whites[w->second][b->second];
    if (is_pending) {
      ++games[w->second];
      ++games[b->second];
    }
  };
  for (const LadderGame& g : played) count_game(g.white, g.black, false);
  for (const Pairing& p : pending) count_game(p.white, p.black, true);
  const auto meetings = [&](std::size_t i, std::size_t j) { return whites[i][j] + whites[j][i]; };

  const int priority_games = kUnsettledPriorityFactor * policy.settle_games;
  std::vector<std::size_t> ties;
  std::vector<double> weight(n);
  // The seed's order: unsettled first, then fewest games.
  const auto key = [&](std::size_t i) {
    const bool first = !standings[i].settled && games[i] < priority_games;
    return std::pair(first ? 0 : 1, games[i]);
  };
  for (int k = 0; k < count; ++k) {
    ties.clear();  // ties broken at random
    for (std::size_t i = 0; i < n; ++i) {
      if (!ties.empty() && key(i) > key(ties[0])) continue;
      if (!ties.empty() && key(i) < key(ties[0])) ties.clear();
      ties.push_back(i);
    }
    const std::size_t seed = ties[uniform_index(rng, ties.size())];

    // The opponent: near in rating, and the less often met the likelier; now and then (and
    // whenever the weights vanish) any of those met least.
    double total = 0;
    for (std::size_t j = 0; j < n; ++j) {
      weight[j] = 0;
      if (j == seed) continue;
      const double z = (standings[j].rating - standings[seed].rating) / policy.window_elo;
      weight[j] = std::exp(-z * z / 2) / (1 + meetings(seed, j));
      total += weight[j];
    }
    std::size_t opponent = seed;
    if (uniform_unit(rng) >= policy.explore && total > 0 && std::isfinite(total)) {
      double x = uniform_unit(rng) * total;
      for (std::size_t j = 0; j < n && opponent == seed; ++j)
        if (weight[j] > 0 && (x -= weight[j]) < 0) opponent = j;
      // Rounding can leave x just short of the last weight: take the last candidate.
      for (std::size_t j = n; j-- > 0 && opponent == seed;)
        if (weight[j] > 0) opponent = j;
    } else {
      ties.clear();
      for (std::size_t j = 0; j < n; ++j) {
        if (j == seed) continue;
        if (!ties.empty() && meetings(seed, j) > meetings(seed, ties[0])) continue;
        if (!ties.empty() && meetings(seed, j) < meetings(seed, ties[0])) ties.clear();
        ties.push_back(j);
      }
      opponent = ties[uniform_index(rng, ties.size())];
    }

    // Colours: White to the side that had it less often in this pair.
    const int seed_whites = whites[seed][opponent], opponent_whites = whites[opponent][seed];
    const bool seed_white =
        seed_whites != opponent_whites ? seed_whites < opponent_whites : (rng() & 1) == 0;
    const std::size_t w = seed_white ? seed : opponent, b = seed_white ? opponent : seed;
    out.push_back({standings[w].version, standings[b].version});
    ++whites[w][b];
    ++games[w];
    ++games[b];
  }
  return out;
}

}  // namespace arena::course
