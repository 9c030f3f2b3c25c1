// The search tree's storage: elements stay where they are as it grows, across chunks; shrinking
// keeps the memory for the next growth, and gives it back only when asked.
#include "core/chunked_array.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace arena {
namespace {

TEST(ChunkedArray, HoldsWhatItWasGivenAcrossChunks) {
  ChunkedArray<std::uint64_t> a;
  const std::size_t n = 5 * ChunkedArray<std::uint64_t>::kChunk + 3;
  for (std::size_t i = 0; i < n; ++i) a.push_back(i * 7);
  ASSERT_EQ(a.size(), n);
  const std::uint64_t* first = &a[0];
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(a[i], i * 7);
  a.push_back(1);
  EXPECT_EQ(&a[0], first) << "growing moves nothing";
  EXPECT_EQ(a.back(), 1u);
}

TEST(ChunkedArray, ShrinkingKeepsTheMemoryUntilReleased) {
  ChunkedArray<std::uint32_t> a;
  constexpr std::size_t chunk = ChunkedArray<std::uint32_t>::kChunk;
  EXPECT_GE(chunk * sizeof(std::uint32_t), 32'768u);
  EXPECT_LE(chunk * sizeof(std::uint32_t), 65'536u);
  for (std::size_t i = 0; i < 3 * chunk; ++i) a.push_back(static_cast<std::uint32_t>(i));
  const std::size_t held = a.capacity_bytes();
  EXPECT_EQ(held, 3 * chunk * sizeof(std::uint32_t));
  a.shrink_to(chunk + 1);
  EXPECT_EQ(a.size(), chunk + 1);
  EXPECT_EQ(a.capacity_bytes(), held);
  a.shrink_to(5 * chunk);  // never grows
  EXPECT_EQ(a.size(), chunk + 1);
  EXPECT_EQ(a[chunk], chunk);
  a.release_unused();
  EXPECT_EQ(a.capacity_bytes(), 2 * chunk * sizeof(std::uint32_t));
  a.clear();
  EXPECT_TRUE(a.empty());
  a.push_back(9);
  EXPECT_EQ(a[0], 9u);
  a.clear();
  a.release_unused();
  EXPECT_EQ(a.capacity_bytes(), 0u);
}

}  // namespace
}  // namespace arena
