#pragma once
// The ladder's arithmetic, free of storage and processes: ratings of the current versions from
// their ladder games, and which pairs play next. docs/ladder.md says which published schemes it
// follows and where it differs.
//
// Ratings: Bradley-Terry on the Elo scale, fitted as the tournament does
// (tournament/ratings.hpp), over the games among the versions given, plus one virtual draw per
// version against an average opponent (a version that lost every game keeps a finite rating
// without the tournament's all-pairs fallback squashing everyone's). The fit is recomputed from
// all games, so the order after a batch does not depend on which game finished first.
//
// Matchmaking: a version that has not settled (fewer than `settle_games` rated games, or its
// error bar wider than `settle_error95`) is the seed of the next pairing before any settled one,
// for at most 3 x settle_games games (a version that loses every game never narrows its error
// bar); otherwise the seed is the version with the fewest games (standings[].games plus pending).
// Its opponent is drawn with weight falling with the rating gap (a Gaussian of width `window_elo`),
// raised for pairs that have met least, so that every pair meets eventually. Within a pair, colours
// alternate.
#include <cstdint>
#include <random>
#include <vector>

namespace arena::course {

// One rated game between two versions (hand-in ids) and White's score: 1, 0.5 or 0.
struct LadderGame {
  std::int64_t white = 0, black = 0;
  double white_score = 0.5;
};

struct LadderStanding {
  std::int64_t version = 0;
  double rating = 0;   // Elo, relative to the mean of the versions rated
  double error95 = 0;  // half-width of the 95% interval; large for a version with few games
  int games = 0;       // rated games among the versions rated
  bool settled = false;
};

struct MatchmakingPolicy {
  int settle_games = 20;        // a version has settled after this many games...
  double settle_error95 = 150;  // ...and with an error bar at most this wide
  double window_elo = 200;      // opponents are drawn near in rating, within about this
  double explore = 0.1;  // share of opponents drawn from the pairs met least, ignoring rating
};

// The standings of `versions` (in rating order, best first; ties in version order) from the
// games among them; games involving any other version are ignored.
std::vector<LadderStanding> rate_ladder(const std::vector<std::int64_t>& versions,
                                        const std::vector<LadderGame>& games,
                                        const MatchmakingPolicy& policy = {});

struct Pairing {
  std::int64_t white = 0, black = 0;
};

// The next `count` pairings among the versions of `standings` (distinct, as rate_ladder gives
// them). `pending` are pairings queued or
// being played: they count as played, for the seed choice, the pairs' meetings and the colours.
// Fewer than two versions: none. Deterministic for a given rng state.
std::vector<Pairing> choose_pairings(const std::vector<LadderStanding>& standings,
                                     const std::vector<LadderGame>& played,
                                     const std::vector<Pairing>& pending, int count,
                                     const MatchmakingPolicy& policy, std::mt19937_64& rng);

}  // namespace arena::course
