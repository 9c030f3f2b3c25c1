#pragma once
// What bench/soccer_net's value and policy training share: reading the games `play` wrote, and
// Adam's steps.
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/parse_result.hpp"
#include "core/rng.hpp"
#include "games/soccer/mcts.hpp"
#include "games/soccer/state.hpp"
#include "games/soccer/turn.hpp"

namespace arena::soccer {

[[noreturn]] void fail(const std::string& why);
std::string read_file(const std::string& path);

// A position of a game's line that the networks would judge (not over, no goal in reach), with
// the turn the search played there, its win chance and, where the line has them, the visits the
// search gave each turn (by its index in the position's TurnOptions).
struct Played {
  State state;
  double q;
  Turn turn;
  std::vector<TurnVisits> visits;
};

// The positions of one game's line that the networks would judge, and how the game ended
// (nothing when it was cut short).
std::optional<Outcome> read_game(const std::string& line, std::vector<Played>& seen);

// Calls `add(line, held_out)` for each game of the files: five games in each hundred are held
// out (the 1st to 4th, the 100th to 104th, ...). Gives the number of games.
template <typename Add>
int for_each_game(const std::vector<std::string>& paths, int holdout_percent, Add add);

// Adam, with decoupled weight decay (AdamW): `decay` pulls every weight toward 0 by that share
// of the rate a step.
class Adam {
 public:
  explicit Adam(std::size_t weights) : m_(weights), v_(weights) {}
  // One step from the gradient summed over `batch` samples.
  void step(std::span<float> w, std::span<const float> grad, double batch, double rate,
            double decay) {
    ++steps_;
    const double c1 = 1 - std::pow(kBeta1, steps_), c2 = 1 - std::pow(kBeta2, steps_);
    for (std::size_t i = 0; i < w.size(); ++i) {
      const double g = grad[i] / batch;
      m_[i] = static_cast<float>(kBeta1 * m_[i] + (1 - kBeta1) * g);
      v_[i] = static_cast<float>(kBeta2 * v_[i] + (1 - kBeta2) * g * g);
      w[i] -= static_cast<float>(
          rate * ((m_[i] / c1) / (std::sqrt(v_[i] / c2) + kEpsilon) + decay * w[i]));
    }
  }

 private:
  static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;
  std::vector<float> m_, v_;
  long steps_ = 0;
};

// A weight drawn uniformly from (-bound, bound).
inline float uniform_weight(Rng& rng, double bound) {
  return static_cast<float>((static_cast<double>(rng.next() >> 11) * 0x1p-53 * 2 - 1) * bound);
}

struct Schedule {
  int epochs = 8;
  int batch = 256;
  double rate = 1e-3;  // a tenth of it for the last quarter of the epochs
  double decay = 0;
};

// Fits the weights `w` by Adam: each epoch a pass over the samples in a shuffled order, in
// batches. `backward(i, grad)` adds sample i's gradient to `grad` and gives its loss; after each
// epoch, `held_out(epoch, mean fitted loss)` gives the held-out loss (nothing when no sample is
// held out). The weights of the epoch with the lowest held-out loss (else the last) are kept.
template <typename Backward, typename HeldOut>
void fit_weights(std::span<float> w, std::size_t samples, const Schedule& schedule, Rng& rng,
                 Backward backward, HeldOut held_out);

// Writes a network's file.
void write_net(const std::string& path, const std::string& bytes);

// Reads a network's file (ValueNet or PolicyNet); fails with the reason it does not parse.
template <typename Net>
Net read_net(const std::string& path) {
  const std::string bytes = read_file(path);
  Parsed<Net> net =
      Net::parse({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
  if (!net) fail(path + ": " + net.error);
  return std::move(*net.value);
}

struct PolicyTrainOptions {
  std::vector<std::string> games;
  std::string out;
  int hidden = 32;
  std::string from;     // start from this policy's weights (and shape), not random ones
  bool visits = false;  // the target: the search's visits of each turn, not the turn it played
  Schedule schedule;
  int holdout_percent = 5;
  std::uint64_t seed = 1;
};
void train_policy(const PolicyTrainOptions& o);

}  // namespace arena::soccer

#include <sstream>

#include "core/text.hpp"

template <typename Add>
int arena::soccer::for_each_game(const std::vector<std::string>& paths, int holdout_percent,
                                 Add add) {
  int lines = 0;
  for (const std::string& path : paths) {
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);)
      if (!trim(line).empty()) add(line, ++lines % 100 < holdout_percent);
  }
  return lines;
}

template <typename Backward, typename HeldOut>
void arena::soccer::fit_weights(std::span<float> w, std::size_t samples, const Schedule& schedule,
                                Rng& rng, Backward backward, HeldOut held_out) {
  Adam adam(w.size());
  std::vector<float> grad(w.size());
  std::vector<std::size_t> order(samples);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  double best_loss = 1e300;
  std::vector<float> best;
  const auto batch = static_cast<std::size_t>(schedule.batch);
  for (int epoch = 1; epoch <= schedule.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    const double rate = schedule.rate * (epoch > schedule.epochs * 3 / 4 ? 0.1 : 1.0);
    double sum = 0;
    for (std::size_t b = 0; b < order.size(); b += batch) {
      std::fill(grad.begin(), grad.end(), 0.0f);
      const std::size_t end = std::min(order.size(), b + batch);
      for (std::size_t k = b; k < end; ++k) sum += backward(order[k], grad);
      adam.step(w, grad, static_cast<double>(end - b), rate, schedule.decay);
    }
    const std::optional<double> loss =
        held_out(epoch, sum / static_cast<double>(std::max<std::size_t>(1, samples)));
    if (!loss || *loss < best_loss) {  // keep the epoch that generalises best
      best_loss = loss.value_or(0);
      best.assign(w.begin(), w.end());
    }
  }
  std::copy(best.begin(), best.end(), w.begin());
}
