#pragma once
// A fixed-size transposition table, one entry per bucket, depth-preferred replacement. Several
// search threads may share it: an entry is two relaxed atomic words, the data and the key xor the
// data, so a torn write (one word from each of two writers) fails the key check on the next probe
// instead of returning another position's data (the "lockless hashing" of Hyatt and Mann).
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

namespace arena {

enum class Bound : std::uint8_t { None, Exact, Lower, Upper };

struct TtEntry {
  std::int32_t score = 0;
  std::uint32_t move_key = 0;  // moves' keys are below 2^16 in every game
  int depth = -1;
  Bound bound = Bound::None;  // None: only the move is known
  bool current = false;       // stored in this search (since the last new_search())
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  void resize(std::size_t megabytes) {
    std::size_t n = 1;
    while (n * 2 * sizeof(Slot) <= megabytes * 1024 * 1024) n *= 2;
    slots_ = std::make_unique<Slot[]>(n);
    size_ = n;
    mask_ = n - 1;
  }
  void clear() {
    for (std::size_t i = 0; i < size_; ++i) {
      slots_[i].check.store(0, std::memory_order_relaxed);
      slots_[i].data.store(0, std::memory_order_relaxed);
    }
  }
  // A search's entries are told from older ones by a 14-bit generation: one that survived 16,384
  // searches untouched could pass for the current search's.
  void new_search() { generation_ = (generation_ + 1) & kGenerationMask; }
  std::size_t slots() const { return size_; }

  std::optional<TtEntry> probe(std::uint64_t key) const {
    const Slot& s = slots_[key & mask_];
    const std::uint64_t data = s.data.load(std::memory_order_relaxed);
    if ((s.check.load(std::memory_order_relaxed) ^ data) != key || data == 0) return std::nullopt;
    TtEntry e = unpack(data);
    e.current = generation_of(data) == generation_;
    return e;
  }

  void store(std::uint64_t key, int depth, int score, Bound bound, std::uint32_t move_key) {
    Slot& s = slots_[key & mask_];
    const std::uint64_t old = s.data.load(std::memory_order_relaxed);
    const bool same_key = (s.check.load(std::memory_order_relaxed) ^ old) == key;
    if (old != 0 && !same_key && generation_of(old) == generation_ && unpack(old).depth > depth)
      return;
    const std::uint64_t data = pack(depth, score, bound, move_key);
    s.data.store(data, std::memory_order_relaxed);
    s.check.store(key ^ data, std::memory_order_relaxed);
  }

 private:
  struct Slot {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};  // 0: empty (every store has a depth of at least 1)
  };

  static constexpr std::uint16_t kGenerationMask = (1 << 14) - 1;
  static constexpr int kScoreBits = 24;  // scores stay within +-2^23 (search.hpp's kInfinity)

  // score 24 bits | move key 16 | depth + 1 8 | bound 2 | generation 14.
  std::uint64_t pack(int depth, int score, Bound bound, std::uint32_t move_key) const {
    return (static_cast<std::uint32_t>(score) & ((1u << kScoreBits) - 1)) |
           (std::uint64_t{move_key & 0xFFFF} << 24) |
           (std::uint64_t{static_cast<std::uint8_t>(depth + 1)} << 40) |
           (std::uint64_t{static_cast<std::uint8_t>(bound)} << 48) |
           (std::uint64_t{generation_} << 50);
  }
  static TtEntry unpack(std::uint64_t data) {
    const auto move = static_cast<std::uint32_t>((data >> 24) & 0xFFFF);
    // The score's 24 bits moved to the top of 32 and back: the sign comes with them.
    const auto score = static_cast<std::int32_t>(static_cast<std::uint32_t>(data) << 8) >> 8;
    return TtEntry{score, move == 0xFFFF ? 0xFFFFFFFFu : move,
                   static_cast<int>((data >> 40) & 0xFF) - 1, static_cast<Bound>((data >> 48) & 3)};
  }
  static std::uint16_t generation_of(std::uint64_t data) {
    return static_cast<std::uint16_t>(data >> 50);
  }

  std::unique_ptr<Slot[]> slots_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
  std::uint16_t generation_ = 0;
};

}  // namespace arena
