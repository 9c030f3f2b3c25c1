#pragma once
// One run of a command in the sandbox, from start to end: "run this command with these limits;
// tell me how it ended and what it used". The hand-in's build runs this way; a tournament agent
// ends this way (finish_run) after talking over the network, and a program that talks on pipes
// keeps its ChildProcess for the talking and may end the same way.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/child_process.hpp"
#include "sandbox/sandbox.hpp"

namespace arena {

// What to run, with stdin from /dev/null and stdout + stderr in a file.
struct SandboxedCommand {
  std::string command;                // run by /bin/sh -c
  std::filesystem::path working_dir;  // empty: ours
  std::filesystem::path output_file;  // empty: /dev/null
  std::vector<std::string> env;       // "NAME=value" entries added to our environment
  std::uint64_t output_cap = 0;       // >0: the file keeps only the output's last bytes
};

// How a run ended and what it used.
struct RunOutcome {
  bool by_itself = false;  // ended within its time; else it was killed then
  bool clean = false;      // by itself, with exit status 0
  std::string status;      // once ended: "exited with status 3", "killed by signal 9 (Killed)"
  std::optional<LimitBreach> breach;      // the limit of its sandbox it broke
  nlohmann::json usage;                   // AgentJail::usage_json(); null without a sandbox
  std::chrono::duration<double> wall{0};  // run_sandboxed: from its start to its end
};

// The sandbox of `spec` under `plan`, or null when the plan enforces nothing. Throws like
// AgentJail.
std::unique_ptr<AgentJail> jail_for(const SandboxPlan& plan, AgentJailSpec spec);

// Gives `child` up to `time` to end by itself, then ends every process it left (kill_group), and
// says how it ended and what it used.
RunOutcome finish_run(ChildProcess& child, std::chrono::milliseconds time);

// How long a run may go on: wall clock, and CPU time (user + system) of all its processes
// together, which needs the sandbox's cgroup (without one only the wall clock holds).
struct RunTimeLimits {
  std::chrono::milliseconds wall{0};
  std::chrono::milliseconds cpu{0};  // 0: none
};

// The breach's reason when a run used more CPU time than RunTimeLimits::cpu.
inline constexpr const char* kCpuTimeLimitReason = "cpu-time-limit";

// Runs `run` in the sandbox of `spec` under `plan` (a plain child when the plan enforces nothing)
// until it ends, its time is up, or it breaks a limit: a broken limit ends it at once (a fork
// bomb that keeps its processes alive would otherwise run until its time is up). Throws
// std::runtime_error when it cannot start.
RunOutcome run_sandboxed(SandboxedCommand run, const SandboxPlan& plan, AgentJailSpec spec,
                         RunTimeLimits limits);

}  // namespace arena
