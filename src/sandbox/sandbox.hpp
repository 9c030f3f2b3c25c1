#pragma once
// The sandbox every agent program arena starts runs in (tournament agents, Paper Soccer bots,
// hand-in builds); sandbox/sandboxed_run.hpp runs a command in it from start to end.
// Built on the kernel's own mechanisms through well-kept tools, as the judges that universities
// trust do (DOMjudge's runguard, IOI's isolate):
//   - a cgroup per agent (sandbox/cgroup.hpp): memory of the whole process tree, its own cores,
//     a bound on its tasks, its CPU time and peak memory;
//   - bubblewrap (bwrap): mount, PID, IPC and UTS namespaces: the system read-only, the agent's
//     own folder read-only, a private scratch folder and /tmp, nothing else of the machine's files;
//   - a network namespace per game (sandbox/game_network.hpp) or none at all for a bot that talks
//     on stdin/stdout;
//   - setpriv (util-linux): an unprivileged user when arena runs as root.
// The output cap (sandbox/capped_log.hpp) needs none of these. See docs/sandbox.md.
#include <sys/types.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/cgroup.hpp"

namespace arena {

enum class SandboxMode { Auto, Required, Off };
std::string_view sandbox_mode_key(SandboxMode m);  // "auto", "required", "off"
std::optional<SandboxMode> sandbox_mode_from_key(std::string_view key);

inline constexpr std::uint64_t kMiB = 1024 * 1024;

// The limits of one agent. Defaults: the Bologna course's 2 GB of RAM (the other courses set
// none; the same bound fits a JVM with default flags), one core, 128 tasks, a 4 MB log.
struct AgentLimits {
  std::uint64_t memory_bytes = 2048 * kMiB;
  int cpus = 1;
  int max_processes = 128;
  std::uint64_t log_bytes = 4 * kMiB;
};
nlohmann::json to_json(const AgentLimits& l);
AgentLimits agent_limits_from_json(const nlohmann::json& j);

enum class Protection { Memory, Cpu, Processes, Files, Network, User };
inline constexpr std::array<Protection, 6> kAllProtections = {
    Protection::Memory, Protection::Cpu,     Protection::Processes,
    Protection::Files,  Protection::Network, Protection::User};
std::string_view protection_key(Protection p);  // "memory", "cpu", "processes", ...
// What it means, for people: "memory limit per agent (cgroup v1)".
std::string protection_title(Protection p);

// What the machine can enforce, and why not where it cannot.
struct SandboxSupport {
  std::array<bool, 6> on{};
  std::array<std::string, 6> why_not;
  CgroupSupport cgroups;
  std::string bwrap;    // path of bubblewrap, "" if missing
  std::string setpriv;  // path of setpriv, "" if missing
  bool root = false;
  uid_t agent_uid = 0;  // when root: the unprivileged user agents run as
  gid_t agent_gid = 0;
  std::string agent_user;

  bool has(Protection p) const { return on[static_cast<std::size_t>(p)]; }
};

// Where agents talk to their referee: a course server over TCP (each game gets a network
// namespace of its own) or stdin/stdout (no network at all).
enum class AgentChannel { Tcp, Pipes };

// Probes this machine once per channel (cgroups, bwrap, setpriv, namespaces) and keeps the answer.
const SandboxSupport& probe_sandbox(AgentChannel channel);

// The sandbox of an event or a referee run: the mode asked for and what the machine gives.
struct SandboxPlan {
  SandboxMode mode = SandboxMode::Off;
  AgentChannel channel = AgentChannel::Tcp;
  SandboxSupport machine;

  bool uses(Protection p) const { return mode != SandboxMode::Off && machine.has(p); }
  bool any() const;
  // Protections in force, as keys.
  std::vector<std::string> in_force() const;
};

// Resolves a mode on this machine. Required with a protection missing throws
// std::runtime_error naming each one and why.
SandboxPlan plan_sandbox(SandboxMode mode, AgentChannel channel);
// One warning naming each protection that is missing and why ("" when none is, or mode off).
std::string sandbox_warning(const SandboxPlan& plan);
// "memory, cpu, processes, files, network, user" or "off", for the start of an event.
std::string sandbox_summary(const SandboxPlan& plan);
// Every protection with on/off and the reason, for `arena sandbox --check`.
std::string sandbox_check_text(const SandboxSupport& tcp, const SandboxSupport& pipes);

// What one agent is given.
struct AgentJailSpec {
  AgentLimits limits;
  std::vector<int> cpus;                        // its cores; empty: not pinned
  std::filesystem::path own_dir;                // read-only, its working directory
  std::vector<std::filesystem::path> readable;  // more it may read (the arena binary)
  std::vector<std::filesystem::path> hidden;    // never visible (other agents, the event)
  std::vector<std::filesystem::path> writable;  // it may write there (a hand-in's build)
  std::string label;                            // in the cgroup's name: "white", "p1"...
};
nlohmann::json to_json(const AgentJailSpec& s);
AgentJailSpec agent_jail_spec_from_json(const nlohmann::json& j);

// The jails of a referee's two bots, in a file a tournament hands to `arena soccer-referee
// --sandbox-config`. Reading throws std::runtime_error naming the file.
void write_bot_jails(const std::filesystem::path& file, const AgentJailSpec& first,
                     const AgentJailSpec& second);
std::pair<AgentJailSpec, AgentJailSpec> read_bot_jails(const std::filesystem::path& file);

// A limit the agent broke, as the record's reason code and a sentence.
struct LimitBreach {
  std::string reason;  // "memory-limit" or "too-many-processes"
  std::string detail;
};

// One agent's sandbox for one run of its program: made before the program starts, gone after.
class AgentJail {
 public:
  // Throws std::runtime_error when a protection in the plan cannot be set up for this agent.
  AgentJail(const SandboxPlan& plan, AgentJailSpec spec);
  ~AgentJail();
  AgentJail(const AgentJail&) = delete;
  AgentJail& operator=(const AgentJail&) = delete;

  // The program and environment that run `/bin/sh -c command` inside, with `env` added.
  struct Exec {
    std::vector<std::string> argv;
    std::vector<std::string> env;  // the whole environment ("NAME=value")
  };
  Exec exec(const std::string& command, const std::vector<std::string>& env) const;
  // The cgroup.procs files the child joins before it execs (empty without cgroups).
  std::vector<std::filesystem::path> join_files() const;
  const std::vector<int>& cpus() const { return spec_.cpus; }
  const std::filesystem::path& working_dir() const { return spec_.own_dir; }

  // CPU time (user + system) and user CPU of everything the agent ran; nullopt without cgroup.
  std::optional<std::chrono::microseconds> cpu() const;
  std::optional<std::chrono::microseconds> user_cpu() const;
  // The limit it broke so far, if any.
  std::optional<LimitBreach> breach() const;
  // Kills every process of the agent (also those that left its process group).
  void kill_all();
  // Peak memory, CPU, and the limit broken, for the game record.
  nlohmann::json usage_json() const;
  const AgentLimits& limits() const { return spec_.limits; }

 private:
  SandboxPlan plan_;
  AgentJailSpec spec_;
  std::unique_ptr<AgentCgroup> cgroup_;
};

// The record's "sandbox" block: the protections and limits in force for a game.
nlohmann::json sandbox_record(const SandboxPlan& plan, const AgentLimits& white,
                              const AgentLimits& black);

// The cores of the machine this process may use, in order.
std::vector<int> usable_cpus();

// How much of a core a busy thread gets while another core is kept busy too (1.0 on real
// cores; much less in a virtual machine whose host caps its CPU below its core count, where
// pinning cannot keep agents from slowing each other). Measured over `duration`; nullopt with a
// single core.
std::optional<double> neighbour_core_share(std::chrono::milliseconds duration);

}  // namespace arena
