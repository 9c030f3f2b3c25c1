#pragma once
// A fixed-size transposition table, one entry per bucket, depth-preferred replacement.
#include <cstdint>
#include <vector>

namespace arena {

enum class Bound : std::uint8_t { None, Exact, Lower, Upper };

struct TtEntry {
  std::uint64_t key = 0;
  std::int32_t score = 0;
  std::uint32_t move_key = 0;
  std::int16_t depth = -1;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  void resize(std::size_t megabytes) {
    std::size_t n = 1;
    while (n * 2 * sizeof(TtEntry) <= megabytes * 1024 * 1024) n *= 2;
    table_.assign(n, TtEntry{});
    mask_ = n - 1;
  }
  void clear() { table_.assign(table_.size(), TtEntry{}); }
  void new_search() { ++generation_; }

  const TtEntry* probe(std::uint64_t key) const {
    const TtEntry& e = table_[key & mask_];
    return e.bound != Bound::None && e.key == key ? &e : nullptr;
  }

  void store(std::uint64_t key, int depth, int score, Bound bound, std::uint32_t move_key) {
    TtEntry& e = table_[key & mask_];
    if (e.key != key && e.generation == generation_ && e.depth > depth) return;
    e = TtEntry{key, score, move_key, static_cast<std::int16_t>(depth), bound, generation_};
  }

 private:
  std::vector<TtEntry> table_;
  std::size_t mask_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace arena
