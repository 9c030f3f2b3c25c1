// `arena sandbox --check`: what this machine can enforce on agents, before an event; and the
// sandbox options shared by the commands that start agents.
#include "sandbox/sandbox.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cli/commands.hpp"
#include "sandbox/cgroup.hpp"

namespace arena::cli {

void add_sandbox_options(CLI::App& cmd, SandboxOptions& o, const std::string& cpus_option) {
  const std::string group = "Sandbox (docs/sandbox.md)";
  cmd.add_option("--sandbox", o.mode,
                 "auto: confine every agent with what this machine allows, warning about the rest; "
                 "required: refuse to start without every protection; off: plain child processes")
      ->transform(one_of<SandboxMode>({{"auto", SandboxMode::Auto},
                                       {"required", SandboxMode::Required},
                                       {"off", SandboxMode::Off}}))
      ->default_str("auto")
      ->group(group);
  auto megabytes = [](std::uint64_t& target) {
    return [&target](double mb) { target = static_cast<std::uint64_t>(std::llround(mb * kMiB)); };
  };
  cmd.add_option_function<double>("--memory", megabytes(o.limits.memory_bytes),
                                  "Memory of each agent's whole process tree, in MB; going over "
                                  "loses the game (memory-limit)")
      ->default_str(std::to_string(o.limits.memory_bytes / kMiB))
      ->check(CLI::Range(16.0, 1048576.0))
      ->group(group);
  cmd.add_option(cpus_option, o.limits.cpus, "Cores of each agent, its own for the whole game")
      ->capture_default_str()
      ->check(CLI::Range(1, 256))
      ->group(group);
  cmd.add_option("--max-processes", o.limits.max_processes,
                 "Processes and threads each agent may run at once; more loses the game "
                 "(too-many-processes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000))
      ->group(group);
  cmd.add_option_function<double>("--log-limit", megabytes(o.limits.log_bytes),
                                  "MB of each agent's output kept (its last bytes) per game")
      ->default_str(std::to_string(o.limits.log_bytes / kMiB))
      ->check(CLI::Range(0.001, 65536.0))
      ->group(group);
}

void add_sandbox(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "sandbox",
      "What this machine can enforce on agents (memory, cores, processes, files, network, user); "
      "exit status 0 when every protection is available");
  auto check = std::make_shared<bool>(false);
  auto clean = std::make_shared<bool>(false);
  cmd->add_flag("--check", *check, "Probe the machine and print each protection (the default)");
  cmd->add_flag("--clean", *clean,
                "Remove the cgroups left by arena processes that were killed (kill -9)");
  cmd->callback([check, clean, &exit_code] {
    if (*clean) {
      const int removed = remove_stale_cgroups();
      fmt::print("removed {} cgroup folder(s) of arena processes that no longer run\n", removed);
      if (!*check) return;
    }
    const SandboxSupport& tcp = probe_sandbox(AgentChannel::Tcp);
    const SandboxSupport& pipes = probe_sandbox(AgentChannel::Pipes);
    fmt::print("{}", sandbox_check_text(tcp, pipes));
    if (const auto share = neighbour_core_share(std::chrono::milliseconds(500))) {
      fmt::print("  cores: a busy core leaves its neighbour {:.0f}% of a core{}\n", *share * 100,
                 *share >= 0.8 ? ""
                               : ": they are not independent (a virtual machine whose "
                                 "host caps its CPU?); agents on their own cores still slow "
                                 "each other here");
    }
    bool all = true;
    for (Protection p : kAllProtections) all = all && tcp.has(p) && pipes.has(p);
    exit_code = all ? 0 : 1;
  });
}

}  // namespace arena::cli
