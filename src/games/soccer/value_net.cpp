#include "games/soccer/value_net.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "games/soccer/eval.hpp"
#include "games/soccer/geometry.hpp"
#include "games/soccer/net_kernels.hpp"
#include "games/soccer/net_weights.hpp"
#include "games/soccer/turn_distance.hpp"

namespace arena::soccer {
namespace {

constexpr int kMaxSegments = 4 * kPoints;  // a segment is drawn N, NE, E or SE from a point

// Built from the start position: every segment not used there can be drawn.
struct InputTables {
  int segments = 0;
  // [view][point][direction 0..3] -> input, or -1; view 0 = as is, 1 = turned (y -> -y),
  // 2 = mirrored (x -> -x), 3 = both.
  std::array<std::array<std::array<std::int16_t, 4>, kPoints>, 4> segment{};
  std::array<std::array<std::int16_t, kPoints>, 4> ball{};
  std::array<std::uint8_t, kPoints> border{};                    // the segments used from the start
  std::array<std::array<std::uint8_t, kPoints>, 4> seen_from{};  // [view][point as seen]
  std::vector<int> field_points;                                 // in increasing order
  std::vector<std::pair<int, int>> points;                       // each segment input's two points
};

int transform(int p, int view) {
  const int x = view & 2 ? -x_of(p) : x_of(p);
  const int y = view & 1 ? -y_of(p) : y_of(p);
  return point_at(x, y);
}

const InputTables& tables() {
  static const InputTables t = [] {
    InputTables t;
    const State start = State::start();
    for (int p = 0; p < kPoints; ++p) {
      t.border[p] = start.used(p);
      if (geometry().start_used[p] != 0xFF) t.field_points.push_back(p);
    }
    std::array<std::array<std::int16_t, kPoints>, kPoints> id{};
    for (auto& row : id) row.fill(-1);
    for (int p = 0; p < kPoints; ++p)
      for (int d = 0; d < 4; ++d)
        if (!(start.used(p) >> d & 1)) {
          const int q = p + kDirectionDelta[d];
          id[p][q] = id[q][p] = static_cast<std::int16_t>(t.segments++);
          t.points.emplace_back(p, q);
        }
    for (int view = 0; view < 4; ++view)
      for (int p = 0; p < kPoints; ++p) {
        t.ball[view][p] = static_cast<std::int16_t>(t.segments + transform(p, view));
        t.seen_from[view][p] = static_cast<std::uint8_t>(transform(p, view));
        for (int d = 0; d < 4; ++d) {
          t.segment[view][p][d] = -1;
          if (start.used(p) >> d & 1) continue;
          t.segment[view][p][d] = id[transform(p, view)][transform(p + kDirectionDelta[d], view)];
        }
      }
    return t;
  }();
  return t;
}

int distance_input(const InputTables& t, int point, int turns) {
  const int bin = std::clamp(turns, 1, NetInputs::kDistanceBins) - 1;
  return t.segments + kPoints + point * NetInputs::kDistanceBins + bin;
}

// In increasing order (the order the network adds its inputs in, so that a position's output is
// the same every time): the segments' inputs first, then the ball's, then the distances'.
void inputs_in_view(const State& s, int view, const std::array<std::uint8_t, kPoints>& turns,
                    std::vector<std::uint16_t>& active) {
  const InputTables& t = tables();
  active.clear();
  std::array<std::uint64_t, (kMaxSegments + 63) / 64> drawn_inputs{};
  for (int p = 0; p < kPoints; ++p) {
    const unsigned drawn = s.used(p) & 0x0Fu & ~static_cast<unsigned>(t.border[p]);
    for (unsigned bits = drawn; bits; bits &= bits - 1) {
      const int input = t.segment[view][p][std::countr_zero(bits)];
      if (input >= 0) drawn_inputs[input / 64] |= std::uint64_t{1} << (input % 64);
    }
  }
  for (std::size_t word = 0; word < drawn_inputs.size(); ++word)
    for (std::uint64_t bits = drawn_inputs[word]; bits; bits &= bits - 1)
      active.push_back(static_cast<std::uint16_t>(64 * word + std::countr_zero(bits)));
  active.push_back(static_cast<std::uint16_t>(t.ball[view][s.ball()]));
  // By the point as the view sees it: a view is its own inverse, and the field is symmetric.
  for (const int seen_as : t.field_points)
    active.push_back(
        static_cast<std::uint16_t>(distance_input(t, seen_as, turns[t.seen_from[view][seen_as]])));
}

void inputs_in_view(const State& s, int view, std::vector<std::uint16_t>& active) {
  std::array<std::uint8_t, kPoints> turns;
  turn_distances(s, turns);
  inputs_in_view(s, view, turns, active);
}

int view_of(const State& s) {
  return s.side_to_move() == Side::White ? 0 : 1;  // White attacks north; Black is turned
}

constexpr std::string_view kMagic = "arena-soccer-net";
// Version 2 added the turn distances to the inputs (version 1 had the segments and the ball).
constexpr int kVersion = 2;

}  // namespace

int NetInputs::segments() {
  return tables().segments;
}

int NetInputs::count() {
  return segments() + kPoints + kPoints * kDistanceBins;
}

int NetInputs::distance_input(int point, int turns) {
  return soccer::distance_input(tables(), point, turns);
}

void NetInputs::of(const State& s, std::vector<std::uint16_t>& active) {
  inputs_in_view(s, view_of(s), active);
}

void NetInputs::mirrored(const State& s, std::vector<std::uint16_t>& active) {
  inputs_in_view(s, view_of(s) | 2, active);
}

void NetInputs::in_view(const State& s, const std::array<std::uint8_t, kPoints>& turns,
                        bool mirrored, std::vector<std::uint16_t>& active) {
  inputs_in_view(s, view_of(s) | (mirrored ? 2 : 0), turns, active);
}

int NetInputs::seen_point(const State& s, int point, bool mirrored) {
  return tables().seen_from[view_of(s) | (mirrored ? 2 : 0)][point];
}

std::pair<int, int> NetInputs::segment_points(int input) {
  return tables().points.at(static_cast<std::size_t>(input));
}

std::optional<std::string> ValueNet::shape_error(const NetShape& shape) {
  if (shape.inputs != NetInputs::count())
    return fmt::format("the network has {} inputs, the game {}", shape.inputs, NetInputs::count());
  if (shape.hidden1 < 1 || shape.hidden1 > kMaxHidden || shape.hidden2 < 1 ||
      shape.hidden2 > kMaxHidden)
    return fmt::format("the network's hidden layers must have 1 to {} units", kMaxHidden);
  return std::nullopt;
}

ValueNet::ValueNet(NetShape shape, std::vector<float> weights)
    : shape_(shape), w_(std::move(weights)) {
  if (const auto error = shape_error(shape)) throw std::invalid_argument("ValueNet: " + *error);
  w_.resize(shape_.weights());
}

Parsed<ValueNet> ValueNet::parse(std::span<const unsigned char> bytes) {
  Parsed<NetFile> file = split_net_file(bytes, "Paper Soccer network");
  if (!file) return Parsed<ValueNet>::fail(file.error);
  const std::string& header = file.value->header;
  NetShape shape;
  char magic[32] = {};
  int version = 0;
  if (std::sscanf(header.c_str(), "%31s %d %d %d %d", magic, &version, &shape.inputs,
                  &shape.hidden1, &shape.hidden2) != 5 ||
      magic != kMagic)
    return Parsed<ValueNet>::fail(fmt::format("not a Paper Soccer network: header '{}'", header));
  if (version != kVersion)
    return Parsed<ValueNet>::fail(
        fmt::format("a Paper Soccer network of version {}, this program reads version {} (its "
                    "inputs differ): train it again (docs/soccer-net.md)",
                    version, kVersion));
  if (const auto error = shape_error(shape)) return Parsed<ValueNet>::fail(*error);
  Parsed<std::vector<float>> w = read_weights(file.value->body, shape.weights());
  if (!w) return Parsed<ValueNet>::fail(w.error);
  return Parsed<ValueNet>::ok(ValueNet(shape, std::move(*w.value)));
}

std::string ValueNet::serialize() const {
  std::string out = fmt::format("{} {} {} {} {}\n", kMagic, kVersion, shape_.inputs, shape_.hidden1,
                                shape_.hidden2);
  append_weights(out, w_);
  return out;
}

const ValueNet* ValueNet::builtin() {
  return builtin_net<ValueNet>("soccer-value.net", "network");
}

double turn_eval(const State& after, Side mover) {
  if (after.over()) return after.result().outcome == win_for(mover) ? kGoalEval : -kGoalEval;
  return -evaluate(after);  // the evaluation is the opponent's view after the turn
}

double turn_eval(const State& after, Side mover, const AfterTurnEvaluator& evaluator,
                 std::span<const std::uint8_t> steps) {
  if (after.over()) return turn_eval(after, mover);
  return -evaluator.evaluate(after, steps);
}

double lookahead_eval(const State& s, const TurnOptionLimits& limits) {
  thread_local TurnOptions turns;
  turns.list(s, limits);
  const AfterTurnEvaluator evaluator(s);
  double best = -kGoalEval;
  for (int i = 0; i < turns.size(); ++i)
    best = std::max(best, turn_eval(turns.after(i), s.side_to_move(), evaluator, turns.steps(i)));
  return best;
}

float ValueNet::run(std::span<const std::uint16_t> active, float base, float* sum1, float* out1,
                    float* sum2) const {
  const int h1n = shape_.hidden1, h2n = shape_.hidden2;
  add_columns(w_.data() + layer1(), h1n, active, w_.data() + bias1(), sum1);
  for (int i = 0; i < h1n; ++i) out1[i] = leaky_relu(sum1[i]);
  multiply_rows(w_.data() + layer2(), h2n, h1n, w_.data() + bias2(), out1, sum2);
  float out = base + w_[bias3()];
  for (int j = 0; j < h2n; ++j) out += w_[layer3() + j] * leaky_relu(sum2[j]);
  return std::tanh(out);
}

float ValueNet::output(std::span<const std::uint16_t> active, float base) const {
  // On the stack: this runs once for each new position of the search.
  std::array<float, kMaxHidden> sum1, out1, sum2;
  return run(active, base, sum1.data(), out1.data(), sum2.data());
}

float ValueNet::output(std::span<const std::uint16_t> active, float base, Activations& keep) const {
  keep.sum1.resize(static_cast<std::size_t>(shape_.hidden1));
  keep.out1.resize(static_cast<std::size_t>(shape_.hidden1));
  keep.sum2.resize(static_cast<std::size_t>(shape_.hidden2));
  return run(active, base, keep.sum1.data(), keep.out1.data(), keep.sum2.data());
}

double ValueNet::win_chance(const State& s, double lookahead) const {
  std::array<std::uint8_t, kPoints> turns;
  turn_distances(s, turns);
  thread_local std::vector<std::uint16_t> active;
  NetInputs::in_view(s, turns, false, active);
  return win_chance(active, lookahead);
}

double ValueNet::win_chance(std::span<const std::uint16_t> active, double lookahead) const {
  return 0.5 + 0.5 * output(active, static_cast<float>(lookahead / kEvalScale));
}

}  // namespace arena::soccer
