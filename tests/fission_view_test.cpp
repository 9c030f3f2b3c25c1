// Fission's view for the viewers (docs/viewer.md, kind "grid"): every cell, whose turn, counts.
#include <gtest/gtest.h>

#include "games/fission/view.hpp"
#include "games/registry.hpp"

namespace arena::fission {
namespace {

TEST(FissionView, TheStartPositionCellByCell) {
  const auto v = view(State::start());
  EXPECT_EQ(v["kind"], "grid");
  EXPECT_EQ(v["rows"], 8);
  EXPECT_EQ(v["cols"], 8);
  EXPECT_EQ(v["rowLabels"], nlohmann::json::parse(R"(["A","B","C","D","E","F","G","H"])"));
  EXPECT_EQ(v["colLabels"], nlohmann::json::parse(R"(["1","2","3","4","5","6","7","8"])"));
  // shared/spec/fission.md, row by row.
  const char* rows[8] = {"........", "...WB...", "..WBWB..", ".WBWBWB.",
                         ".BWBWBW.", "..BWBW..", "...BW...", "........"};
  ASSERT_EQ(v["cells"].size(), 64u);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      const char want = rows[r][c];
      EXPECT_EQ(v["cells"][r * 8 + c], want == '.' ? "" : std::string(1, want)) << r << "," << c;
    }
  EXPECT_EQ(v["toMove"], "white");
  EXPECT_EQ(v["counts"], nlohmann::json::parse(R"({"white":12,"black":12})"));
  EXPECT_EQ(v["caption"], "Stones: White 12, Black 12");
}

TEST(FissionView, IsTheRegistrysViewHook) {
  const GameInfo* g = find_game("fission");
  ASSERT_NE(g, nullptr);
  ASSERT_NE(g->view, nullptr);
  auto s = g->start({});
  ASSERT_TRUE(s->play("B4,N"));
  const auto v = g->view(*s);
  EXPECT_EQ(v["cells"][3], "W");     // A4
  EXPECT_EQ(v["cells"][8 + 3], "");  // B4
  EXPECT_EQ(v["toMove"], "black");
}

}  // namespace
}  // namespace arena::fission
