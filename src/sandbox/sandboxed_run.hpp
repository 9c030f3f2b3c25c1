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

// Runs `run` in the sandbox of `spec` under `plan` (a plain child when the plan enforces nothing)
// for at most `timeout`. Throws std::runtime_error when it cannot start.
RunOutcome run_sandboxed(SandboxedCommand run, const SandboxPlan& plan, AgentJailSpec spec,
                         std::chrono::milliseconds timeout);

}  // namespace arena
