#include <gtest/gtest.h>

#include "games/fission/state.hpp"
#include "search/perft.hpp"

namespace arena::fission {
namespace {

TEST(FissionPerft, StartPosition) {
  const State s = State::start();
  EXPECT_EQ(perft(s, 1), 26u);
  EXPECT_EQ(perft(s, 2), 728u);
  EXPECT_EQ(perft(s, 3), 22540u);
}

}  // namespace
}  // namespace arena::fission
