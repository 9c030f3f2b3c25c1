#pragma once
// The Nine Men's Morris board (shared/spec/morris.md): 24 points, their adjacency and the 16
// mills, as one bit per point in a 32-bit mask. Point index = position in kPointNames, which is
// the course State's `positions` array order, so the wire code can map indices directly.
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace arena::morris {

using Points = std::uint32_t;  // bit i = point i

inline constexpr int kPoints = 24;
inline constexpr Points kAllPoints = (Points{1} << kPoints) - 1;
inline constexpr std::uint8_t kNoPoint = 0xFF;

inline constexpr std::array<std::string_view, kPoints> kPointNames = {
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3",
    "d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"};

constexpr Points point_bit(int p) {
  return Points{1} << p;
}

// Index of a point name ("a1".."g7", lower case as the course writes them).
constexpr std::optional<int> point_index(std::string_view name) {
  for (int i = 0; i < kPoints; ++i)
    if (kPointNames[i] == name) return i;
  return std::nullopt;
}

namespace detail {

constexpr int must_index(std::string_view name) {
  const auto i = point_index(name);
  return i ? *i : -1;  // -1 would make the table construction fail to compile
}

// The 32 lines of the spec's adjacency list.
inline constexpr std::array<std::array<std::string_view, 2>, 32> kEdges = {{
    {"a1", "d1"}, {"d1", "g1"}, {"a1", "a4"}, {"a4", "a7"}, {"a7", "d7"}, {"d7", "g7"},
    {"g7", "g4"}, {"g4", "g1"}, {"b2", "d2"}, {"d2", "f2"}, {"b2", "b4"}, {"b4", "b6"},
    {"b6", "d6"}, {"d6", "f6"}, {"f6", "f4"}, {"f4", "f2"}, {"c3", "d3"}, {"d3", "e3"},
    {"c3", "c4"}, {"c4", "c5"}, {"c5", "d5"}, {"d5", "e5"}, {"e5", "e4"}, {"e4", "e3"},
    {"a4", "b4"}, {"b4", "c4"}, {"e4", "f4"}, {"f4", "g4"}, {"d1", "d2"}, {"d2", "d3"},
    {"d5", "d6"}, {"d6", "d7"},
}};

inline constexpr std::array<std::array<std::string_view, 3>, 16> kMillNames = {{
    {"a1", "d1", "g1"},
    {"b2", "d2", "f2"},
    {"c3", "d3", "e3"},
    {"a4", "b4", "c4"},
    {"e4", "f4", "g4"},
    {"c5", "d5", "e5"},
    {"b6", "d6", "f6"},
    {"a7", "d7", "g7"},
    {"a1", "a4", "a7"},
    {"b2", "b4", "b6"},
    {"c3", "c4", "c5"},
    {"d1", "d2", "d3"},
    {"d5", "d6", "d7"},
    {"e3", "e4", "e5"},
    {"f2", "f4", "f6"},
    {"g1", "g4", "g7"},
}};

struct Tables {
  std::array<Points, kPoints> adjacent{};
  std::array<Points, 16> mills{};
  std::array<std::array<Points, 2>, kPoints> mills_of{};  // the two mills through each point
};

constexpr Tables make_tables() {
  Tables t;
  for (const auto& [a, b] : kEdges) {
    t.adjacent[must_index(a)] |= point_bit(must_index(b));
    t.adjacent[must_index(b)] |= point_bit(must_index(a));
  }
  std::array<int, kPoints> seen{};
  for (int m = 0; m < 16; ++m) {
    for (const auto name : kMillNames[m]) t.mills[m] |= point_bit(must_index(name));
    for (const auto name : kMillNames[m]) {
      const int p = must_index(name);
      t.mills_of[p][seen[p]++] = t.mills[m];
    }
  }
  return t;
}

}  // namespace detail

inline constexpr detail::Tables kTables = detail::make_tables();
inline constexpr const std::array<Points, kPoints>& kAdjacent = kTables.adjacent;
inline constexpr const std::array<Points, 16>& kMills = kTables.mills;
inline constexpr const std::array<std::array<Points, 2>, kPoints>& kMillsOf = kTables.mills_of;

// Every point of `own` that stands in a complete mill of `own`.
constexpr Points in_mills(Points own) {
  Points out = 0;
  for (const Points m : kMills)
    if ((own & m) == m) out |= m;
  return out;
}

// Whether `own` (which includes point p) has a complete mill through p.
constexpr bool mill_through(Points own, int p) {
  return (own & kMillsOf[p][0]) == kMillsOf[p][0] || (own & kMillsOf[p][1]) == kMillsOf[p][1];
}

// Points adjacent to at least one point of `b`.
constexpr Points neighbours(Points b) {
  Points out = 0;
  while (b) {
    out |= kAdjacent[std::countr_zero(b)];
    b &= b - 1;
  }
  return out;
}

}  // namespace arena::morris
