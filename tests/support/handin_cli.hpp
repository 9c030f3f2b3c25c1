#pragma once
// `arena handin check ...` run as a user runs it, for end-to-end tests: its exit status, output
// and verdict line. Bad usage is exit 2, a rejection 1, an acceptance 0.
#include <chrono>
#include <string>
#include <vector>

#include "process.hpp"

namespace arena::testing {

struct HandinVerdict {
  int exit = -1;  // -1: still running at the deadline (then killed)
  pid_t pid = -1;
  std::string out, err, last_line;
  double seconds = 0;
};

// Runs `prefix... ARENA_BINARY handin check args...`; `prefix` is a wrapper such as prlimit
// that ends by exec'ing arena (so that `pid` stays arena's).
inline HandinVerdict run_handin_check(const std::vector<std::string>& args,
                                      std::chrono::seconds timeout,
                                      const std::vector<std::string>& prefix = {}) {
  std::vector<std::string> argv = prefix;
  argv.insert(argv.end(), {ARENA_BINARY, "handin", "check"});
  argv.insert(argv.end(), args.begin(), args.end());
  const auto began = std::chrono::steady_clock::now();
  Process p(argv);
  HandinVerdict v;
  v.pid = p.pid();
  v.exit = p.wait(timeout).value_or(-1);
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  v.out = p.out();
  v.err = p.err();
  std::string trimmed = v.out;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  const auto nl = trimmed.rfind('\n');
  v.last_line = trimmed.substr(nl == std::string::npos ? 0 : nl + 1);
  return v;
}

}  // namespace arena::testing
