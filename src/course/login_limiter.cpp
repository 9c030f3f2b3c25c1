#include "course/login_limiter.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace arena::course {
namespace {

// The counts a try touches, each with how many more failures it forgives than a login's own.
std::array<std::pair<std::string, int>, 3> keys(const std::string& login,
                                                const std::string& address) {
  return {{{"pair:" + login + "@" + address, 1}, {"addr:" + address, 4}, {"login:" + login, 10}}};
}

}  // namespace

std::chrono::seconds LoginLimiter::wait_for(const Count& c, int scale,
                                            Clock::time_point now) const {
  const int failures = c.failures / scale;
  if (failures < free_failures_) return std::chrono::seconds(0);
  const int doublings = std::min(failures - free_failures_, 12);
  const auto delay =
      std::min(std::chrono::seconds(std::int64_t{5} << doublings), std::chrono::seconds(3600));
  const auto ready = c.last + delay;
  if (now >= ready) return std::chrono::seconds(0);
  return std::chrono::ceil<std::chrono::seconds>(ready - now);
}

std::chrono::seconds LoginLimiter::begin(const std::string& login, const std::string& address) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  std::chrono::seconds longest{0};
  for (const auto& [key, scale] : keys(login, address))
    if (const auto it = counts_.find(key); it != counts_.end())
      longest = std::max(longest, wait_for(it->second, scale, now));
  if (longest.count() == 0 && !trying_.insert(login).second) longest = std::chrono::seconds(1);
  return longest;
}

void LoginLimiter::finish(const std::string& login, const std::string& address, bool succeeded) {
  std::lock_guard lock(mutex_);
  trying_.erase(login);
  if (succeeded) {
    counts_.erase("pair:" + login + "@" + address);
    return;
  }
  const auto now = Clock::now();
  if (counts_.size() > 100'000) counts_.clear();  // bounded memory whatever is tried
  for (const auto& [key, scale] : keys(login, address)) {
    Count& c = counts_[key];
    ++c.failures;
    c.last = now;
  }
}

}  // namespace arena::course
