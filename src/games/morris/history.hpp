#pragma once
// The positions seen since the last irreversible move, for the repetition rule ("when a position
// occurs a second time, the game is a draw"). A placement or a removal changes the pieces in hand
// or on the board for good, so no earlier position can come back and the history restarts there.
//
// States are copied at every node of the search, so the recent positions live inline and only
// the used part is copied. When the inline part is full (more than kInline reversible plies in a
// row, which real games rarely reach) it moves into a shared, sorted, immutable vector: copies
// then share it instead of copying it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace arena::morris {

class History {
 public:
  static constexpr int kInline = 96;

  History() = default;
  History(const History& o) : older_(o.older_), count_(o.count_), digest_(o.digest_) {
    std::copy_n(o.recent_.begin(), count_, recent_.begin());
  }
  History& operator=(const History& o) {
    if (this != &o) {
      older_ = o.older_;
      count_ = o.count_;
      digest_ = o.digest_;
      std::copy_n(o.recent_.begin(), count_, recent_.begin());
    }
    return *this;
  }

  // Starts over with one position (after an irreversible move, or a position set up from outside).
  void reset(std::uint64_t key) {
    older_.reset();
    recent_[0] = key;
    count_ = 1;
    digest_ = scramble(key);
  }

  bool contains(std::uint64_t key) const {
    for (int i = 0; i < count_; ++i)
      if (recent_[i] == key) return true;
    return older_ && std::binary_search(older_->begin(), older_->end(), key);
  }

  void push(std::uint64_t key) {
    if (count_ == kInline) spill();
    recent_[count_++] = key;
    digest_ ^= scramble(key);
  }

  std::size_t size() const { return count_ + (older_ ? older_->size() : 0); }
  // Identifies the set of positions (not their order): what the rest of the game depends on.
  std::uint64_t digest() const { return digest_; }
  // The digest of a history that holds only this position.
  static constexpr std::uint64_t digest_of(std::uint64_t key) { return scramble(key); }

 private:
  std::shared_ptr<const std::vector<std::uint64_t>> older_;  // sorted
  // Only [0, count_) is meaningful; left uninitialised so that copies stay cheap.
  std::array<std::uint64_t, kInline> recent_;
  int count_ = 0;
  std::uint64_t digest_ = 0;

  static constexpr std::uint64_t scramble(std::uint64_t key) {
    std::uint64_t z = key * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ULL;
    return z ^ (z >> 32);
  }

  void spill() {
    auto merged = std::make_shared<std::vector<std::uint64_t>>();
    merged->reserve(size());
    if (older_) merged->assign(older_->begin(), older_->end());
    merged->insert(merged->end(), recent_.begin(), recent_.begin() + count_);
    std::sort(merged->begin(), merged->end());
    older_ = std::move(merged);
    count_ = 0;
  }
};

}  // namespace arena::morris
