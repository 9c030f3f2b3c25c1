#pragma once
// A growable array kept in chunks of about 64 kB. What it holds never moves as it grows, so a
// full array never needs twice its memory (as a vector's growth would); an element is found with
// a shift and a mask; and shrinking keeps the chunks for the next growth, so that a search tree,
// cut down and filled again every turn, allocates its memory and has the kernel fault it in once.
// (A std::deque does the first but allocates and frees a 512-byte block every few elements.)
#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <vector>

namespace arena {

template <class T>
class ChunkedArray {
 public:
  static constexpr std::size_t kChunk =
      std::bit_floor(std::max(std::size_t{65536} / sizeof(T), std::size_t{1}));
  static constexpr unsigned kShift = std::countr_zero(kChunk);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The memory held, used or kept for growth.
  std::size_t capacity_bytes() const { return chunks_.size() * kChunk * sizeof(T); }

  T& operator[](std::size_t i) { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  T& back() { return (*this)[size_ - 1]; }

  void push_back(const T& value) {
    if (size_ == chunks_.size() * kChunk) chunks_.push_back(std::make_unique<T[]>(kChunk));
    (*this)[size_++] = value;
  }
  // Only ever smaller: the elements past `n` are forgotten, their chunks kept.
  void shrink_to(std::size_t n) {
    if (n < size_) size_ = n;
  }
  void clear() { size_ = 0; }
  // Gives back the chunks no element uses.
  void release_unused() { chunks_.resize((size_ + kChunk - 1) / kChunk); }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace arena
