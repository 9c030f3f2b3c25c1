#pragma once
// Ratings from all games of an event: the Bradley-Terry model on the Elo scale (a player rated D
// above another is expected to score 1 / (1 + 10^(-D/400)) against it; a draw is half a win),
// fitted by maximum likelihood, centred on a mean of 0, with 95% intervals from the Fisher
// information (the inverse of the log-likelihood's curvature, under the mean-0 constraint).
//
// When the maximum likelihood does not exist (someone won or lost every game, or the players
// split into groups where one group scored nothing against the other) the fit adds one virtual
// draw between every pair of players, keeping the ratings finite and in the right order; the
// result says so.
#include <vector>

#include "tournament/event.hpp"

namespace arena::tournament {

struct Rating {
  double elo = 0;      // relative to the field's mean
  double error95 = 0;  // half-width of the 95% interval
};

struct Ratings {
  std::vector<Rating> players;  // by participant index
  bool regularised = false;     // virtual draws were needed (see above)
};

Ratings compute_ratings(int participants, const std::vector<GameResult>& games);

}  // namespace arena::tournament
