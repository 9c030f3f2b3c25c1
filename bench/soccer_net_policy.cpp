// bench/soccer_net's `train-policy`: fits the policy (policy_net.hpp) to the turns the tree
// search played in self-play, or to the share of its visits each turn had (`--visits`). A sample
// is a position that starts a turn, with each of its listed turns' end point, prior exponent
// without the policy (the search's own) and target share (1 for the played turn, or its visits'
// share); the loss is the cross-entropy of the targets under the softmax of those exponents plus
// the policy's logits of the end points. Each position is also seen mirrored left to right.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "games/soccer/eval_after_turn.hpp"
#include "games/soccer/mcts.hpp"
#include "games/soccer/policy_net.hpp"
#include "games/soccer/turn_distance.hpp"
#include "games/soccer/turn_options.hpp"
#include "games/soccer/value_net.hpp"
#include "soccer_net.hpp"

namespace arena::soccer {
namespace {

struct PolicySamples {
  std::vector<std::uint16_t> inputs;  // all samples' active inputs, one after another
  std::vector<std::uint32_t> start{0};
  std::vector<std::uint8_t> point;  // each listed turn's end point, as the side to move sees it
  std::vector<float> base;          // its prior exponent without the policy
  std::vector<float> target;        // its share of the target
  std::vector<std::uint32_t> first_turn{0};
  std::vector<std::uint16_t> best;  // the index of the turn of the largest target share
  std::size_t size() const { return best.size(); }
};

// Each listed turn's target share (1 for the turn played, or its share of the visits), into
// `target`; false when the position has no target.
bool targets(const Played& p, const TurnOptions& turns, int played, bool visits,
             std::vector<float>& target) {
  target.assign(static_cast<std::size_t>(turns.size()), 0.0f);
  if (!visits) {
    if (played < 0) return false;
    target[static_cast<std::size_t>(played)] = 1;
    return true;
  }
  double total = 0;
  for (const TurnVisits& v : p.visits) total += v.visits;
  if (total == 0) return false;
  for (const TurnVisits& v : p.visits) {
    if (v.turn >= turns.size()) fail("a game line with visits of a turn that is not listed");
    target[static_cast<std::size_t>(v.turn)] = static_cast<float>(v.visits / total);
  }
  return true;
}

// The samples of one game's line: each judged position with a target.
void add_policy_game(const std::string& line, bool visits, PolicySamples& out) {
  std::vector<Played> seen;
  read_game(line, seen);
  const MctsSettings search;
  TurnOptions turns;
  std::vector<double> evals;
  std::vector<std::uint16_t> active;
  std::array<std::uint8_t, kPoints> distances;
  std::vector<float> target;
  for (const Played& p : seen) {
    State after = p.state;
    if (!play_turn(after, p.turn)) fail("a game line with an illegal turn");
    turns.list(p.state, search.turns);
    const AfterTurnEvaluator evaluator(p.state);
    evals.clear();
    int played = -1;
    for (int i = 0; i < turns.size(); ++i) {
      evals.push_back(turn_eval(turns.after(i), p.state.side_to_move(), evaluator, turns.steps(i)));
      if (turns.after(i).hash() == after.hash() && turns.after(i).ball() == after.ball())
        played = i;
    }
    if (turns.size() < 2 || !targets(p, turns, played, visits, target)) continue;
    const auto best_turn = std::max_element(target.begin(), target.end()) - target.begin();
    const double best = *std::max_element(evals.begin(), evals.end());
    turn_distances(p.state, distances);
    for (const bool mirrored : {false, true}) {
      NetInputs::in_view(p.state, distances, mirrored, active);
      out.inputs.insert(out.inputs.end(), active.begin(), active.end());
      out.start.push_back(static_cast<std::uint32_t>(out.inputs.size()));
      for (int i = 0; i < turns.size(); ++i) {
        out.point.push_back(static_cast<std::uint8_t>(
            NetInputs::seen_point(p.state, turns.after(i).ball(), mirrored)));
        out.base.push_back(static_cast<float>(
            std::max(evals[i] - best, -50.0 * search.prior_scale) / search.prior_scale));
        out.target.push_back(target[static_cast<std::size_t>(i)]);
      }
      out.first_turn.push_back(static_cast<std::uint32_t>(out.point.size()));
      out.best.push_back(static_cast<std::uint16_t>(best_turn));
    }
  }
}

float leaky_slope(float v) {
  return v > 0 ? 1 : kLeak;
}

struct Fit {
  double loss = 0;   // the targets' cross-entropy
  bool top = false;  // the turn of the largest target had the highest prior
};

// The softmax over sample i's turns of their exponents plus the logits, into `p`.
Fit softmax(const PolicySamples& s, std::size_t i, const PolicyNet::Logits& logits,
            std::vector<double>& p) {
  const std::uint32_t a = s.first_turn[i], b = s.first_turn[i + 1];
  p.resize(b - a);
  double max = -1e300;
  for (std::uint32_t k = a; k < b; ++k) {
    p[k - a] = s.base[k] + logits[s.point[k]];
    max = std::max(max, p[k - a]);
  }
  const double top = p[s.best[i]];
  double loss = 0;
  double total = 0;
  for (double& v : p) total += v = std::exp(v - max);
  for (std::uint32_t k = a; k < b; ++k)
    if (s.target[k] != 0) {
      const double exponent = s.base[k] + logits[s.point[k]];
      loss += s.target[k] * (std::log(total) + max - exponent);
    }
  for (double& v : p) v /= total;
  return {loss, top >= max};
}

// Mean cross-entropy and share of samples whose turn of the largest target had the highest prior.
std::pair<double, double> measure(const PolicyNet* net, const PolicySamples& s) {
  double loss = 0, top = 0;
  PolicyNet::Logits logits{};
  std::vector<double> p;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (net) net->logits({&s.inputs[s.start[i]], s.start[i + 1] - s.start[i]}, logits);
    const Fit f = softmax(s, i, logits, p);
    loss += f.loss;
    top += f.top;
  }
  const double n = std::max<double>(1, static_cast<double>(s.size()));
  return {loss / n, top / n};
}

// Adds sample i's gradient of the cross-entropy to `grad`; gives the cross-entropy.
double backward(const PolicyNet& net, const PolicySamples& s, std::size_t i,
                std::vector<float>& grad) {
  thread_local std::vector<float> sum1;
  thread_local std::vector<double> p;
  const std::span<const std::uint16_t> active{&s.inputs[s.start[i]], s.start[i + 1] - s.start[i]};
  PolicyNet::Logits logits;
  net.logits(active, logits, sum1);
  const Fit f = softmax(s, i, logits, p);
  std::array<float, PolicyShape::kOutputs> d{};
  const std::uint32_t a = s.first_turn[i];
  for (std::size_t k = 0; k < p.size(); ++k) d[s.point[a + k]] += static_cast<float>(p[k]);
  for (std::size_t k = 0; k < p.size(); ++k)
    if (s.target[a + k] != 0) d[s.point[a + k]] -= s.target[a + k];
  const int hn = net.shape().hidden;
  const auto w = net.weights();
  std::vector<float> g1(static_cast<std::size_t>(hn), 0.0f);
  for (int k = 0; k < PolicyShape::kOutputs; ++k) {
    if (d[k] == 0) continue;
    grad[net.bias2() + k] += d[k];
    const std::size_t row = net.layer2() + static_cast<std::size_t>(k) * hn;
    for (int h = 0; h < hn; ++h) {
      grad[row + h] += d[k] * leaky_relu(sum1[h]);
      g1[h] += d[k] * w[row + h];
    }
  }
  for (int h = 0; h < hn; ++h) {
    g1[h] *= leaky_slope(sum1[h]);
    grad[net.bias1() + h] += g1[h];
  }
  for (const std::uint16_t input : active)
    for (int h = 0; h < hn; ++h)
      grad[net.layer1() + static_cast<std::size_t>(input) * hn + h] += g1[h];
  return f.loss;
}

}  // namespace

void train_policy(const PolicyTrainOptions& o) {
  PolicySamples fit, held;
  const int lines =
      for_each_game(o.games, o.holdout_percent, [&](const std::string& line, bool out) {
        add_policy_game(line, o.visits, out ? held : fit);
      });
  if (fit.size() == 0) fail("no positions to train on");
  const auto [base_loss, base_top] = measure(nullptr, held);
  fmt::print(stderr,
             "{} games: {} positions to fit, {} held out (each also mirrored), {:.1f} turns a "
             "position\nthe search's priors alone: cross-entropy {:.4f}, {} first in "
             "{:.1f} % held out\n",
             lines, fit.size() / 2, held.size() / 2,
             static_cast<double>(fit.point.size()) / static_cast<double>(fit.size()), base_loss,
             o.visits ? "the most visited turn" : "the played turn", 100 * base_top);

  PolicyNet net = o.from.empty() ? PolicyNet(PolicyShape{NetInputs::count(), o.hidden}, {})
                                 : read_net<PolicyNet>(o.from);
  Rng rng(o.seed);
  auto w = net.weights();
  if (o.from.empty()) {
    for (std::size_t i = net.layer1(); i < net.bias1(); ++i) w[i] = uniform_weight(rng, 0.1);
    // The outputs start near 0: the policy starts as the search's own priors.
    for (std::size_t i = net.layer2(); i < net.bias2(); ++i) w[i] = uniform_weight(rng, 0.01);
  } else {
    const auto [loss, top] = measure(&net, held);
    fmt::print(stderr, "starting from {}: cross-entropy {:.4f}, first {:.1f} % held out\n", o.from,
               loss, 100 * top);
  }

  fit_weights(
      w, fit.size(), o.schedule, rng,
      [&](std::size_t i, std::vector<float>& grad) { return backward(net, fit, i, grad); },
      [&](int epoch, double fitted) -> std::optional<double> {
        const auto [loss, top] = measure(&net, held);
        fmt::print(stderr,
                   "epoch {}: cross-entropy {:.4f} fitted, {:.4f} held out; first {:.1f} %\n",
                   epoch, fitted, loss, 100 * top);
        if (held.size() == 0) return std::nullopt;
        return loss;
      });
  const std::string bytes = net.serialize();
  write_net(o.out, bytes);
  const auto [loss, top] = measure(&net, held);
  fmt::print(
      "{}: {}-{}-{}, {} bytes; held out: cross-entropy {:.4f}, first {:.1f} % (the "
      "search's priors alone: {:.4f}, {:.1f} %)\n",
      o.out, net.shape().inputs, net.shape().hidden, PolicyShape::kOutputs, bytes.size(), loss,
      100 * top, base_loss, 100 * base_top);
}

}  // namespace arena::soccer
