// Texel tuning of the Fission, Murus Gallicus and Nine Men's Morris evaluations (docs/tuning.md):
// self-play games of the engine at a node limit from random openings give positions with their
// game's outcome; the evaluation's weights are then fitted by local search to minimise the logistic
// (cross-entropy) loss of sigmoid(eval) against the outcome. Prints the weights to paste into the
// game's eval.hpp.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.hpp"
#include "games/fission/eval.hpp"
#include "games/morris/eval.hpp"
#include "games/murus/eval.hpp"
#include "search/search.hpp"

namespace arena {
namespace {

struct Options {
  int games = 400;
  std::uint64_t nodes = 5000;
  int random_plies = 6;
  std::uint64_t seed = 1;
  bool more_stones = false;
  int passes = 20;
};

// One position: its material, its terms and the result for the side to move (1, 0.5, 0).
template <std::size_t N>
struct Sample {
  int material = 0;
  std::array<int, N> terms{};
  double result = 0.5;
};

// Positions the evaluation alone should judge: the quiescence search would look further at the
// others (a winning explosion, a goal split next move).
bool quiet(const fission::State& s) {
  MoveList<fission::Move, fission::State::kMaxMoves> list;
  s.winning_explosions(list);
  return list.empty();
}
bool quiet(const murus::State& s) {
  return !murus::goal_next_move(s);
}
// Morris has no quiescence search: the evaluation judges every leaf, a mill to close included.
bool quiet(const morris::State&) {
  return true;
}

// What the tuner needs of a game's evaluation beyond its terms() and material() (found by
// argument-dependent lookup in the game's namespace): the weights to fit, their names, and the
// value of a stone, which stays fixed.
template <class Terms>
struct Evaluation {
  Terms weights;
  std::array<std::string_view, std::tuple_size_v<Terms>> names;
  int stone_value;
};

template <class S, class Terms>
auto self_play(const Options& o) {
  std::vector<Sample<std::tuple_size_v<Terms>>> samples;
  Rng rng(o.seed);
  RuleOptions rules;
  if (o.more_stones) rules.limit_rule = LimitRule::MoreStones;
  for (int g = 0; g < o.games; ++g) {
    S s = S::start(rules);
    MoveList<typename S::Move, S::kMaxMoves> moves;
    for (int i = 0; i < o.random_plies && !s.result().over(); ++i) {
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
    std::vector<S> seen;
    Searcher<S> searcher(4);
    SearchLimits limits;
    limits.max_nodes = o.nodes;
    Result r = s.result();
    while (!r.over()) {
      if (quiet(s)) seen.push_back(s);
      s.apply(searcher.search(s, limits).best);
      r = s.result();
    }
    for (const S& p : seen) {
      auto& out = samples.emplace_back();
      out.material = material(p);
      out.terms = terms(p);
      out.result = r.outcome == Outcome::Draw               ? 0.5
                   : r.outcome == win_for(p.side_to_move()) ? 1.0
                                                            : 0.0;
    }
    if ((g + 1) % 50 == 0) fmt::print(stderr, "{} games, {} positions\n", g + 1, samples.size());
  }
  return samples;
}

template <class Samples, class Terms>
double loss(const Samples& samples, const Terms& w, int stone, double k) {
  double sum = 0;
  for (const auto& x : samples) {
    double eval = stone * x.material;
    for (std::size_t i = 0; i < w.size(); ++i) eval += w[i] * x.terms[i];
    const double p = std::clamp(1.0 / (1.0 + std::exp(-k * eval / 400.0)), 1e-9, 1 - 1e-9);
    sum -= x.result * std::log(p) + (1 - x.result) * std::log(1 - p);
  }
  return sum / static_cast<double>(samples.size());
}

template <class S, class Terms>
void tune(const Options& o, const Evaluation<Terms>& e) {
  const auto samples = self_play<S, Terms>(o);
  auto w = e.weights;
  // The scale k of the sigmoid is fitted first, with the current weights, then kept: a scan by
  // factors of 1.05 over [0.05, 50].
  double k = 1, best_k_loss = loss(samples, w, e.stone_value, k);
  for (double c = 0.05; c < 50; c *= 1.05)
    if (const double l = loss(samples, w, e.stone_value, c); l < best_k_loss) {
      best_k_loss = l;
      k = c;
    }
  fmt::print("{} positions, k {:.3f}, loss {:.5f} with the current weights\n", samples.size(), k,
             best_k_loss);
  // Coordinate descent: each weight up or down by a step while the loss falls.
  double best = best_k_loss;
  for (int step : {16, 8, 4, 2, 1}) {
    for (int pass = 0; pass < o.passes; ++pass) {
      bool improved = false;
      for (std::size_t i = 0; i < w.size(); ++i)
        for (const int sign : {1, -1}) {
          auto trial = w;
          trial[i] += sign * step;
          if (const double l = loss(samples, trial, e.stone_value, k); l < best) {
            best = l;
            w = trial;
            improved = true;
          }
        }
      if (!improved) break;
    }
    fmt::print(stderr, "step {}: loss {:.5f}\n", step, best);
  }
  fmt::print("loss {:.5f} with the tuned weights:\n", best);
  for (std::size_t i = 0; i < w.size(); ++i)
    fmt::print("  {:<18} {:>5} (was {})\n", e.names[i], w[i], e.weights[i]);
  std::string line;
  for (std::size_t i = 0; i < w.size(); ++i) line += fmt::format("{}{}", i ? ", " : "", w[i]);
  fmt::print("inline constexpr Terms kWeights = {{{}}};\n", line);
}

}  // namespace
}  // namespace arena

int main(int argc, char** argv) {
  CLI::App app{
      "Texel tuning of the Fission, Murus Gallicus and Nine Men's Morris evaluation weights"};
  std::string game;
  arena::Options o;
  app.add_option("game", game, "fission, murus or morris")
      ->required()
      ->check(CLI::IsMember({"fission", "murus", "morris"}));
  app.add_option("--games", o.games, "Self-play games")->capture_default_str();
  app.add_option("--nodes", o.nodes, "Nodes per move in self-play")->capture_default_str();
  app.add_option("--random-plies", o.random_plies, "Random moves that open each game")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the openings")->capture_default_str();
  app.add_flag("--more-stones", o.more_stones, "Play with more stones winning at the move limit");
  CLI11_PARSE(app, argc, argv);
  using namespace arena;
  if (game == "fission")
    tune<fission::State>(o, Evaluation<fission::Terms>{fission::kWeights, fission::kTermNames,
                                                       fission::kStoneValue});
  else if (game == "murus")
    tune<murus::State>(
        o, Evaluation<murus::Terms>{murus::kWeights, murus::kTermNames, murus::kStoneValue});
  else
    tune<morris::State>(
        o, Evaluation<morris::Terms>{morris::kWeights, morris::kTermNames, morris::kStoneValue});
  return 0;
}
