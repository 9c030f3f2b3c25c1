#include "tournament/ratings.hpp"

#include <cmath>
#include <numbers>
#include <utility>

namespace arena::tournament {
namespace {

using Matrix = std::vector<std::vector<double>>;

constexpr double kEloPerNatural = 400.0 / std::numbers::ln10;
constexpr double kZ95 = 1.959963984540054;

// Games and score between every pair: n[i][j] games, s[i][j] points of i (win 1, draw 1/2).
struct PairTotals {
  Matrix n, s;
};

double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// Whether every player reaches every other by "scored something against" steps: the condition
// for the maximum-likelihood ratings to exist.
bool strongly_connected(const PairTotals& t) {
  const std::size_t n = t.n.size();
  for (bool forward : {true, false}) {
    std::vector<bool> seen(n, false);
    std::vector<std::size_t> stack{0};
    seen[0] = true;
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      for (std::size_t j = 0; j < n; ++j) {
        const double scored = forward ? t.s[i][j] : t.s[j][i];
        if (!seen[j] && scored > 0) {
          seen[j] = true;
          stack.push_back(j);
        }
      }
    }
    for (bool b : seen)
      if (!b) return false;
  }
  return true;
}

double log_likelihood(const PairTotals& t, const std::vector<double>& theta) {
  double ll = 0;
  for (std::size_t i = 0; i < theta.size(); ++i)
    for (std::size_t j = 0; j < theta.size(); ++j)
      if (t.s[i][j] > 0) ll += t.s[i][j] * std::log(logistic(theta[i] - theta[j]));
  return ll;
}

// Inverse of a symmetric positive definite matrix (Gauss-Jordan with partial pivoting).
Matrix inverse(Matrix a) {
  const std::size_t n = a.size();
  Matrix inv(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) inv[i][i] = 1;
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    std::swap(a[c], a[pivot]);
    std::swap(inv[c], inv[pivot]);
    const double d = a[c][c];
    for (std::size_t k = 0; k < n; ++k) {
      a[c][k] /= d;
      inv[c][k] /= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c] == 0) continue;
      const double f = a[r][c];
      for (std::size_t k = 0; k < n; ++k) {
        a[r][k] -= f * a[c][k];
        inv[r][k] -= f * inv[c][k];
      }
    }
  }
  return inv;
}

// The pseudo-inverse of the information matrix (a weighted graph Laplacian, null space: the
// all-ones vector): (L + J/n)^-1 - J/n. It is the covariance of the mean-0 ratings.
Matrix covariance(const PairTotals& t, const std::vector<double>& theta) {
  const std::size_t n = theta.size();
  const double jn = 1.0 / static_cast<double>(n);
  Matrix l(n, std::vector<double>(n, jn));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || t.n[i][j] == 0) continue;
      const double p = logistic(theta[i] - theta[j]);
      const double w = t.n[i][j] * p * (1 - p);
      l[i][j] -= w;
      l[i][i] += w;
    }
  Matrix c = inverse(std::move(l));
  for (auto& row : c)
    for (double& x : row) x -= jn;
  return c;
}

// Damped Newton's method on the log-likelihood, from all ratings equal (mean stays 0).
std::vector<double> fit(const PairTotals& t) {
  const std::size_t n = t.n.size();
  std::vector<double> theta(n, 0.0);
  for (int iteration = 0; iteration < 200; ++iteration) {
    std::vector<double> gradient(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (i != j && t.n[i][j] > 0)
          gradient[i] += t.s[i][j] - t.n[i][j] * logistic(theta[i] - theta[j]);
    const Matrix c = covariance(t, theta);
    std::vector<double> step(n, 0.0);
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) step[i] += c[i][j] * gradient[j];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-12) break;
    // Halve the step until the likelihood does not fall (Newton can overshoot far from the top).
    const double before = log_likelihood(t, theta);
    double scale = 1;
    std::vector<double> next(n);
    for (int halving = 0; halving < 60; ++halving, scale /= 2) {
      for (std::size_t i = 0; i < n; ++i) next[i] = theta[i] + scale * step[i];
      if (log_likelihood(t, next) >= before - 1e-12) break;
    }
    theta = next;
  }
  return theta;
}

}  // namespace

Ratings compute_ratings(int participants, const std::vector<GameResult>& games) {
  const auto n = static_cast<std::size_t>(participants);
  Ratings out;
  out.players.resize(n);
  if (n < 2) return out;
  PairTotals t{Matrix(n, std::vector<double>(n, 0.0)), Matrix(n, std::vector<double>(n, 0.0))};
  for (const GameResult& g : games) {
    const auto w = static_cast<std::size_t>(g.white), b = static_cast<std::size_t>(g.black);
    const double white_score = g.outcome == Outcome::WhiteWins   ? 1.0
                               : g.outcome == Outcome::BlackWins ? 0.0
                                                                 : 0.5;
    t.n[w][b] += 1;
    t.n[b][w] += 1;
    t.s[w][b] += white_score;
    t.s[b][w] += 1 - white_score;
  }
  if (!strongly_connected(t)) {
    out.regularised = true;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (i != j) {
          t.n[i][j] += 1;
          t.s[i][j] += 0.5;
        }
  }
  const std::vector<double> theta = fit(t);
  const Matrix c = covariance(t, theta);
  for (std::size_t i = 0; i < n; ++i) {
    out.players[i].elo = theta[i] * kEloPerNatural;
    out.players[i].error95 = kZ95 * std::sqrt(std::max(0.0, c[i][i])) * kEloPerNatural;
  }
  return out;
}

}  // namespace arena::tournament
