// Texel tuning of the Fission, Murus Gallicus and Nine Men's Morris evaluations (docs/tuning.md):
// self-play games of the engine at a node limit from random openings give positions with their
// game's outcome; the evaluation's weights are then fitted by local search to minimise the logistic
// (cross-entropy) loss of sigmoid(eval) against the outcome, or against a deeper search's score
// (--label-nodes). Prints the weights to paste into the game's eval.hpp.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
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
  int threads = 1;
  // With label_nodes > 0 a position's target is not its game's outcome but a deeper search's
  // score (that many nodes, no contempt) through the same sigmoid: the evaluation learns to
  // foresee what the search finds. Only positions before ply max_ply are kept (0: all).
  std::uint64_t label_nodes = 0;
  int max_ply = 0;
  std::vector<std::string> only;  // fit only the weights whose names start with one of these
};

// One position: its material, its terms and the result for the side to move (1, 0.5, 0).
template <std::size_t N>
struct Sample {
  int material = 0;
  std::array<int, N> terms{};
  double result = 0.5;
  std::optional<int> label;  // the deeper search's score, with --label-nodes
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

// One game from its opening: every kept position with the game's outcome (and, with
// --label-nodes, the deeper search's score).
template <class S, class Terms>
auto play_one(const Options& o, S s) {
  std::vector<Sample<std::tuple_size_v<Terms>>> samples;
  std::vector<S> seen;
  Searcher<S> searcher(4);
  SearchLimits limits;
  limits.max_nodes = o.nodes;
  Result r = s.result();
  while (!r.over()) {
    if (quiet(s) && (o.max_ply == 0 || s.ply() < o.max_ply)) seen.push_back(s);
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
  if (o.label_nodes == 0) return samples;
  Searcher<S> labeller(16, SearchOptions{.contempt = false});
  SearchLimits deep;
  deep.max_nodes = o.label_nodes;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    labeller.clear();
    samples[i].label = labeller.search(seen[i], deep).score;
  }
  return samples;
}

// The openings come from one generator in order, the games are shared among --threads (node
// limits keep every search deterministic), and the samples are kept in game order: the same
// seed gives the same positions whatever the number of threads.
template <class S, class Terms>
auto self_play(const Options& o) {
  Rng rng(o.seed);
  RuleOptions rules;
  if (o.more_stones) rules.limit_rule = LimitRule::MoreStones;
  std::vector<S> openings;
  for (int g = 0; g < o.games; ++g) {
    S s = S::start(rules);
    MoveList<typename S::Move, S::kMaxMoves> moves;
    for (int i = 0; i < o.random_plies && !s.result().over(); ++i) {
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
    openings.push_back(s);
  }
  std::vector<std::vector<Sample<std::tuple_size_v<Terms>>>> per_game(openings.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex print;
  auto work = [&] {
    for (std::size_t g; (g = next++) < openings.size();) {
      per_game[g] = play_one<S, Terms>(o, openings[g]);
      if (const std::size_t n = ++done; n % 50 == 0) {
        const std::lock_guard lock(print);
        fmt::print(stderr, "{} of {} games\n", n, openings.size());
      }
    }
  };
  std::vector<std::jthread> threads;
  for (int t = 0; t < o.threads; ++t) threads.emplace_back(work);
  threads.clear();  // joins
  std::vector<Sample<std::tuple_size_v<Terms>>> samples;
  for (auto& game : per_game) samples.insert(samples.end(), game.begin(), game.end());
  fmt::print(stderr, "{} positions\n", samples.size());
  return samples;
}

double sigmoid(double k, double score) {
  return std::clamp(1.0 / (1.0 + std::exp(-k * score / 400.0)), 1e-9, 1 - 1e-9);
}

// Against labels the target is the deeper search's score through the same sigmoid.
template <class Samples, class Terms>
double loss(const Samples& samples, const Terms& w, int stone, double k,
            bool against_labels = false) {
  double sum = 0;
  for (const auto& x : samples) {
    double eval = stone * x.material;
    for (std::size_t i = 0; i < w.size(); ++i) eval += w[i] * x.terms[i];
    const double p = sigmoid(k, eval);
    const double target = against_labels ? sigmoid(k, *x.label) : x.result;
    sum -= target * std::log(p) + (1 - target) * std::log(1 - p);
  }
  return sum / static_cast<double>(samples.size());
}

bool fitted(const Options& o, std::string_view name) {
  return o.only.empty() || std::ranges::any_of(o.only, [&](const std::string& prefix) {
           return name.starts_with(prefix);
         });
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
  // Labelled positions are then fitted to the deeper search's scores, through the same sigmoid.
  const bool against_labels = o.label_nodes > 0;
  double best = loss(samples, w, e.stone_value, k, against_labels);
  if (against_labels) fmt::print("loss {:.5f} against the deeper search's scores\n", best);
  // Coordinate descent: each weight up or down by a step while the loss falls.
  for (int step : {16, 8, 4, 2, 1}) {
    for (int pass = 0; pass < o.passes; ++pass) {
      bool improved = false;
      for (std::size_t i = 0; i < w.size(); ++i) {
        if (!fitted(o, e.names[i])) continue;
        for (const int sign : {1, -1}) {
          auto trial = w;
          trial[i] += sign * step;
          if (const double l = loss(samples, trial, e.stone_value, k, against_labels); l < best) {
            best = l;
            w = trial;
            improved = true;
          }
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
  app.add_option("--label-nodes", o.label_nodes,
                 "Fit to a search of this many nodes per position instead of the game's outcome "
                 "(0: the outcome)")
      ->capture_default_str();
  app.add_option("--max-ply", o.max_ply, "Keep only positions before this ply (0: all)")
      ->capture_default_str();
  app.add_option("--threads", o.threads, "Games played at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app.add_option("--only", o.only,
                 "Fit only the weights whose names start with one of these (default: all)")
      ->delimiter(',');
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
