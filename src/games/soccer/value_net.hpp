#pragma once
// A small learned value for Paper Soccer positions: the side to move's chance to win, from the
// drawn segments, the ball's point and how many turns the ball needs to reach each point
// (docs/soccer-net.md). Inputs are seen from the side to move, the field turned so that it
// always attacks north, so one network serves both sides.
// Layers: the inputs (each 0 or 1), two hidden layers with leaky ReLU, one output added to the
// tree search's own value of the position (a one-turn look-ahead of the hand-written evaluation)
// before a tanh: the network learns a correction of that value, which a few thousand self-play
// games can teach, rather than a value from nothing. A network of zeros is the search as before.
// Weights are trained by bench/soccer_net (self-play) and built into the program from
// data/nets/soccer-value.net.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/parse_result.hpp"
#include "games/soccer/eval_after_turn.hpp"
#include "games/soccer/state.hpp"
#include "games/soccer/turn_options.hpp"

namespace arena::soccer {

// The input features of a position: indices of the inputs that are 1, in increasing order.
// First one per drawable segment, then one per point the ball can be on, then for each point
// kDistanceBins: the turns the ball needs to reach it (turn_distance.hpp), 1 to 8, or 9 for
// 9 or more or never.
class NetInputs {
 public:
  static constexpr int kDistanceBins = 9;
  static int count();     // inputs in all
  static int segments();  // the first inputs, one per drawable segment
  // The input of `point` (as the side to move sees it) reached in `turns` turns.
  static int distance_input(int point, int turns);
  static void of(const State& s, std::vector<std::uint16_t>& active);
  // The same position with the field mirrored left to right (training data's second view).
  static void mirrored(const State& s, std::vector<std::uint16_t>& active);
  // The inputs given the position's turn distances (turn_distances), mirrored or not.
  static void in_view(const State& s, const std::array<std::uint8_t, kPoints>& turns, bool mirrored,
                      std::vector<std::uint16_t>& active);
  // A point of the field as the side to move of `s` sees it (mirrored: also left to right); a
  // view is its own inverse.
  static int seen_point(const State& s, int point, bool mirrored);
  // The two points (as the side to move sees them) of a segment's input; for tests.
  static std::pair<int, int> segment_points(int input);
};

struct NetShape {
  int inputs = 0, hidden1 = 0, hidden2 = 0;
  std::size_t weights() const {
    return static_cast<std::size_t>(inputs) * hidden1 + hidden1 + hidden2 * hidden1 + hidden2 +
           hidden2 + 1;
  }
};

inline constexpr float kLeak = 1.0f / 16;  // leaky ReLU's slope below 0
constexpr float leaky_relu(float v) {
  return v > 0 ? v : v * kLeak;
}
inline constexpr int kMaxHidden = 1024;  // units of a hidden layer, at most
// The look-ahead's part of the output: tanh(eval / 800) = 2 sigmoid(eval / 400) - 1, the
// search's own mapping of an evaluation to a win chance (MctsSettings::value_scale).
inline constexpr double kEvalScale = 800.0;
inline constexpr double kGoalEval = 1e6;  // a turn that scores (or -: concedes, gets stuck)

// The mover's evaluation of the position its turn led to: +-kGoalEval when the game is over.
double turn_eval(const State& after, Side mover);
// The same, by an evaluator made for the position before the turn, `steps` the turn.
double turn_eval(const State& after, Side mover, const AfterTurnEvaluator& evaluator,
                 std::span<const std::uint8_t> steps);
// The side to move's one-turn look-ahead: the best turn_eval of its listed turns (the search's
// value of a new position, and the network's base).
double lookahead_eval(const State& s, const TurnOptionLimits& limits);

class ValueNet {
 public:
  // All weights in one array, in this order: layer 1 by input (hidden1 each), its biases, layer
  // 2 by unit (hidden1 each), its biases, the output's weights (hidden2), its bias.
  // The shape must fit the game's inputs and kMaxHidden (shape_error); missing weights are 0.
  ValueNet(NetShape shape, std::vector<float> weights);
  static std::optional<std::string> shape_error(const NetShape& shape);

  // The file format: "arena-soccer-net 2 INPUTS HIDDEN1 HIDDEN2\n", then the weights as
  // little-endian 32-bit floats. Checked in full (sizes, finite values).
  static Parsed<ValueNet> parse(std::span<const unsigned char> bytes);
  std::string serialize() const;

  // The network built into the program (nullptr when it was built without one).
  static const ValueNet* builtin();

  const NetShape& shape() const { return shape_; }
  std::span<const float> weights() const { return w_; }
  std::span<float> weights() { return w_; }

  // tanh(base + the network's sum) in (-1, 1), the side to move's view, from the active inputs.
  float output(std::span<const std::uint16_t> active, float base) const;
  // The same, keeping each hidden layer's sums before and after the activation (for training:
  // bench/soccer_net's gradients).
  struct Activations {
    std::vector<float> sum1, out1, sum2;
  };
  float output(std::span<const std::uint16_t> active, float base, Activations& keep) const;
  // The side to move's chance to win, in (0, 1), given lookahead_eval(s).
  double win_chance(const State& s, double lookahead) const;
  // The same, given the position's inputs (NetInputs; the search makes them once for both
  // networks, from its evaluator's turn distances).
  double win_chance(std::span<const std::uint16_t> active, double lookahead) const;

  // Offsets into weights().
  std::size_t layer1() const { return 0; }
  std::size_t bias1() const { return static_cast<std::size_t>(shape_.inputs) * shape_.hidden1; }
  std::size_t layer2() const { return bias1() + shape_.hidden1; }
  std::size_t bias2() const {
    return layer2() + static_cast<std::size_t>(shape_.hidden2) * shape_.hidden1;
  }
  std::size_t layer3() const { return bias2() + shape_.hidden2; }
  std::size_t bias3() const { return layer3() + shape_.hidden2; }

 private:
  // The layers, into caller's buffers of hidden1, hidden1 and hidden2 floats.
  float run(std::span<const std::uint16_t> active, float base, float* sum1, float* out1,
            float* sum2) const;

  NetShape shape_;
  std::vector<float> w_;
};

}  // namespace arena::soccer
