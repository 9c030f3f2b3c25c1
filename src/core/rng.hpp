#pragma once
// Small deterministic random generators: same seed, same game on every machine.
#include <cstdint>

namespace arena {

// SplitMix64: used for Zobrist keys (at compile time) and to seed players.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return splitmix64(state_); }
  // Uniform integer in [0, bound); bound > 0. Rejection keeps it unbiased.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    std::uint64_t x;
    do {
      x = next();
    } while (x >= limit);
    return x % bound;
  }

 private:
  std::uint64_t state_;
};

}  // namespace arena
