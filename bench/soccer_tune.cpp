// Texel tuning of the Paper Soccer evaluation's weights (docs/tuning.md): self-play games of the
// tree search at a fixed number of iterations a turn from random openings give the positions that
// start a turn, each with its game's outcome; the weights of EvalWeights are then fitted by local
// search to minimise the logistic loss of sigmoid(k eval / 400) against the outcome. The
// evaluation is not a weighted sum (it is the best of the turn's landing points), so each trial
// evaluates every position again. Prints the weights to paste into eval.hpp.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/rng.hpp"
#include "games/soccer/engine.hpp"
#include "games/soccer/eval.hpp"
#include "games/soccer/mcts.hpp"

namespace arena::soccer {
namespace {

struct Options {
  int games = 2000;
  std::uint64_t iterations = 1000;
  int random_turns = 4;
  std::uint64_t seed = 1;
  int threads = 2;
};

struct Sample {
  State state;
  double result = 0;  // for the side to move: 1 won, 0 lost (Paper Soccer has no draws)
};

// The positions of `games` games (seeds first, first + 1, ...) that the evaluation judges alone:
// not over, and no goal in reach this turn (the search sees those exactly).
std::vector<Sample> self_play(const Options& o, int first, int games) {
  std::vector<Sample> out;
  MctsSettings settings;
  settings.max_iterations = o.iterations;
  for (int g = first; g < first + games; ++g) {
    Rng rng(o.seed * 1'000'003 + static_cast<std::uint64_t>(g));
    State s = State::start();
    for (int i = 0; i < o.random_turns && !s.over(); ++i) play_turn(s, random_turn(s, rng));
    Mcts mcts(settings);
    std::vector<State> seen;
    while (!s.over()) {
      if (evaluate(s) != kGoalThreat) seen.push_back(s);
      play_turn(s, mcts.choose(s).turn);
    }
    const Outcome outcome = s.result().outcome;
    for (const State& p : seen)
      out.push_back({p, outcome == win_for(p.side_to_move()) ? 1.0 : 0.0});
  }
  return out;
}

double loss(const std::vector<Sample>& samples, const EvalWeights& w, double k) {
  double sum = 0;
  for (const Sample& x : samples) {
    const double p =
        std::clamp(1.0 / (1.0 + std::exp(-k * evaluate_with(x.state, w) / 400.0)), 1e-9, 1 - 1e-9);
    sum -= x.result * std::log(p) + (1 - x.result) * std::log(1 - p);
  }
  return sum / static_cast<double>(samples.size());
}

using Weights = std::array<int, 5>;
constexpr std::array<const char*, 5> kNames{"column", "column_base", "open_shot", "bounce",
                                            "bounce_cap"};
Weights to_array(const EvalWeights& w) {
  return {w.column, w.column_base, w.open_shot, w.bounce, w.bounce_cap};
}
EvalWeights from_array(const Weights& a) {
  return {a[0], a[1], a[2], a[3], a[4]};
}

void tune(const Options& o) {
  std::vector<std::vector<Sample>> parts(static_cast<std::size_t>(o.threads));
  {
    std::vector<std::jthread> workers;
    const int share = (o.games + o.threads - 1) / o.threads;
    for (int t = 0; t < o.threads; ++t)
      workers.emplace_back([&, t] {
        parts[static_cast<std::size_t>(t)] =
            self_play(o, t * share, std::min(share, o.games - t * share));
      });
  }
  std::vector<Sample> samples;
  for (auto& p : parts) samples.insert(samples.end(), p.begin(), p.end());
  Weights w = to_array(kEvalWeights);
  double k = 1, best = loss(samples, kEvalWeights, k);
  for (double c = 0.05; c < 50; c *= 1.05)
    if (const double l = loss(samples, kEvalWeights, c); l < best) {
      best = l;
      k = c;
    }
  fmt::print("{} positions from {} games, k {:.3f}, loss {:.5f} with the current weights\n",
             samples.size(), o.games, k, best);
  // Coordinate descent, each weight by steps relative to its size (at least 1), never below 0.
  for (const double step : {0.5, 0.25, 0.125, 0.0625}) {
    for (int pass = 0; pass < 20; ++pass) {
      bool improved = false;
      for (std::size_t i = 0; i < w.size(); ++i)
        for (const int sign : {1, -1}) {
          Weights trial = w;
          trial[i] += sign * std::max(1, static_cast<int>(std::lround(step * std::max(w[i], 1))));
          if (trial[i] < 0) continue;
          if (const double l = loss(samples, from_array(trial), k); l < best) {
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
  const Weights was = to_array(kEvalWeights);
  for (std::size_t i = 0; i < w.size(); ++i)
    fmt::print("  {:<12} {:>5} (was {})\n", kNames[i], w[i], was[i]);
}

}  // namespace
}  // namespace arena::soccer

int main(int argc, char** argv) {
  CLI::App app{"Texel tuning of the Paper Soccer evaluation's weights (docs/tuning.md)"};
  arena::soccer::Options o;
  app.add_option("--games", o.games, "Self-play games")->capture_default_str();
  app.add_option("--iterations", o.iterations, "Tree-search iterations a turn in self-play")
      ->capture_default_str();
  app.add_option("--random-turns", o.random_turns, "Random turns that open each game")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the openings")->capture_default_str();
  app.add_option("--threads", o.threads, "Games played at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  CLI11_PARSE(app, argc, argv);
  arena::soccer::tune(o);
  return 0;
}
