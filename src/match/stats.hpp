#pragma once
// Match statistics as fastchess computes them: the score of A against B, the Elo difference with
// its 95 % interval from the trinomial (W/D/L per game) or the pentanomial (the five outcomes of a
// game pair) distribution, and the sequential probability ratio test (GSPRT, the generalized
// log-likelihood ratio of fishtest and fastchess) that decides between two Elo hypotheses.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace arena::match {

// Counts from A's point of view. penta[k]: pairs in which A scored k/2 points over the two games
// (0: LL, 1: LD, 2: WL or DD, 3: WD, 4: WW).
struct Counts {
  std::uint64_t wins = 0, draws = 0, losses = 0;
  std::array<std::uint64_t, 5> penta{};

  std::uint64_t games() const { return wins + draws + losses; }
  std::uint64_t pairs() const { return penta[0] + penta[1] + penta[2] + penta[3] + penta[4]; }
  // A's points per game, 0..1 (0.5 without games).
  double score() const;
  // Adds one finished pair: A's points in each of its two games (0, 0.5 or 1).
  void add_pair(double first, double second);
};

// The logistic Elo difference for an expected score: -400 log10(1/s - 1).
double elo_from_score(double score);
// The expected score for a logistic Elo difference.
double score_from_elo(double elo);

struct EloEstimate {
  double score = 0.5;     // A's points per game
  double elo = 0;         // logistic Elo, A minus B
  double error = 0;       // half the width of the 95 % interval, in Elo
  double nelo = 0;        // normalized Elo: (score - 0.5) / standard deviation per game * 800/ln 10
  double nelo_error = 0;  // 95 % half width in normalized Elo
  double los = 0.5;       // likelihood of superiority: P(A stronger)
  bool valid = false;     // false without the data for an interval (no games, or no variance)
};

// From W/D/L per game (what cutechess prints).
EloEstimate estimate_trinomial(const Counts& c);
// From the pairs' outcomes (what fastchess prints with game pairs; the pair is the sample, so
// the correlation between a pair's two games, which share the opening, is accounted for).
EloEstimate estimate_pentanomial(const Counts& c);

enum class SprtModel { Normalized, Logistic };
std::string_view sprt_model_name(SprtModel m);

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };

struct SprtSettings {
  double elo0 = 0, elo1 = 5;
  double alpha = 0.05, beta = 0.05;
  SprtModel model = SprtModel::Normalized;

  double lower_bound() const;  // log(beta / (1 - alpha)): at or below, H0 is accepted
  double upper_bound() const;  // log((1 - beta) / alpha): at or above, H1 is accepted
};

// The generalized log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), for the
// trinomial or the pentanomial counts. Normalized model: 0.5 N log(var0 / var1), where var_i is
// the variance of the observed outcomes around the score H_i expects (the multinomial MLE under
// the constraint, to second order, as fastchess). Logistic model: that MLE exactly (fishtest's
// support_MLE_multinomial), which the second-order form misses where the outcomes hardly vary.
// Outcomes never seen count as 1e-3 of a sample; 0 without data.
double llr_trinomial(const Counts& c, const SprtSettings& s);
double llr_pentanomial(const Counts& c, const SprtSettings& s);
SprtDecision sprt_decision(double llr, const SprtSettings& s);

// Parses "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized" (any order, each optional but
// elo0 < elo1 afterwards; commas also separate). Empty error on success.
std::string parse_sprt(std::string_view text, SprtSettings& out);

}  // namespace arena::match
