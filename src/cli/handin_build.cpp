#include "cli/handin_build.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <deque>
#include <fstream>

#include "sandbox/sandboxed_run.hpp"
#include "tournament/served_match.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

// The sandbox's unprivileged user must own what the build writes into.
void give_to_agent_user(const fs::path& root, const SandboxPlan& plan) {
  if (!plan.uses(Protection::User) || !plan.machine.root) return;
  const uid_t uid = plan.machine.agent_uid;
  const gid_t gid = plan.machine.agent_gid;
  if (::lchown(root.c_str(), uid, gid) != 0)
    throw std::runtime_error("cannot give " + root.string() + " to the sandbox's user");
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (::lchown(it->path().c_str(), uid, gid) != 0)
      throw std::runtime_error("cannot give " + it->path().string() + " to the sandbox's user");
}

// "exited with status 2" -> 2; anything else (a signal) -> -1.
int exit_code_of(const std::string& status) {
  const std::string prefix = "exited with status ";
  if (status.rfind(prefix, 0) != 0) return -1;
  try {
    return std::stoi(status.substr(prefix.size()));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

BuildOutcome run_build(const std::vector<std::string>& argv, const fs::path& root,
                       const fs::path& log, const BuildLimits& limits, SandboxMode mode) {
  // No network at all: a build fetches nothing the hand-in does not hold.
  const SandboxPlan plan = plan_sandbox(mode, AgentChannel::Pipes);
  give_to_agent_user(root, plan);
  AgentJailSpec spec;
  spec.limits.memory_bytes = limits.memory_bytes;
  spec.limits.max_processes = limits.max_processes;
  spec.limits.log_bytes = limits.log_bytes;
  spec.own_dir = root;
  spec.writable = {root};
  spec.label = "build";
  // Whatever the build left running (a daemon, a forked loop) ends with it.
  const RunOutcome run =
      run_sandboxed({tournament::exec_command(argv), root, log, {}, limits.log_bytes}, plan,
                    std::move(spec), {limits.timeout, limits.cpu_time});
  BuildOutcome out;
  out.seconds = run.wall.count();
  out.status = run.by_itself ? run.status : "still running";
  if (!run.by_itself) {
    out.failure = fmt::format("the build took longer than {} s", limits.timeout.count());
  } else if (run.breach && run.breach->reason == kCpuTimeLimitReason) {
    out.failure = fmt::format("the build used more than {} s of CPU time", limits.cpu_time.count());
  } else if (run.breach && run.breach->reason == "memory-limit") {
    out.failure = "the build broke its memory limit";
  } else if (run.breach) {
    out.failure = "the build broke its process limit";
  } else if (!run.clean) {
    const int code = exit_code_of(out.status);
    out.failure = code >= 0 ? fmt::format("the build failed (exit {})", code)
                            : fmt::format("the build failed ({})", out.status);
  }
  out.ok = out.failure.empty();
  return out;
}

std::string last_lines(const fs::path& file, std::size_t n) {
  std::ifstream in(file);
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (lines.size() > n) lines.pop_front();
  }
  std::string out;
  for (const auto& l : lines) out += "  | " + l + "\n";
  return out;
}

}  // namespace arena::cli
