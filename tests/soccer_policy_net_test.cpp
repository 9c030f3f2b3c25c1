// The Paper Soccer policy: its file format, its logits by the field's points as the side to move
// sees them, the policy built into the program, and the search's priors with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "games/soccer/mcts.hpp"
#include "games/soccer/policy_net.hpp"
#include "games/soccer/turn_distance.hpp"
#include "games/soccer/value_net.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

const PolicyShape kShape{NetInputs::count(), 2};

// A policy whose logits are its output biases alone: `bias` at the point (x, y) as the side to
// move sees it, 0 elsewhere.
PolicyNet favouring(int x, int y, float bias) {
  PolicyNet net(kShape, {});
  net.weights()[net.bias2() + point_at(x, y)] = bias;
  return net;
}

Parsed<PolicyNet> parse(const std::string& b) {
  return PolicyNet::parse({reinterpret_cast<const unsigned char*>(b.data()), b.size()});
}

TEST(SoccerPolicyNet, ItsFileIsCheckedInFull) {
  PolicyNet net(kShape, {});
  for (std::size_t i = 0; i < net.weights().size(); ++i)
    net.weights()[i] = static_cast<float>(i % 7) - 3.0f;
  const std::string bytes = net.serialize();
  EXPECT_EQ(bytes.rfind("arena-soccer-policy 1 ", 0), 0u);
  EXPECT_EQ(bytes.size(), bytes.find('\n') + 1 + 4 * kShape.weights());
  const auto back = parse(bytes);
  ASSERT_TRUE(back) << back.error;
  EXPECT_TRUE(std::ranges::equal(back.value->weights(), net.weights()));
  EXPECT_EQ(back.value->shape().hidden, 2);

  EXPECT_FALSE(parse(""));
  EXPECT_FALSE(parse(bytes.substr(0, bytes.size() - 1)));
  EXPECT_FALSE(parse(bytes + "x"));
  std::string other = bytes;
  other.replace(0, 21, "arena-soccer-policy 2");
  const auto newer = parse(other);
  ASSERT_FALSE(newer);
  EXPECT_NE(newer.error.find("version 2"), std::string::npos) << newer.error;
  const auto value_file =
      parse("arena-soccer-net 2 1490 2 1\n" + bytes.substr(bytes.find('\n') + 1));
  ASSERT_FALSE(value_file);
  EXPECT_NE(value_file.error.find("not a Paper Soccer policy"), std::string::npos)
      << value_file.error;
  const auto wrong_inputs =
      parse("arena-soccer-policy 1 100 2\n" + bytes.substr(bytes.find('\n') + 1));
  ASSERT_FALSE(wrong_inputs);
  EXPECT_NE(wrong_inputs.error.find("inputs"), std::string::npos) << wrong_inputs.error;
  std::string nan = bytes;
  const std::size_t body = nan.find('\n') + 1;
  nan[body] = nan[body + 1] = '\xff';
  nan[body + 2] = '\xc0';
  nan[body + 3] = '\x7f';
  EXPECT_FALSE(parse(nan));
  EXPECT_FALSE(parse("arena-soccer-policy 1 1490 100000\n"));
  EXPECT_FALSE(parse(std::string(200, 'a')));  // no header line within its bound
}

TEST(SoccerPolicyNet, ComputesItsLayers) {
  // One hidden unit that is the ball's input at the start point (+2) and a bias of -0.5;
  // output k = k's weight times the unit, plus its bias.
  PolicyNet net(PolicyShape{NetInputs::count(), 1}, {});
  auto w = net.weights();
  const int ball_input = NetInputs::segments() + point_at(0, 0);
  w[net.layer1() + static_cast<std::size_t>(ball_input)] = 2.0f;
  w[net.bias1()] = -0.5f;
  w[net.layer2() + 5] = 3.0f;
  w[net.bias2() + 5] = 1.0f;
  w[net.layer2() + 6] = -1.0f;
  PolicyNet::Logits out;
  const std::vector<std::uint16_t> with_ball{static_cast<std::uint16_t>(ball_input)};
  net.logits(with_ball, out);
  EXPECT_FLOAT_EQ(out[5], 1.0f + 3.0f * 1.5f);
  EXPECT_FLOAT_EQ(out[6], -1.5f);
  EXPECT_FLOAT_EQ(out[7], 0.0f);
  net.logits({}, out);  // the unit below 0: leaky
  EXPECT_FLOAT_EQ(out[5], 1.0f + 3.0f * (-0.5f * kLeak));
}

TEST(SoccerPolicyNet, ItsLogitsAreByThePointsAsTheSideToMoveSeesThem) {
  const PolicyNet net = favouring(1, 2, 4.0f);  // one point forward-right of the attacker's
  std::array<std::uint8_t, kPoints> turns;
  PolicyNet::Logits by_point;

  const State white = State::start();
  ASSERT_EQ(white.side_to_move(), Side::White);
  std::vector<std::uint16_t> active;
  turn_distances(white, turns);
  NetInputs::in_view(white, turns, false, active);
  net.turn_logits(white, active, by_point);
  EXPECT_FLOAT_EQ(by_point[point_at(1, 2)], 4.0f);  // White attacks north
  EXPECT_EQ(std::count(by_point.begin(), by_point.end(), 0.0f), kPoints - 1);

  State black = walk(State::start(), {0});  // one step: Black to move
  ASSERT_EQ(black.side_to_move(), Side::Black);
  turn_distances(black, turns);
  NetInputs::in_view(black, turns, false, active);
  net.turn_logits(black, active, by_point);
  EXPECT_FLOAT_EQ(by_point[point_at(1, -2)], 4.0f);  // the field turned for Black
  EXPECT_EQ(std::count(by_point.begin(), by_point.end(), 0.0f), kPoints - 1);
  EXPECT_EQ(NetInputs::seen_point(black, point_at(1, -2), false), point_at(1, 2));
  EXPECT_EQ(NetInputs::seen_point(black, point_at(1, -2), true), point_at(-1, 2));
}

TEST(SoccerPolicyNet, TheProgramHasOne) {
  const PolicyNet* net = PolicyNet::builtin();
  ASSERT_NE(net, nullptr) << "data/nets/soccer-policy.net was not built in";
  EXPECT_EQ(net->shape().inputs, NetInputs::count());
  std::array<std::uint8_t, kPoints> turns;
  const State s = State::start();
  turn_distances(s, turns);
  std::vector<std::uint16_t> active;
  NetInputs::in_view(s, turns, false, active);
  PolicyNet::Logits by_point;
  net->turn_logits(s, active, by_point);
  EXPECT_TRUE(std::ranges::all_of(by_point, [](float v) { return std::isfinite(v); }));
  EXPECT_NE(*std::ranges::max_element(by_point), *std::ranges::min_element(by_point));
}

// The engine's turns in a game against itself from a book-like opening, and the ball's point
// after its first turn from the start.
struct Game {
  std::vector<std::string> turns;
  int first_ball = -1;
};

Game play(const PolicyNet* policy, int turns, double share = MctsSettings{}.policy_share) {
  MctsSettings settings;
  settings.max_iterations = 200;
  settings.value_net = ValueNet::builtin();
  settings.policy_net = policy;
  settings.policy_share = share;
  Game out;
  {
    Mcts mcts(settings);
    State s = State::start();
    EXPECT_TRUE(play_turn(s, mcts.choose(s).turn));
    out.first_ball = s.ball();
  }
  Mcts mcts(settings);
  State s = walk(State::start(), {0, 1, 2, 3});
  for (int i = 0; i < turns && !s.over(); ++i) {
    const TurnChoice c = mcts.choose(s);
    out.turns.push_back(turn_text(c.turn) + " " + std::to_string(c.score));
    EXPECT_TRUE(play_turn(s, c.turn));
  }
  return out;
}

TEST(SoccerPolicyNet, APolicyOfZerosIsTheSearchWithout) {
  const PolicyNet zeros(kShape, {});
  const Game with = play(&zeros, 16);
  const Game without = play(nullptr, 16);
  EXPECT_EQ(with.turns, without.turns);
  EXPECT_EQ(with.first_ball, without.first_ball);
  EXPECT_NE(with.turns, play(PolicyNet::builtin(), 16).turns)
      << "the built-in policy changes the game";
}

TEST(SoccerPolicyNet, TheSearchsPriorsFollowIt) {
  // From the start, the search does not step back toward its own goal; a policy that prefers
  // the point behind the centre (as the side to move sees it) by far makes it do so.
  const Game plain = play(nullptr, 0);
  EXPECT_GE(y_of(plain.first_ball), 0);
  EXPECT_EQ(play(nullptr, 0).first_ball, plain.first_ball);
  const PolicyNet back = favouring(0, -1, 40.0f);
  EXPECT_EQ(play(&back, 0, 1.0).first_ball, point_at(0, -1));
  // Half of each prior is the policy's: still far the largest.
  EXPECT_EQ(play(&back, 0, 0.5).first_ball, point_at(0, -1));
  // None of it: the evaluations' priors alone.
  EXPECT_EQ(play(&back, 0, 0.0).first_ball, plain.first_ball);
}

}  // namespace
}  // namespace arena::soccer
