#include "sandbox/sandboxed_run.hpp"

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

RunOutcome run_sandboxed(SandboxedCommand run, const SandboxPlan& plan, AgentJailSpec spec,
                         std::chrono::milliseconds timeout) {
  DetachedChildOptions options{std::move(run.command),
                               std::move(run.working_dir),
                               std::move(run.output_file),
                               std::move(run.env),
                               run.output_cap,
                               jail_for(plan, std::move(spec))};
  const auto began = std::chrono::steady_clock::now();
  ChildProcess child(std::move(options));
  RunOutcome out = finish_run(child, timeout);
  out.wall = std::chrono::steady_clock::now() - began;
  return out;
}

}  // namespace arena
