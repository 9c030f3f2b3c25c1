#pragma once
// Failed logins, counted per login from one address, per address, and per login from anywhere:
// after a few failures each further try waits longer (5 s, doubling up to an hour), so guessing a
// password takes years while a student who mistypes waits seconds. A login from another address
// is slowed only after many more failures, so nobody can lock a classmate out by failing on
// purpose. One try at a time per login: parallel guesses wait their turn. In memory: a restart
// forgives, which costs an attacker a restart they cannot cause.
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace arena::course {

class LoginLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit LoginLimiter(int free_failures = 5) : free_failures_(free_failures) {}

  // Zero: the caller may try now, and the login is held until finish(). Else how long to wait.
  std::chrono::seconds begin(const std::string& login, const std::string& address);
  void finish(const std::string& login, const std::string& address, bool succeeded);

 private:
  struct Count {
    int failures = 0;
    Clock::time_point last{};
  };
  int free_failures_;
  std::mutex mutex_;
  std::map<std::string, Count> counts_;
  std::set<std::string> trying_;  // logins being checked now

  std::chrono::seconds wait_for(const Count& c, int scale, Clock::time_point now) const;
};

}  // namespace arena::course
