#pragma once
// Failed logins, counted per login and per client address: after a few failures each further try
// waits longer (5 s, doubling up to an hour), so guessing a password takes years while a student
// who mistypes waits seconds. In memory: a restart forgives, which costs an attacker a restart they
// cannot cause.
#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace arena::course {

class LoginLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit LoginLimiter(int free_failures = 5) : free_failures_(free_failures) {}

  // How long the caller must still wait before trying (zero: may try now).
  std::chrono::seconds wait(const std::string& login, const std::string& address);
  void failed(const std::string& login, const std::string& address);
  void succeeded(const std::string& login, const std::string& address);

 private:
  struct Count {
    int failures = 0;
    Clock::time_point last{};
  };
  int free_failures_;
  std::mutex mutex_;
  std::map<std::string, Count> counts_;  // "login:NAME" and "addr:ADDRESS"

  std::chrono::seconds wait_for(const Count& c, Clock::time_point now) const;
};

}  // namespace arena::course
