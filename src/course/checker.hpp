#pragma once
// Checks hand-ins as they come, `parallel` at a time (or hands them to workers as jobs): each runs
// as `arena handin check` (or `handin grade` where the game has the course's grading) in its own
// process, so nothing a hand-in does can reach the server. Its stage lines move the hand-in through
// building and checking; its verdict.json, smoke games and logs are stored in one transaction at
// the end.
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "course/file_store.hpp"
#include "course/store.hpp"

namespace arena::course {

struct CheckerOptions {
  std::filesystem::path arena_binary;  // this program
  std::filesystem::path work_dir;      // DIR/work: one folder per hand-in
  std::string game;
  bool grade = false;      // `arena handin grade` instead of check
  std::string extra_args;  // more options for the check (shell words), e.g. "--smoke-plies 20"
  int parallel = 1;        // checks at once
  // Workers check the hand-ins (as "check" jobs, the server's own worker among them) instead
  // of this server's checker.
  bool on_workers = false;
  std::function<void()> on_verdict;  // called after each verdict is stored (the ladder looks)
};

class Checker {
 public:
  Checker(Store& store, FileStore& files, CheckerOptions options);
  ~Checker();  // stops: the check under way is killed (and redone at the next start)
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  const CheckerOptions& options() const { return options_; }
  void start();
  // Something was queued: look now rather than at the next poll.
  void wake();
  void stop();

 private:
  Store& store_;
  FileStore& files_;
  CheckerOptions options_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
  bool woken_ = false;

  void loop();
  void check(const Submission& s);
};

// The copy of the uploaded file that the check reads: the original name's archive suffix (a .jar
// stays a jar), nothing else of it.
std::string checked_file_name(const std::string& uploaded_name);

}  // namespace arena::course
