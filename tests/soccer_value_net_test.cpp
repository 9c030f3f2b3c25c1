// The Paper Soccer value network: its inputs (the drawn segments and the ball, seen from the side
// to move), its file format, the network built into the program, and the search's use of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "games/soccer/mcts.hpp"
#include "games/soccer/turn_distance.hpp"
#include "games/soccer/value_net.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

int segments() {
  return NetInputs::segments();
}

// The segments drawn in s (not the border's), as point pairs seen through `turned`/`mirrored`.
std::set<std::pair<int, int>> drawn_segments(const State& s, bool turned, bool mirrored) {
  const State start = State::start();
  auto see = [&](int p) {
    return point_at(mirrored ? -x_of(p) : x_of(p), turned ? -y_of(p) : y_of(p));
  };
  std::set<std::pair<int, int>> out;
  for (int p = 0; p < kPoints; ++p)
    for (int d = 0; d < 8; ++d)
      if ((s.used(p) >> d & 1) && !(start.used(p) >> d & 1)) {
        const int a = see(p), b = see(p + kDirectionDelta[d]);
        out.emplace(std::min(a, b), std::max(a, b));
      }
  return out;
}

// What the inputs say: their segments (point pairs), the ball's point and each point's turns.
struct Decoded {
  std::set<std::pair<int, int>> segments;
  int ball = -1;
  std::map<int, int> turns;  // point -> its bin, 1..kDistanceBins
};

Decoded decode(const std::vector<std::uint16_t>& active) {
  Decoded out;
  for (const std::uint16_t input : active) {
    const int distances = segments() + kPoints;
    if (input >= distances) {
      const int point = (input - distances) / NetInputs::kDistanceBins;
      EXPECT_FALSE(out.turns.contains(point)) << "two distances of point " << point;
      out.turns[point] = (input - distances) % NetInputs::kDistanceBins + 1;
      continue;
    }
    if (input >= segments()) {
      EXPECT_EQ(out.ball, -1) << "two ball inputs";
      out.ball = input - segments();
      continue;
    }
    const auto [a, b] = NetInputs::segment_points(input);
    out.segments.emplace(std::min(a, b), std::max(a, b));
  }
  return out;
}

bool on_field(int p) {
  return State::start().used(p) != 0xFF;
}

TEST(SoccerValueNet, InputsAreTheDrawnSegmentsAndTheBallAsTheSideToMoveSeesThem) {
  int free_ends = 0;  // each segment not drawn at the start, counted at both its ends
  for (int p = 0; p < kPoints; ++p)
    free_ends += std::popcount(State::start().free_directions_at(p));
  EXPECT_EQ(segments(), free_ends / 2);
  EXPECT_EQ(segments(), 320);
  std::vector<std::uint16_t> active;
  NetInputs::of(State::start(), active);
  const Decoded start = decode(active);
  EXPECT_TRUE(start.segments.empty());
  EXPECT_EQ(start.ball, kCentre);
  EXPECT_EQ(start.turns.size(), 105u);  // every point of the field, each once
  EXPECT_EQ(start.turns.at(point_at(1, 1)), 1);
  EXPECT_EQ(start.turns.at(point_at(-3, 5)), 4);
  EXPECT_EQ(start.turns.at(point_at(0, 6)), 5);

  int positions = 0, black = 0;
  random_positions(3, 60, [&](const State& s) {
    const bool turned = s.side_to_move() == Side::Black;
    black += turned;
    for (const bool mirrored : {false, true}) {
      (mirrored ? NetInputs::mirrored : NetInputs::of)(s, active);
      ASSERT_TRUE(std::is_sorted(active.begin(), active.end()));
      ASSERT_EQ(std::adjacent_find(active.begin(), active.end()), active.end());
      const Decoded seen = decode(active);
      EXPECT_EQ(seen.segments, drawn_segments(s, turned, mirrored)) << s.render();
      auto see = [&](int p) {
        return point_at(mirrored ? -x_of(p) : x_of(p), turned ? -y_of(p) : y_of(p));
      };
      EXPECT_EQ(seen.ball, see(s.ball()));
      std::array<std::uint8_t, kPoints> turns;
      turn_distances(s, turns);
      for (int p = 0; p < kPoints; ++p) {
        if (!on_field(p)) continue;
        EXPECT_EQ(seen.turns.at(see(p)), std::min<int>(turns[p], NetInputs::kDistanceBins));
      }
    }
    ++positions;
  });
  EXPECT_GT(positions, 1000);
  EXPECT_GT(black, 500);
}

// A network over the ball's row only: it adds sign * 17/16 * row to the look-ahead's part, the
// row as the side to move sees it (its attack is north, +y).
ValueNet row_net(float sign) {
  const NetShape shape{NetInputs::count(), 2, 1};
  ValueNet net(shape, std::vector<float>(shape.weights(), 0.0f));
  auto w = net.weights();
  for (int p = 0; p < kPoints; ++p) {
    const auto input = static_cast<std::size_t>(segments() + p);
    w[net.layer1() + input * 2] = static_cast<float>(y_of(p));
    w[net.layer1() + input * 2 + 1] = static_cast<float>(-y_of(p));
  }
  w[net.layer2()] = 1;
  w[net.layer2() + 1] = -1;
  w[net.layer3()] = sign;
  return net;
}

TEST(SoccerValueNet, ComputesItsLayers) {
  const ValueNet net = row_net(0.25f);
  std::vector<std::uint16_t> active;
  random_positions(4, 5, [&](const State& s) {
    NetInputs::of(s, active);
    const int row = s.side_to_move() == Side::White ? y_of(s.ball()) : -y_of(s.ball());
    // Unit 1: row, unit 2: -row, each leaky; the second layer's difference is 17/16 row, leaky.
    const float diff = row > 0 ? row + row / 16.0f : row / 16.0f + row;
    const float hidden = diff > 0 ? diff : diff * kLeak;
    EXPECT_NEAR(net.output(active, 0.5f), std::tanh(0.5f + 0.25f * hidden), 1e-6) << row;
    EXPECT_NEAR(net.win_chance(s, 400), 0.5 + 0.5 * std::tanh(0.5 + 0.25f * hidden), 1e-6);
  });
}

TEST(SoccerValueNet, ItsFileIsCheckedInFull) {
  const ValueNet net = row_net(-1);
  const std::string bytes = net.serialize();
  auto parse = [](const std::string& b) {
    return ValueNet::parse({reinterpret_cast<const unsigned char*>(b.data()), b.size()});
  };
  const auto back = parse(bytes);
  ASSERT_TRUE(back) << back.error;
  EXPECT_TRUE(std::ranges::equal(back.value->weights(), net.weights()));
  EXPECT_EQ(back.value->shape().hidden1, 2);

  EXPECT_FALSE(parse(""));
  EXPECT_FALSE(parse(bytes.substr(0, bytes.size() - 1)));
  EXPECT_FALSE(parse(bytes + "x"));
  EXPECT_EQ(bytes.rfind("arena-soccer-net 2 ", 0), 0u);
  std::string other = bytes;
  other.replace(0, 18, "arena-soccer-net 1");  // a network of the inputs before the distances
  const auto old_version = parse(other);
  ASSERT_FALSE(old_version);
  EXPECT_NE(old_version.error.find("version 1"), std::string::npos) << old_version.error;
  other.replace(0, 18, "arena-soccer-met 2");
  EXPECT_FALSE(parse(other));
  const auto wrong_inputs =
      parse("arena-soccer-net 2 100 2 1\n" + bytes.substr(bytes.find('\n') + 1));
  ASSERT_FALSE(wrong_inputs);
  EXPECT_NE(wrong_inputs.error.find("inputs"), std::string::npos) << wrong_inputs.error;
  std::string nan = bytes;
  const std::size_t body = nan.find('\n') + 1;
  nan[body] = nan[body + 1] = '\xff';
  nan[body + 2] = '\xc0';
  nan[body + 3] = '\x7f';
  EXPECT_FALSE(parse(nan));
  EXPECT_FALSE(parse("arena-soccer-net 2 1490 100000 1\n"));
}

TEST(SoccerValueNet, TheProgramHasOne) {
  const ValueNet* net = ValueNet::builtin();
  ASSERT_NE(net, nullptr) << "data/nets/soccer-value.net was not built in";
  EXPECT_EQ(net->shape().inputs, NetInputs::count());
  const State s = State::start();
  const double start = net->win_chance(s, lookahead_eval(s, MctsSettings{}.turns));
  EXPECT_GT(start, 0.2);
  EXPECT_LT(start, 0.8);
}

// The ball's row after the engine's first turn, with a network that values it.
int first_row(const ValueNet* net) {
  MctsSettings settings;
  settings.max_iterations = 300;
  settings.value_net = net;
  Mcts mcts(settings);
  State s = State::start();
  EXPECT_TRUE(play_turn(s, mcts.choose(s).turn));
  return y_of(s.ball());
}

// A game of the search against itself, `turns` turns from a book-like opening.
std::vector<std::string> self_play(const ValueNet* net, int turns) {
  MctsSettings settings;
  settings.max_iterations = 400;
  settings.value_net = net;
  Mcts mcts(settings);
  State s = walk(State::start(), {0, 1, 2, 3});
  std::vector<std::string> played;
  for (int i = 0; i < turns && !s.over(); ++i) {
    const TurnChoice c = mcts.choose(s);
    played.push_back(turn_text(c.turn) + " " + std::to_string(c.score));
    EXPECT_TRUE(play_turn(s, c.turn));
  }
  return played;
}

TEST(SoccerValueNet, ANetworkOfZerosIsTheSearchWithout) {
  const NetShape shape{NetInputs::count(), 8, 4};
  const ValueNet zeros(shape, std::vector<float>(shape.weights(), 0.0f));
  const auto with = self_play(&zeros, 16);
  EXPECT_EQ(with, self_play(nullptr, 16));
  EXPECT_NE(with, self_play(ValueNet::builtin(), 16)) << "the built-in network changes the game";
}

TEST(SoccerValueNet, TheSearchValuesNewPositionsByIt) {
  // Without it, the first turn goes forward or sideways; with a network that values the ball
  // near one's own goal, backwards; with one that values it near the opponent's, forwards.
  EXPECT_GE(first_row(nullptr), 0);
  const ValueNet backwards = row_net(-1), forwards = row_net(1);
  EXPECT_LT(first_row(&backwards), 0);
  EXPECT_GT(first_row(&forwards), 0);
}

}  // namespace
}  // namespace arena::soccer
