#pragma once
// A small learned policy for Paper Soccer: from a position, a logit for each point of the field,
// the search's preference for a turn that leaves the ball there (docs/soccer-net.md). The tree
// search's prior of a turn is a softmax of its evaluation after the turn plus the logit of its
// end point: like the value network, the policy learns a correction of what the search had, so a
// policy of zeros is the search as before. It reads the value network's inputs (NetInputs), seen
// from the side to move; one hidden layer with leaky ReLU. Trained by bench/soccer_net from the
// turns the search played in self-play, and built into the program from
// data/nets/soccer-policy.net.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/parse_result.hpp"
#include "games/soccer/state.hpp"

namespace arena::soccer {

struct PolicyShape {
  int inputs = 0, hidden = 0;
  static constexpr int kOutputs = kPoints;  // one per point, as the side to move sees it
  std::size_t weights() const {
    return static_cast<std::size_t>(inputs) * hidden + hidden +
           static_cast<std::size_t>(kOutputs) * hidden + kOutputs;
  }
};

class PolicyNet {
 public:
  // All weights in one array: layer 1 by input (hidden each), its biases, the outputs by output
  // (hidden each), their biases. Missing weights are 0.
  PolicyNet(PolicyShape shape, std::vector<float> weights);
  static std::optional<std::string> shape_error(const PolicyShape& shape);

  // "arena-soccer-policy 1 INPUTS HIDDEN\n", then the weights as little-endian 32-bit floats.
  static Parsed<PolicyNet> parse(std::span<const unsigned char> bytes);
  std::string serialize() const;
  // The policy built into the program (nullptr when it was built without one).
  static const PolicyNet* builtin();

  const PolicyShape& shape() const { return shape_; }
  std::span<const float> weights() const { return w_; }
  std::span<float> weights() { return w_; }

  using Logits = std::array<float, PolicyShape::kOutputs>;
  // The logits by point as the side to move sees it, from the active inputs (NetInputs).
  void logits(std::span<const std::uint16_t> active, Logits& out) const;
  // The same, keeping the hidden layer's sums (for training: bench/soccer_net).
  void logits(std::span<const std::uint16_t> active, Logits& out, std::vector<float>& sum1) const;
  // The logits of `s` by the field's own points, given its inputs (NetInputs::in_view, not
  // mirrored).
  void turn_logits(const State& s, std::span<const std::uint16_t> active, Logits& by_point) const;
  // The same for the given points of the field only (the others are left as they are): the
  // search needs those its turns end on, a few dozen of the 117.
  void turn_logits(const State& s, std::span<const std::uint16_t> active,
                   std::span<const std::uint8_t> points, Logits& by_point) const;

  std::size_t layer1() const { return 0; }
  std::size_t bias1() const { return static_cast<std::size_t>(shape_.inputs) * shape_.hidden; }
  std::size_t layer2() const { return bias1() + shape_.hidden; }
  std::size_t bias2() const {
    return layer2() + static_cast<std::size_t>(PolicyShape::kOutputs) * shape_.hidden;
  }

 private:
  // The hidden layer: its sums, and their activations into `hidden` (shape().hidden floats).
  void hidden_layer(std::span<const std::uint16_t> active, std::vector<float>& sum1,
                    float* hidden) const;

  PolicyShape shape_;
  std::vector<float> w_;
};

}  // namespace arena::soccer
