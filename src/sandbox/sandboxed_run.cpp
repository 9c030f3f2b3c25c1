#include "sandbox/sandboxed_run.hpp"

#include <fmt/format.h>

#include <thread>
#include <utility>

namespace arena {

std::unique_ptr<AgentJail> jail_for(const SandboxPlan& plan, AgentJailSpec spec) {
  if (!plan.any()) return nullptr;
  return std::make_unique<AgentJail>(plan, std::move(spec));
}

RunOutcome finish_run(ChildProcess& child, std::chrono::milliseconds time) {
  RunOutcome out;
  out.by_itself = child.wait_exit(time);
  // Asked before the kill: a child still running now is not clean, whatever the kill makes it.
  out.clean = child.exited_cleanly();
  child.kill_group();
  out.status = child.exit_description();
  // After the kill: nothing of it runs any more, so these are its final counts.
  if (AgentJail* jail = child.jail()) {
    out.breach = jail->breach();
    out.usage = jail->usage_json();
  }
  return out;
}

namespace {

// The limit `jail` has broken so far, if any: its own (memory, processes) or the CPU time.
std::optional<LimitBreach> broken_limit(const AgentJail& jail, std::chrono::milliseconds cpu) {
  if (auto breach = jail.breach()) return breach;
  if (cpu.count() <= 0) return std::nullopt;
  const auto used = jail.cpu();
  if (!used || *used <= cpu) return std::nullopt;
  return LimitBreach{kCpuTimeLimitReason,
                     fmt::format("used {:.1f} s of CPU time, over its limit of {:.1f} s",
                                 static_cast<double>(used->count()) / 1e6,
                                 static_cast<double>(cpu.count()) / 1e3)};
}

}  // namespace

RunOutcome run_sandboxed(SandboxedCommand run, const SandboxPlan& plan, AgentJailSpec spec,
                         RunTimeLimits limits) {
  DetachedChildOptions options{std::move(run.command),
                               std::move(run.working_dir),
                               std::move(run.output_file),
                               std::move(run.env),
                               run.output_cap,
                               jail_for(plan, std::move(spec))};
  const auto began = std::chrono::steady_clock::now();
  const auto deadline = began + limits.wall;
  ChildProcess child(std::move(options));
  std::optional<LimitBreach> breach;
  // Asked every 100 ms: reading the cgroup's counters costs a few system calls.
  for (int polls = 1; !child.ended(); ++polls) {
    if (child.jail() && polls % 5 == 0 && (breach = broken_limit(*child.jail(), limits.cpu))) break;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  RunOutcome out = finish_run(child, std::chrono::milliseconds(0));
  if (breach) {
    out.by_itself = true;  // it ended by breaking the limit, not by running out of time
    out.clean = false;
    out.breach = breach;
  }
  out.wall = std::chrono::steady_clock::now() - began;
  return out;
}

}  // namespace arena
