// The networks' kernels give bit for bit the plain loops' sums (the same order of additions),
// for every width and row count, the policy's logits of a few points those of all points.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/rng.hpp"
#include "games/soccer/net_kernels.hpp"
#include "games/soccer/policy_net.hpp"
#include "games/soccer/turn_distance.hpp"
#include "games/soccer/value_net.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

// Values of very different sizes, so that any other order of the additions rounds differently.
std::vector<float> random_floats(Rng& rng, std::size_t n) {
  std::vector<float> v(n);
  for (float& f : v) {
    const double unit = static_cast<double>(rng.next() >> 11) * 0x1.0p-53 - 0.5;
    f = static_cast<float>(unit * std::pow(10.0, static_cast<double>(rng.below(7)) - 3.0));
  }
  return v;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(SoccerNetKernels, AddColumnsAsThePlainLoop) {
  Rng rng(7);
  constexpr int kInputs = 300;
  for (const int width : {1, 3, 4, 5, 31, 32, 33, 36, 64, 70, 100}) {
    const auto columns = random_floats(rng, static_cast<std::size_t>(kInputs) * width);
    const auto bias = random_floats(rng, static_cast<std::size_t>(width));
    for (const std::size_t count : {0, 1, 2, 57, 250}) {
      std::vector<std::uint16_t> active(count);
      for (auto& a : active) a = static_cast<std::uint16_t>(rng.below(kInputs));
      std::vector<float> fast(static_cast<std::size_t>(width), -1.0f), plain = fast;
      add_columns(columns.data(), width, active, bias.data(), fast.data());
      reference_add_columns(columns.data(), width, active, bias.data(), plain.data());
      EXPECT_TRUE(same_bits(fast, plain)) << "width " << width << ", " << count << " inputs";
    }
  }
}

TEST(SoccerNetKernels, MultiplyRowsAsThePlainLoop) {
  Rng rng(8);
  for (const int width : {1, 2, 4, 7, 32, 33, 64, 65}) {
    for (const int count : {1, 3, 4, 5, 8, 9, 32, 117}) {
      const auto rows = random_floats(rng, static_cast<std::size_t>(count) * width);
      const auto bias = random_floats(rng, static_cast<std::size_t>(count));
      const auto x = random_floats(rng, static_cast<std::size_t>(width));
      std::vector<float> fast(static_cast<std::size_t>(count), -1.0f), plain = fast;
      multiply_rows(rows.data(), count, width, bias.data(), x.data(), fast.data());
      reference_multiply_rows(rows.data(), count, width, bias.data(), x.data(), plain.data());
      EXPECT_TRUE(same_bits(fast, plain)) << count << " rows of " << width;

      // Some of the rows, in any order, repeated: each as multiply_rows gave it.
      std::vector<int> which;
      for (int k = 0; k < count + 2; ++k) which.push_back(static_cast<int>(rng.below(count)));
      std::vector<float> some(which.size(), -1.0f), expected(which.size());
      multiply_some_rows(rows.data(), width, which, bias.data(), x.data(), some.data());
      for (std::size_t k = 0; k < which.size(); ++k) expected[k] = plain[which[k]];
      EXPECT_TRUE(same_bits(some, expected)) << which.size() << " of " << count << " rows";
    }
  }
}

// The logits of the points asked for are those of all points; the others are left alone.
TEST(SoccerNetKernels, TheLogitsOfSomePointsAreThoseOfAll) {
  const PolicyNet* net = PolicyNet::builtin();
  ASSERT_NE(net, nullptr);
  State s = walk(State::start(), {0, 1, 2});
  for (int ply = 0; ply < 2; ++ply) {
    std::array<std::uint8_t, kPoints> turns;
    turn_distances(s, turns);
    std::vector<std::uint16_t> active;
    NetInputs::in_view(s, turns, false, active);
    PolicyNet::Logits all, some;
    net->turn_logits(s, active, all);
    some.fill(123.0f);
    const std::vector<std::uint8_t> points = {5, 60, 61, 62, 116, 0, 30};
    net->turn_logits(s, active, points, some);
    for (int p = 0; p < kPoints; ++p) {
      const bool asked = std::find(points.begin(), points.end(), p) != points.end();
      EXPECT_EQ(some[p], asked ? all[p] : 123.0f) << "point " << p;
    }
    s = walk(s, {4});  // the other side to move: the field turned
  }
}

}  // namespace
}  // namespace arena::soccer
