#include "games/soccer/policy_net.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "games/soccer/net_kernels.hpp"
#include "games/soccer/net_weights.hpp"
#include "games/soccer/value_net.hpp"

namespace arena::soccer {
namespace {

constexpr std::string_view kMagic = "arena-soccer-policy";
constexpr int kVersion = 1;

}  // namespace

std::optional<std::string> PolicyNet::shape_error(const PolicyShape& shape) {
  if (shape.inputs != NetInputs::count())
    return fmt::format("the policy has {} inputs, the game {}", shape.inputs, NetInputs::count());
  if (shape.hidden < 1 || shape.hidden > kMaxHidden)
    return fmt::format("the policy's hidden layer must have 1 to {} units", kMaxHidden);
  return std::nullopt;
}

PolicyNet::PolicyNet(PolicyShape shape, std::vector<float> weights)
    : shape_(shape), w_(std::move(weights)) {
  if (const auto error = shape_error(shape)) throw std::invalid_argument("PolicyNet: " + *error);
  w_.resize(shape_.weights());
}

Parsed<PolicyNet> PolicyNet::parse(std::span<const unsigned char> bytes) {
  Parsed<NetFile> file = split_net_file(bytes, "Paper Soccer policy");
  if (!file) return Parsed<PolicyNet>::fail(file.error);
  const std::string& header = file.value->header;
  PolicyShape shape;
  char magic[32] = {};
  int version = 0;
  if (std::sscanf(header.c_str(), "%31s %d %d %d", magic, &version, &shape.inputs, &shape.hidden) !=
          4 ||
      magic != kMagic)
    return Parsed<PolicyNet>::fail(fmt::format("not a Paper Soccer policy: header '{}'", header));
  if (version != kVersion)
    return Parsed<PolicyNet>::fail(fmt::format(
        "a Paper Soccer policy of version {}, this program reads version {}: train it again "
        "(docs/soccer-net.md)",
        version, kVersion));
  if (const auto error = shape_error(shape)) return Parsed<PolicyNet>::fail(*error);
  Parsed<std::vector<float>> w = read_weights(file.value->body, shape.weights());
  if (!w) return Parsed<PolicyNet>::fail(w.error);
  return Parsed<PolicyNet>::ok(PolicyNet(shape, std::move(*w.value)));
}

std::string PolicyNet::serialize() const {
  std::string out = fmt::format("{} {} {} {}\n", kMagic, kVersion, shape_.inputs, shape_.hidden);
  append_weights(out, w_);
  return out;
}

const PolicyNet* PolicyNet::builtin() {
  return builtin_net<PolicyNet>("soccer-policy.net", "policy");
}

void PolicyNet::hidden_layer(std::span<const std::uint16_t> active, std::vector<float>& sum1,
                             float* hidden) const {
  const int hn = shape_.hidden;
  sum1.resize(static_cast<std::size_t>(hn));
  add_columns(w_.data() + layer1(), hn, active, w_.data() + bias1(), sum1.data());
  for (int i = 0; i < hn; ++i) hidden[i] = leaky_relu(sum1[i]);
}

void PolicyNet::logits(std::span<const std::uint16_t> active, Logits& out,
                       std::vector<float>& sum1) const {
  std::array<float, kMaxHidden> hidden;
  hidden_layer(active, sum1, hidden.data());
  multiply_rows(w_.data() + layer2(), PolicyShape::kOutputs, shape_.hidden, w_.data() + bias2(),
                hidden.data(), out.data());
}

void PolicyNet::logits(std::span<const std::uint16_t> active, Logits& out) const {
  thread_local std::vector<float> sum1;
  logits(active, out, sum1);
}

void PolicyNet::turn_logits(const State& s, std::span<const std::uint16_t> active,
                            Logits& by_point) const {
  Logits seen;
  logits(active, seen);
  for (int p = 0; p < kPoints; ++p) by_point[p] = seen[NetInputs::seen_point(s, p, false)];
}

void PolicyNet::turn_logits(const State& s, std::span<const std::uint16_t> active,
                            std::span<const std::uint8_t> points, Logits& by_point) const {
  thread_local std::vector<float> sum1;
  std::array<float, kMaxHidden> hidden;
  hidden_layer(active, sum1, hidden.data());
  std::array<int, kPoints> rows;
  const std::size_t n = std::min(points.size(), rows.size());
  for (std::size_t k = 0; k < n; ++k) rows[k] = NetInputs::seen_point(s, points[k], false);
  Logits out;
  multiply_some_rows(w_.data() + layer2(), shape_.hidden, {rows.data(), n}, w_.data() + bias2(),
                     hidden.data(), out.data());
  for (std::size_t k = 0; k < n; ++k) by_point[points[k]] = out[k];
}

}  // namespace arena::soccer
