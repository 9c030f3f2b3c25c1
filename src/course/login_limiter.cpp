#include "course/login_limiter.hpp"

#include <algorithm>
#include <cstdint>

namespace arena::course {

std::chrono::seconds LoginLimiter::wait_for(const Count& c, Clock::time_point now) const {
  if (c.failures < free_failures_) return std::chrono::seconds(0);
  const int doublings = std::min(c.failures - free_failures_, 12);
  const auto delay =
      std::min(std::chrono::seconds(std::int64_t{5} << doublings), std::chrono::seconds(3600));
  const auto ready = c.last + delay;
  if (now >= ready) return std::chrono::seconds(0);
  return std::chrono::ceil<std::chrono::seconds>(ready - now);
}

std::chrono::seconds LoginLimiter::wait(const std::string& login, const std::string& address) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  std::chrono::seconds longest{0};
  // An address gets more tries than a login: a class may sit behind one NAT.
  for (const auto& [key, scale] : {std::pair{"login:" + login, 1}, {"addr:" + address, 4}}) {
    const auto it = counts_.find(key);
    if (it == counts_.end()) continue;
    Count scaled = it->second;
    scaled.failures = scaled.failures / scale;
    longest = std::max(longest, wait_for(scaled, now));
  }
  return longest;
}

void LoginLimiter::failed(const std::string& login, const std::string& address) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  if (counts_.size() > 100'000) counts_.clear();  // bounded memory whatever is tried
  for (const auto& key : {"login:" + login, "addr:" + address}) {
    Count& c = counts_[key];
    ++c.failures;
    c.last = now;
  }
}

void LoginLimiter::succeeded(const std::string& login, const std::string& address) {
  std::lock_guard lock(mutex_);
  counts_.erase("login:" + login);
  counts_.erase("addr:" + address);
}

}  // namespace arena::course
