#include "tournament/schedule.hpp"

#include <numeric>
#include <utility>

#include "core/rng.hpp"

namespace arena::tournament {

std::vector<Pairing> double_round_robin(int participants, std::uint64_t seed) {
  std::vector<Pairing> out;
  if (participants < 2) return out;
  // The draw: who sits at which table position.
  Rng rng(seed);
  std::vector<int> seat(static_cast<std::size_t>(participants));
  std::iota(seat.begin(), seat.end(), 0);
  for (std::size_t i = seat.size() - 1; i > 0; --i) std::swap(seat[i], seat[rng.below(i + 1)]);
  const int bye = -1;
  if (participants % 2 == 1) seat.push_back(bye);
  const int n = static_cast<int>(seat.size());
  const int rounds = n - 1;
  // Circle method: position 0 stays, the others rotate one step per round.
  std::vector<std::pair<int, int>> first_leg;  // (white, black), round by round
  std::vector<int> round_of;
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < n / 2; ++k) {
      const int a = k == 0 ? 0 : 1 + (r + k - 1) % (n - 1);
      const int b = 1 + (r + n - 2 - k) % (n - 1);
      int white = seat[static_cast<std::size_t>(a)], black = seat[static_cast<std::size_t>(b)];
      if (white == bye || black == bye) continue;
      // Alternate colours so nobody has White in every first-leg game.
      if ((k == 0 && r % 2 == 1) || (k > 0 && k % 2 == 1)) std::swap(white, black);
      first_leg.emplace_back(white, black);
      round_of.push_back(r + 1);
    }
  }
  Rng seeds(seed ^ 0x7A3C5E91D2B4F608ULL);
  for (int leg = 0; leg < 2; ++leg) {
    for (std::size_t i = 0; i < first_leg.size(); ++i) {
      Pairing p;
      p.index = static_cast<int>(out.size());
      p.round = round_of[i] + leg * rounds;
      p.white = leg == 0 ? first_leg[i].first : first_leg[i].second;
      p.black = leg == 0 ? first_leg[i].second : first_leg[i].first;
      p.seed = seeds.next();
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace arena::tournament
