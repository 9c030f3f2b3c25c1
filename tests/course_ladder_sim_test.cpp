// The ladder's arithmetic (course/matchmaking.hpp): ratings, pairings, and a simulated term of
// agents of known strength, whose figures docs/ladder.md quotes.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "course/matchmaking.hpp"

namespace arena::course {
namespace {

double unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// One game between agents of these true Elo ratings: White's expected score is the
// Bradley-Terry one; up to a tenth of the games are draws, taken from the decisive ones.
double play(double white_elo, double black_elo, std::mt19937_64& rng) {
  const double p = 1 / (1 + std::pow(10.0, (black_elo - white_elo) / 400));
  const double draw = std::min(0.1, 2 * std::min(p, 1 - p));
  const double x = unit(rng);
  return x < p - draw / 2 ? 1.0 : x < 1 - draw ? 0.0 : 0.5;
}

const LadderStanding& standing_of(const std::vector<LadderStanding>& s, std::int64_t v) {
  const auto it = std::find_if(s.begin(), s.end(), [&](const auto& x) { return x.version == v; });
  if (it != s.end()) return *it;
  ADD_FAILURE() << "no standing for version " << v;
  static const LadderStanding none;
  return none;
}

// Settled standings with the given ratings, as the ladder would have them mid-term.
std::vector<LadderStanding> settled_field(const std::vector<double>& ratings, int games = 40) {
  std::vector<LadderStanding> s;
  for (std::size_t i = 0; i < ratings.size(); ++i)
    s.push_back({static_cast<std::int64_t>(i + 1), ratings[i], 100, games, true});
  return s;
}

// ---- rate_ladder

TEST(RateLadder, TheVersionThatScoresMoreIsRatedHigher) {
  std::vector<LadderGame> games;
  for (int i = 0; i < 10; ++i) {
    games.push_back({1, 2, i < 7 ? 1.0 : 0.0});  // 1 beats 2 seven times in ten
    games.push_back({3, 2, i < 3 ? 1.0 : 0.5});  // 3 scores 65% against 2
    games.push_back({1, 3, i < 6 ? 1.0 : 0.5});
  }
  const auto s = rate_ladder({1, 2, 3}, games);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].version, 1);
  EXPECT_EQ(s[1].version, 3);
  EXPECT_EQ(s[2].version, 2);
  EXPECT_GT(s[0].rating, s[1].rating);
  EXPECT_GT(s[1].rating, s[2].rating);
  EXPECT_NEAR(s[0].rating + s[1].rating + s[2].rating, 0, 1e-9);
  EXPECT_EQ(s[0].games, 20);
  EXPECT_EQ(s[2].games, 20);
  for (const auto& x : s) EXPECT_TRUE(std::isfinite(x.error95) && x.error95 > 0);
}

TEST(RateLadder, IgnoresGamesOfOtherVersions) {
  std::vector<LadderGame> games = {{1, 2, 1}, {2, 1, 0.5}, {2, 1, 0}, {1, 2, 0}, {1, 2, 1}};
  const auto alone = rate_ladder({1, 2}, games);
  games.push_back({99, 1, 1});
  games.push_back({2, 99, 0});
  games.push_back({99, 98, 1});
  games.push_back({1, 1, 1});  // a version against itself is not a game among versions
  const auto mixed = rate_ladder({1, 2}, games);
  ASSERT_EQ(mixed.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(mixed[i].version, alone[i].version);
    EXPECT_NEAR(mixed[i].rating, alone[i].rating, 1e-9);
    EXPECT_NEAR(mixed[i].error95, alone[i].error95, 1e-9);
    EXPECT_EQ(mixed[i].games, 5);
  }
}

TEST(RateLadder, DoesNotDependOnTheOrderOfGames) {
  std::mt19937_64 rng(7);
  const std::vector<double> strength = {-300, -100, 0, 50, 250, 400};
  std::vector<LadderGame> games;
  for (int k = 0; k < 300; ++k) {
    const auto w = rng() % 6, b = (w + 1 + rng() % 5) % 6;
    games.push_back({static_cast<std::int64_t>(w + 1), static_cast<std::int64_t>(b + 1),
                     play(strength[w], strength[b], rng)});
  }
  const std::vector<std::int64_t> versions = {1, 2, 3, 4, 5, 6};
  const auto before = rate_ladder(versions, games);
  std::shuffle(games.begin(), games.end(), rng);
  const auto after = rate_ladder(versions, games);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].version, after[i].version);
    EXPECT_NEAR(before[i].rating, after[i].rating, 1e-9);
    EXPECT_NEAR(before[i].error95, after[i].error95, 1e-9);
  }
}

TEST(RateLadder, VersionsWithoutGamesAreUnsettled) {
  std::vector<LadderGame> games;
  for (int i = 0; i < 30; ++i) games.push_back({i % 2 ? 1 : 2, i % 2 ? 2 : 1, 0.5});
  const auto s = rate_ladder({7, 1, 2, 5}, games, {.settle_games = 20, .settle_error95 = 400});
  ASSERT_EQ(s.size(), 4u);
  for (std::int64_t v : {5, 7}) {
    const auto& x = standing_of(s, v);
    EXPECT_EQ(x.games, 0);
    EXPECT_EQ(x.rating, 0);
    EXPECT_GT(x.error95, 500);
    EXPECT_TRUE(std::isfinite(x.error95));
    EXPECT_FALSE(x.settled);
  }
  EXPECT_TRUE(standing_of(s, 1).settled);
  EXPECT_TRUE(standing_of(s, 2).settled);
  // Equal ratings: in version order.
  EXPECT_EQ(s[0].version, 1);
  EXPECT_EQ(s[1].version, 2);
  EXPECT_EQ(s[2].version, 5);
  EXPECT_EQ(s[3].version, 7);
  EXPECT_TRUE(rate_ladder({}, games).empty());
}

TEST(RateLadder, SettlesOnGamesAndErrorBar) {
  std::vector<LadderGame> games;
  for (int i = 0; i < 12; ++i) games.push_back({1, 2, i % 3 == 0 ? 1.0 : 0.5});
  const auto few = rate_ladder({1, 2}, games, {.settle_games = 20, .settle_error95 = 1000});
  EXPECT_FALSE(few[0].settled);  // 12 games < 20
  const auto loose = rate_ladder({1, 2}, games, {.settle_games = 10, .settle_error95 = 1000});
  EXPECT_TRUE(loose[0].settled && loose[1].settled);
  const auto tight = rate_ladder({1, 2}, games, {.settle_games = 10, .settle_error95 = 50});
  EXPECT_FALSE(tight[0].settled);  // 12 games leave a bar far wider than 50 Elo
}

TEST(RateLadder, AVersionThatWinsEveryGameStaysFiniteAndFirst) {
  std::vector<LadderGame> games;
  for (int i = 0; i < 10; ++i) {
    games.push_back({1, 2, 1});
    games.push_back({3, 1, 0});
    games.push_back({2, 3, i % 2 ? 1.0 : 0.5});
  }
  const auto s = rate_ladder({1, 2, 3}, games);
  EXPECT_EQ(s[0].version, 1);
  EXPECT_EQ(s[1].version, 2);
  EXPECT_TRUE(std::isfinite(s[0].rating) && std::isfinite(s[0].error95));
  EXPECT_GT(s[0].rating - s[1].rating, 200);
}

// ---- choose_pairings

TEST(ChoosePairings, FewerThanTwoVersionsGiveNone) {
  std::mt19937_64 rng(1);
  EXPECT_TRUE(choose_pairings({}, {}, {}, 4, {}, rng).empty());
  EXPECT_TRUE(choose_pairings(settled_field({0}), {}, {}, 4, {}, rng).empty());
  EXPECT_EQ(choose_pairings(settled_field({0, 10}), {}, {}, 4, {}, rng).size(), 4u);
}

TEST(ChoosePairings, IsDeterministicForAGivenRngState) {
  const auto field = settled_field({-300, -200, -50, 0, 20, 150, 400});
  std::mt19937_64 a(42), b(42);
  for (int k = 0; k < 5; ++k) {
    const auto x = choose_pairings(field, {}, {}, 6, {}, a);
    const auto y = choose_pairings(field, {}, {}, 6, {}, b);
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x[i].white, y[i].white);
      EXPECT_EQ(x[i].black, y[i].black);
    }
  }
}

// 12 settled versions spread over 1100 Elo, paired for many batches with the games played fed
// back: nobody plays itself, every pair meets, and colours within a pair stay balanced.
TEST(ChoosePairings, NeverSelfEveryPairMeetsColoursBalanced) {
  auto field = settled_field({-550, -450, -400, -250, -150, -100, 0, 80, 200, 230, 400, 550});
  std::mt19937_64 rng(3);
  std::vector<LadderGame> played;
  std::vector<Pairing> pending;
  for (int batch = 0; batch < 300; ++batch) {
    // Half of the previous batch is still being played when the next is chosen.
    std::vector<Pairing> still;
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (i % 2)
        played.push_back({pending[i].white, pending[i].black, 0.5});
      else
        still.push_back(pending[i]);
    const auto next = choose_pairings(field, played, still, 4, {}, rng);
    ASSERT_EQ(next.size(), 4u);
    pending = still;
    for (const Pairing& p : next) {
      ASSERT_NE(p.white, p.black);
      ASSERT_GE(p.white, 1);
      ASSERT_LE(p.white, 12);
      ASSERT_GE(p.black, 1);
      ASSERT_LE(p.black, 12);
      pending.push_back(p);
    }
  }
  for (const Pairing& p : pending) played.push_back({p.white, p.black, 0.5});
  std::map<std::pair<std::int64_t, std::int64_t>, int> whites;
  for (const LadderGame& g : played) ++whites[{g.white, g.black}];
  const auto met = [&](std::int64_t a, std::int64_t b) { return whites[{a, b}] + whites[{b, a}]; };
  int least = 1 << 30;
  for (std::int64_t a = 1; a <= 12; ++a)
    for (std::int64_t b = a + 1; b <= 12; ++b) {
      EXPECT_GE(met(a, b), 1) << a << " never met " << b;
      EXPECT_LE(std::abs(whites[std::pair(a, b)] - whites[std::pair(b, a)]), 1) << a << ", " << b;
      least = std::min(least, met(a, b));
    }
  // Near pairs meet more often than far ones.
  EXPECT_GT(met(9, 10), met(1, 12));
  std::printf("[ladder] 1200 pairings of 12 versions: the pair met least met %d time(s)\n", least);
}

TEST(ChoosePairings, AnUnsettledVersionIsTheSeed) {
  auto field = settled_field({-300, -200, -100, 0, 100, 200, 300, 400, -400, 50, -50, 150});
  field.push_back({13, 0, 1000, 0, false});
  std::mt19937_64 rng(5);
  const auto next = choose_pairings(field, {}, {}, 4, {}, rng);
  ASSERT_EQ(next.size(), 4u);
  std::set<std::int64_t> opponents;
  for (const Pairing& p : next) {
    EXPECT_TRUE(p.white == 13 || p.black == 13);
    opponents.insert(p.white == 13 ? p.black : p.white);
  }
  EXPECT_GE(opponents.size(), 3u);  // the pairs met least are preferred
}

TEST(ChoosePairings, PendingGamesCountForTheSeed) {
  auto field = settled_field({-100, 0, 100, 200});
  field.push_back({5, 0, 1000, 0, false});
  field.push_back({6, 0, 1000, 0, false});
  std::mt19937_64 rng(9);
  // 5 has three games queued, 6 none: 6 seeds the next three pairings.
  const std::vector<Pairing> pending = {{5, 1}, {2, 5}, {5, 3}};
  const auto next = choose_pairings(field, {}, pending, 3, {}, rng);
  ASSERT_EQ(next.size(), 3u);
  for (const Pairing& p : next) EXPECT_TRUE(p.white == 6 || p.black == 6);
  // Colours count pending games too: 1 has White in a queued game against 2, so 2 gets it now.
  auto two = settled_field({0, 0});
  const auto again = choose_pairings(two, {}, {{1, 2}}, 1, {}, rng);
  EXPECT_EQ(again[0].white, 2);
}

// ---- a simulated term

// A ladder of agents of known strength: pairings in batches, as a pool of workers takes them,
// games drawn with the Bradley-Terry probabilities, ratings refitted after each batch.
struct Term {
  MatchmakingPolicy policy;
  std::map<std::int64_t, double> strength;  // true Elo by version
  std::vector<std::int64_t> versions;
  std::vector<LadderGame> games;
  std::vector<LadderStanding> standings;
  std::mt19937_64 match_rng, game_rng;

  explicit Term(std::uint64_t seed) : match_rng(seed), game_rng(seed * 7919 + 1) {}

  void enter(std::int64_t version, double elo) {
    versions.push_back(version);
    strength[version] = elo;
    standings = rate_ladder(versions, games, policy);
  }

  std::vector<Pairing> batch(int size = 4) {
    const auto pairs = choose_pairings(standings, games, {}, size, policy, match_rng);
    for (const Pairing& p : pairs)
      games.push_back({p.white, p.black, play(strength[p.white], strength[p.black], game_rng)});
    standings = rate_ladder(versions, games, policy);
    return pairs;
  }

  int rank(std::int64_t version) const {
    for (std::size_t i = 0; i < standings.size(); ++i)
      if (standings[i].version == version) return static_cast<int>(i);
    return -1;
  }
  int true_rank(std::int64_t version) const {
    int r = 0;
    for (std::int64_t v : versions) r += strength.at(v) > strength.at(version);
    return r;
  }
  // Spearman's rank correlation between the ladder's order and the true one.
  double spearman() const {
    const double n = static_cast<double>(versions.size());
    double d2 = 0;
    for (std::size_t i = 0; i < standings.size(); ++i) {
      const double d = static_cast<double>(i) - true_rank(standings[i].version);
      d2 += d * d;
    }
    return 1 - 6 * d2 / (n * (n * n - 1));
  }
};

// Twelve agents over about 1000 Elo, with three close pairs (30, 30 and 50 Elo apart).
const std::vector<double> kStrengths = {-520, -430, -400, -280, -150, -100,
                                        -20,  60,   200,  230,  380,  500};
constexpr int kTermGames = 600;  // 100 games per agent

// Plays the term's first kTermGames games; returns the games after which Spearman's
// correlation reached 0.95 for good.
int play_term(Term& term) {
  for (std::size_t i = 0; i < kStrengths.size(); ++i)
    term.enter(static_cast<std::int64_t>(i + 1), kStrengths[i]);
  int converged = -1;
  while (static_cast<int>(term.games.size()) < kTermGames) {
    term.batch();
    const bool good = term.spearman() >= 0.95;
    if (!good)
      converged = -1;
    else if (converged < 0)
      converged = static_cast<int>(term.games.size());
  }
  return converged;
}

struct TermFigures {
  int converged = -1;        // games after which Spearman's correlation stayed >= 0.95
  bool true_order = false;   // then: Spearman >= 0.95, strongest first and weakest last
  bool all_settled = false;  // ... and every version settled
  int settled_after = -1;    // the new version's games when it first settled
  int placed_after = -1;     // ... after which its rank stayed within 1 of the true one
  bool seeded = true;        // it seeded every pairing until it settled
  bool true_order_after = false;
};

bool true_order(const Term& term) {
  return term.spearman() >= 0.95 && term.standings.front().version == 12 &&
         term.standings.back().version == 1;
}

// A term of kTermGames games among the twelve, then a strong new version (second of thirteen
// in truth) enters and 400 more games are played.
TermFigures run_term(std::uint64_t seed) {
  Term term(seed);
  TermFigures f;
  f.converged = play_term(term);
  f.true_order = true_order(term);
  f.all_settled = std::all_of(term.standings.begin(), term.standings.end(),
                              [](const LadderStanding& s) { return s.settled; });

  const std::int64_t fresh = 13;
  term.enter(fresh, 440);
  const int horizon = static_cast<int>(term.games.size()) + 400;
  while (static_cast<int>(term.games.size()) < horizon) {
    const LadderStanding before = standing_of(term.standings, fresh);
    const auto pairs = term.batch();
    // Until it settles (for at most three times settle_games), it seeds every pairing.
    if (!before.settled && before.games < 3 * term.policy.settle_games)
      for (const Pairing& p : pairs) f.seeded = f.seeded && (p.white == fresh || p.black == fresh);
    const LadderStanding& now = standing_of(term.standings, fresh);
    if (now.settled && f.settled_after < 0) f.settled_after = now.games;
    if (std::abs(term.rank(fresh) - term.true_rank(fresh)) > 1)
      f.placed_after = -1;
    else if (f.placed_after < 0)
      f.placed_after = now.games;
  }
  f.true_order_after = term.spearman() >= 0.95;
  return f;
}

TEST(LadderSimulation, TheOrderConvergesAndANewVersionFindsItsPlace) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const TermFigures f = run_term(seed);
    std::printf(
        "[ladder] seed %d: order converged after %d games; the new version settled after %d of"
        " its games, was within 1 of its true rank for good after %d\n",
        static_cast<int>(seed), f.converged, f.settled_after, f.placed_after);
    EXPECT_TRUE(f.true_order);
    EXPECT_TRUE(f.all_settled);
    EXPECT_GT(f.converged, 0);
    EXPECT_TRUE(f.seeded);
    EXPECT_GT(f.settled_after, 0);
    EXPECT_GT(f.placed_after, 0);
    EXPECT_LE(f.placed_after, 60);
    EXPECT_TRUE(f.true_order_after);
  }
}

// The figures docs/ladder.md quotes: median and worst over many terms.
TEST(LadderSimulation, FiguresOverManyTerms) {
  constexpr int kTerms = 100;
  std::vector<int> converged, settled, placed;
  int right = 0, seeded = 0;
  for (std::uint64_t seed = 1; seed <= kTerms; ++seed) {
    const TermFigures f = run_term(seed);
    converged.push_back(f.converged < 0 ? 1 << 30 : f.converged);
    settled.push_back(f.settled_after < 0 ? 1 << 30 : f.settled_after);
    placed.push_back(f.placed_after < 0 ? 1 << 30 : f.placed_after);
    right += f.true_order;
    seeded += f.seeded;
  }
  for (auto* v : {&converged, &settled, &placed}) std::sort(v->begin(), v->end());
  const auto show = [](const char* what, const std::vector<int>& v) {
    std::printf("[ladder] %d terms, %s: median %d, 90th percentile %d, worst %d\n", kTerms, what,
                v[v.size() / 2], v[v.size() * 9 / 10], v.back());
    ::testing::Test::RecordProperty(std::string(what) + " (median)", v[v.size() / 2]);
  };
  show("games until the order converges", converged);
  show("new version's games until settled", settled);
  show("new version's games until placed", placed);
  std::printf(
      "[ladder] %d of %d terms had the true order after %d games (Spearman >= 0.95, the"
      " strongest first, the weakest last)\n",
      right, kTerms, kTermGames);
  EXPECT_EQ(seeded, kTerms);
  EXPECT_GE(right, kTerms * 8 / 10);
  EXPECT_LE(settled[kTerms / 2], 60);
  EXPECT_LE(placed[kTerms / 2], 60);
}

// A version that loses every game keeps a wide error bar for good: it must not seed every
// pairing of the term.
TEST(LadderSimulation, AHopelessVersionDoesNotTakeOverTheLadder) {
  Term term(11);
  for (std::size_t i = 0; i < kStrengths.size(); ++i)
    term.enter(static_cast<std::int64_t>(i + 1), kStrengths[i]);
  term.enter(13, -5000);
  while (static_cast<int>(term.games.size()) < kTermGames) term.batch();
  const LadderStanding& hopeless = standing_of(term.standings, 13);
  std::printf("[ladder] a version that lost every game: %d of %d games, error bar %.0f Elo\n",
              hopeless.games, kTermGames, hopeless.error95);
  EXPECT_EQ(term.standings.back().version, 13);
  EXPECT_LE(hopeless.games, 2 * (2 * kTermGames / 13));  // at most twice its share
  EXPECT_GE(term.spearman(), 0.95);
}

// The server's cost as the course grows: 20 games per version.
TEST(LadderSimulation, CostFrom30To300Versions) {
  for (int n : {30, 100, 300}) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    std::vector<std::int64_t> versions;
    std::vector<double> strength;
    for (int i = 0; i < n; ++i) {
      versions.push_back(i + 1);
      strength.push_back(-1000 + 2000.0 * i / n);
    }
    // Opponents near in strength, as the matchmaking would choose them.
    std::vector<LadderGame> games;
    while (games.size() < static_cast<std::size_t>(10 * n)) {
      const int w = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
      const int b = std::clamp(w + static_cast<int>(rng() % 17) - 8, 0, n - 1);
      if (w == b) continue;
      games.push_back({w + 1, b + 1,
                       play(strength[static_cast<std::size_t>(w)],
                            strength[static_cast<std::size_t>(b)], rng)});
    }
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    const auto standings = rate_ladder(versions, games);
    const auto t1 = Clock::now();
    const auto pairs = choose_pairings(standings, games, {}, 8, {}, rng);
    const auto t2 = Clock::now();
    const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::printf(
        "[ladder] %d versions, %zu games: rate_ladder %.1f ms, choose_pairings(8) %.2f ms\n", n,
        games.size(), ms(t1 - t0), ms(t2 - t1));
    ::testing::Test::RecordProperty("rate_ms_" + std::to_string(n), static_cast<int>(ms(t1 - t0)));
    EXPECT_EQ(standings.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(pairs.size(), 8u);
    EXPECT_LT(ms(t1 - t0), 30000);  // a sanity bound, not a benchmark
  }
}

}  // namespace
}  // namespace arena::course
