#include "match/stats.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "core/text.hpp"

namespace arena::match {
namespace {

constexpr double kZ95 = 1.959963984540054;  // the 97.5 % quantile of the standard normal
const double kNeloScale = 800.0 / std::log(10.0);

// A distribution of per-sample scores: values and their empirical frequencies.
struct Pdf {
  std::vector<double> value, prob;
  double n = 0;  // samples

  double mean() const {
    double m = 0;
    for (std::size_t i = 0; i < value.size(); ++i) m += prob[i] * value[i];
    return m;
  }
  double variance_around(double mu) const {
    double v = 0;
    for (std::size_t i = 0; i < value.size(); ++i) v += prob[i] * (value[i] - mu) * (value[i] - mu);
    return v;
  }
};

Pdf trinomial_pdf(const Counts& c) {
  Pdf p;
  p.n = static_cast<double>(c.games());
  p.value = {1.0, 0.5, 0.0};
  const double n = p.n > 0 ? p.n : 1;
  p.prob = {static_cast<double>(c.wins) / n, static_cast<double>(c.draws) / n,
            static_cast<double>(c.losses) / n};
  return p;
}

Pdf pentanomial_pdf(const Counts& c) {
  Pdf p;
  p.n = static_cast<double>(c.pairs());
  const double n = p.n > 0 ? p.n : 1;
  for (std::size_t k = 0; k < 5; ++k) {
    p.value.push_back(static_cast<double>(k) / 4.0);  // points per game over the pair
    p.prob.push_back(static_cast<double>(c.penta[k]) / n);
  }
  return p;
}

// `per_game_factor`: how many games one sample is (1 for a game, 2 for a pair); the normalized
// Elo is per game, so a pair's standard deviation is scaled by sqrt(2).
EloEstimate estimate(const Pdf& p, double per_game_factor) {
  EloEstimate e;
  if (p.n <= 0) return e;
  e.score = p.mean();
  e.elo = elo_from_score(e.score);
  const double var = p.variance_around(e.score);
  const double var_of_mean = var / p.n;
  e.los = (1 - std::erf(-(e.score - 0.5) / std::sqrt(2.0 * var_of_mean))) / 2.0;
  if (var <= 0) {
    e.los = e.score > 0.5 ? 1.0 : e.score < 0.5 ? 0.0 : 0.5;
    return e;
  }
  const double hi = e.score + kZ95 * std::sqrt(var_of_mean);
  const double lo = e.score - kZ95 * std::sqrt(var_of_mean);
  e.error = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
  const double sd = std::sqrt(per_game_factor * var);
  e.nelo = (e.score - 0.5) / sd * kNeloScale;
  e.nelo_error = ((hi - 0.5) / sd * kNeloScale - (lo - 0.5) / sd * kNeloScale) / 2.0;
  e.valid = true;
  return e;
}

// Fishtest's regularization: an outcome never seen counts as 1e-3 of a sample, so that a match
// of one-sided results (all won pairs: no variance) still reaches a decision.
Pdf regularized(const Counts& c, bool pairs) {
  std::array<double, 5> k{};
  Pdf p;
  if (pairs) {
    p.value = {0.0, 0.25, 0.5, 0.75, 1.0};
    for (std::size_t i = 0; i < 5; ++i) k[i] = static_cast<double>(c.penta[i]);
  } else {
    p.value = {1.0, 0.5, 0.0};
    k = {static_cast<double>(c.wins), static_cast<double>(c.draws), static_cast<double>(c.losses)};
  }
  double n = 0;
  for (std::size_t i = 0; i < p.value.size(); ++i) n += k[i];
  p.n = n;  // real samples
  if (n <= 0) return p;
  double total = 0;
  for (std::size_t i = 0; i < p.value.size(); ++i) total += std::max(k[i], 1e-3);
  for (std::size_t i = 0; i < p.value.size(); ++i) p.prob.push_back(std::max(k[i], 1e-3) / total);
  return p;
}

// The distribution of mean `mu` most likely to give the observed one is prob_i / (1 + x (value_i
// - mu)), x the root of sum prob_i (value_i - mu) / (1 + x (value_i - mu)) = 0 between
// -1 / (max - mu) and 1 / (mu - min) over the values seen (Van den Bergh's note behind fishtest,
// support_MLE_multinomial, Proposition 1.1). Returns the observed samples' log-likelihood under
// it less that under `p` itself, per sample; -inf when `mu` is outside the values seen.
double constrained_log_likelihood(const Pdf& p, double mu) {
  double lo = -std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < p.value.size(); ++i) {
    if (p.prob[i] <= 0) continue;
    const double d = p.value[i] - mu;
    if (d > 0) lo = std::max(lo, -1.0 / d);
    if (d < 0) hi = std::min(hi, -1.0 / d);
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) return -std::numeric_limits<double>::infinity();
  const auto slope = [&](double x) {  // decreasing in x
    double f = 0;
    for (std::size_t i = 0; i < p.value.size(); ++i)
      f += p.prob[i] * (p.value[i] - mu) / (1 + x * (p.value[i] - mu));
    return f;
  };
  for (int step = 0; step < 200; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (slope(mid) > 0 ? lo : hi) = mid;
  }
  const double x = lo + (hi - lo) / 2;
  double ll = 0;
  for (std::size_t i = 0; i < p.value.size(); ++i)
    if (p.prob[i] > 0) ll -= p.prob[i] * std::log1p(x * (p.value[i] - mu));
  return ll;
}

double llr(const Pdf& p, const SprtSettings& s, double per_game_factor) {
  if (p.n <= 0) return 0;
  if (s.model == SprtModel::Logistic) {
    // fishtest's LLR_logistic: the exact ratio of the two constrained maximum likelihoods. Its
    // second-order form below is far off where the samples hardly vary (ten pairs of one win
    // each: -13.3 instead of -0.59 for elo1 = 20, an H0 after a few pairs).
    const double l0 = constrained_log_likelihood(p, score_from_elo(s.elo0));
    const double l1 = constrained_log_likelihood(p, score_from_elo(s.elo1));
    if (!std::isfinite(l0) || !std::isfinite(l1)) return 0;
    return p.n * (l1 - l0);
  }
  const double var = p.variance_around(p.mean());
  if (var <= 0) return 0;
  const double sd = std::sqrt(per_game_factor * var);
  const double s0 = s.elo0 * sd / kNeloScale + 0.5, s1 = s.elo1 * sd / kNeloScale + 0.5;
  const double var0 = p.variance_around(s0), var1 = p.variance_around(s1);
  if (var0 <= 0 || var1 <= 0) return 0;
  return 0.5 * p.n * std::log(var0 / var1);
}

bool parse_double(std::string_view text, double& out) {
  // std::from_chars for double is in GCC 12's library; clang 14 uses the same libstdc++.
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && end == text.data() + text.size() && std::isfinite(out);
}

}  // namespace

double Counts::score() const {
  const auto g = games();
  if (g == 0) return 0.5;
  return (static_cast<double>(wins) + 0.5 * static_cast<double>(draws)) / static_cast<double>(g);
}

void Counts::add_pair(double first, double second) {
  for (double x : {first, second}) {
    if (x > 0.75)
      ++wins;
    else if (x > 0.25)
      ++draws;
    else
      ++losses;
  }
  const auto k = static_cast<std::size_t>(std::lround((first + second) * 2.0));
  ++penta[k > 4 ? 4 : k];
}

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double score_from_elo(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

EloEstimate estimate_trinomial(const Counts& c) {
  return estimate(trinomial_pdf(c), 1.0);
}
EloEstimate estimate_pentanomial(const Counts& c) {
  return estimate(pentanomial_pdf(c), 2.0);
}

std::string_view sprt_model_name(SprtModel m) {
  return m == SprtModel::Normalized ? "normalized" : "logistic";
}

double SprtSettings::lower_bound() const {
  return std::log(beta / (1 - alpha));
}
double SprtSettings::upper_bound() const {
  return std::log((1 - beta) / alpha);
}

double llr_trinomial(const Counts& c, const SprtSettings& s) {
  return llr(regularized(c, false), s, 1.0);
}
double llr_pentanomial(const Counts& c, const SprtSettings& s) {
  return llr(regularized(c, true), s, 2.0);
}

SprtDecision sprt_decision(double llr, const SprtSettings& s) {
  if (llr >= s.upper_bound()) return SprtDecision::AcceptH1;
  if (llr <= s.lower_bound()) return SprtDecision::AcceptH0;
  return SprtDecision::Continue;
}

std::string parse_sprt(std::string_view text, SprtSettings& out) {
  SprtSettings s = out;
  std::string t(text);
  for (char& c : t)
    if (c == ',') c = ' ';
  std::string_view rest = t;
  while (true) {
    rest = trim(rest);
    if (rest.empty()) break;
    const auto end = rest.find_first_of(" \t");
    const std::string_view word = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    const auto eq = word.find('=');
    if (eq == std::string_view::npos)
      return fmt::format("'{}' is not KEY=VALUE (elo0, elo1, alpha, beta, model)", word);
    const std::string_view key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "model") {
      if (value == "normalized")
        s.model = SprtModel::Normalized;
      else if (value == "logistic")
        s.model = SprtModel::Logistic;
      else
        return fmt::format("model is normalized or logistic, not '{}'", value);
      continue;
    }
    double v = 0;
    if (!parse_double(value, v)) return fmt::format("'{}': the value is not a number", word);
    if (key == "elo0")
      s.elo0 = v;
    else if (key == "elo1")
      s.elo1 = v;
    else if (key == "alpha" || key == "beta") {
      if (v <= 0 || v >= 0.5) return fmt::format("{} must be between 0 and 0.5", key);
      (key == "alpha" ? s.alpha : s.beta) = v;
    } else {
      return fmt::format("unknown SPRT setting '{}' (elo0, elo1, alpha, beta, model)", key);
    }
  }
  if (!(s.elo0 < s.elo1)) return "elo0 must be less than elo1";
  out = s;
  return {};
}

}  // namespace arena::match
