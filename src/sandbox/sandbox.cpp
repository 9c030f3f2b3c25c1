#include "sandbox/sandbox.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/text.hpp"
#include "sandbox/agent_view.hpp"
#include "sandbox/game_network.hpp"

extern char** environ;

namespace arena {
namespace {

namespace fs = std::filesystem;

// Variables an agent inherits from arena's environment; the rest is not its business.
constexpr const char* kPassedEnv[] = {"LANG",      "LC_ALL",       "LC_CTYPE",      "TZ",
                                      "JAVA_HOME", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"};

std::size_t slot(Protection p) {
  return static_cast<std::size_t>(p);
}

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  dirs += ":/usr/bin:/usr/sbin:/bin:/sbin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty()) {
      const std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    start = end + 1;
  }
  return {};
}

// Runs argv with output captured; gives "" on exit status 0, else the first line it printed.
std::string run_check(const std::vector<std::string>& argv) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return "pipe failed";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  std::string text;
  if (rc == 0) {
    char buf[512];
    ssize_t n;
    while ((n = ::read(out[0], buf, sizeof buf)) > 0 && text.size() < 4096)
      text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  if (rc != 0) return std::string("cannot run ") + argv[0];
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  const std::string first = text.substr(0, text.find('\n'));
  return first.empty() ? fmt::format("{} failed", argv[0]) : std::string(trim(first));
}

// bwrap's namespaces without the file system view: what the probe runs.
std::vector<std::string> namespace_flags(AgentChannel channel) {
  std::vector<std::string> flags = {"--die-with-parent", "--unshare-pid", "--unshare-ipc",
                                    "--unshare-uts"};
  if (channel == AgentChannel::Pipes) flags.push_back("--unshare-net");
  if (::geteuid() != 0) flags.push_back("--unshare-user-try");
  return flags;
}

SandboxSupport probe(AgentChannel channel) {
  SandboxSupport s;
  s.root = ::geteuid() == 0;
  s.cgroups = probe_cgroups();
  const std::string cg = s.cgroups.why_not.empty() ? "" : " (" + s.cgroups.why_not + ")";
  auto set = [&](Protection p, bool on, std::string why) {
    s.on[slot(p)] = on;
    if (!on) s.why_not[slot(p)] = std::move(why);
  };
  set(Protection::Memory, s.cgroups.memory, "no memory cgroup" + cg);
  set(Protection::Cpu, s.cgroups.cpuset && s.cgroups.cpuacct,
      "no cpuset or cpu accounting cgroup" + cg);
  set(Protection::Processes, s.cgroups.pids, "no pids cgroup" + cg);

  s.bwrap = find_program("bwrap");
  std::string bwrap_error = "bubblewrap (bwrap) is not installed (Debian: apt install bubblewrap)";
  if (!s.bwrap.empty()) {
    std::vector<std::string> argv = {s.bwrap};
    for (auto& f : namespace_flags(channel)) argv.push_back(f);
    for (const char* a : {"--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"})
      argv.emplace_back(a);
    bwrap_error = run_check(argv);
    if (!bwrap_error.empty()) bwrap_error = "bubblewrap cannot make namespaces: " + bwrap_error;
  }
  set(Protection::Files, bwrap_error.empty(), bwrap_error);
  if (channel == AgentChannel::Pipes) {
    set(Protection::Network, bwrap_error.empty(), bwrap_error);
  } else {
    const std::string why = game_network_unavailable();
    set(Protection::Network, why.empty(),
        why + (s.root ? "" : " (a network namespace per game needs root)"));
  }

  s.setpriv = find_program("setpriv");
  if (!s.root) {
    set(Protection::User, true, "");
    const passwd* me = ::getpwuid(::geteuid());
    s.agent_user = me ? me->pw_name : std::to_string(::geteuid());
    s.agent_uid = ::geteuid();
    s.agent_gid = ::getegid();
  } else {
    const passwd* nobody = ::getpwnam("nobody");
    if (!nobody)
      set(Protection::User, false, "arena runs as root and this machine has no user 'nobody'");
    else if (s.setpriv.empty())
      set(Protection::User, false, "arena runs as root and setpriv (util-linux) is missing");
    else {
      set(Protection::User, true, "");
      s.agent_user = "nobody";
      s.agent_uid = nobody->pw_uid;
      s.agent_gid = nobody->pw_gid;
    }
  }
  return s;
}

std::string megabytes(std::uint64_t bytes) {
  return fmt::format("{} MB", bytes / kMiB);
}

}  // namespace

std::string_view sandbox_mode_key(SandboxMode m) {
  switch (m) {
    case SandboxMode::Auto:
      return "auto";
    case SandboxMode::Required:
      return "required";
    case SandboxMode::Off:
      return "off";
  }
  return "?";
}

std::optional<SandboxMode> sandbox_mode_from_key(std::string_view key) {
  for (auto m : {SandboxMode::Auto, SandboxMode::Required, SandboxMode::Off})
    if (key == sandbox_mode_key(m)) return m;
  return std::nullopt;
}

nlohmann::json to_json(const AgentLimits& l) {
  return {{"memory_bytes", l.memory_bytes},
          {"cpus", l.cpus},
          {"max_processes", l.max_processes},
          {"log_bytes", l.log_bytes}};
}

AgentLimits agent_limits_from_json(const nlohmann::json& j) {
  AgentLimits l;
  l.memory_bytes = j.value("memory_bytes", l.memory_bytes);
  l.cpus = j.value("cpus", l.cpus);
  l.max_processes = j.value("max_processes", l.max_processes);
  l.log_bytes = j.value("log_bytes", l.log_bytes);
  return l;
}

std::string_view protection_key(Protection p) {
  switch (p) {
    case Protection::Memory:
      return "memory";
    case Protection::Cpu:
      return "cpu";
    case Protection::Processes:
      return "processes";
    case Protection::Files:
      return "files";
    case Protection::Network:
      return "network";
    case Protection::User:
      return "user";
  }
  return "?";
}

std::string protection_title(Protection p) {
  switch (p) {
    case Protection::Memory:
      return "memory limit of the agent's whole process tree, peak recorded (cgroup)";
    case Protection::Cpu:
      return "own cores per agent, CPU time per move (cgroup cpuset and accounting)";
    case Protection::Processes:
      return "bound on the agent's tasks (cgroup pids)";
    case Protection::Files:
      return "private file system view and PID namespace (bubblewrap)";
    case Protection::Network:
      return "network: its own game's server and nothing else (network namespace)";
    case Protection::User:
      return "never root (an unprivileged user)";
  }
  return "?";
}

const SandboxSupport& probe_sandbox(AgentChannel channel) {
  static std::once_flag once[2];
  static SandboxSupport support[2];
  const auto i = static_cast<std::size_t>(channel);
  std::call_once(once[i], [&] { support[i] = probe(channel); });
  return support[i];
}

bool SandboxPlan::any() const {
  for (Protection p : kAllProtections)
    if (uses(p)) return true;
  return false;
}

std::vector<std::string> SandboxPlan::in_force() const {
  std::vector<std::string> out;
  for (Protection p : kAllProtections)
    if (uses(p)) out.emplace_back(protection_key(p));
  return out;
}

SandboxPlan plan_sandbox(SandboxMode mode, AgentChannel channel) {
  SandboxPlan plan;
  plan.mode = mode;
  plan.channel = channel;
  if (mode == SandboxMode::Off) return plan;
  plan.machine = probe_sandbox(channel);
  if (mode == SandboxMode::Required) {
    std::string missing;
    for (Protection p : kAllProtections)
      if (!plan.machine.has(p))
        missing += fmt::format("\n  {}: {}", protection_key(p),
                               plan.machine.why_not[static_cast<std::size_t>(p)]);
    if (!missing.empty())
      throw std::runtime_error("--sandbox required, but this machine cannot enforce:" + missing +
                               "\n(`arena sandbox --check` tells more; see docs/sandbox.md)");
  }
  return plan;
}

std::string sandbox_warning(const SandboxPlan& plan) {
  if (plan.mode == SandboxMode::Off) return {};
  std::string lines;
  for (Protection p : kAllProtections)
    if (!plan.machine.has(p))
      lines += fmt::format("\n  {}: {}", protection_key(p),
                           plan.machine.why_not[static_cast<std::size_t>(p)]);
  if (lines.empty()) return {};
  return "warning: the agents' sandbox lacks these protections on this machine (--sandbox "
         "required refuses to run without them):" +
         lines;
}

std::string sandbox_summary(const SandboxPlan& plan) {
  if (plan.mode == SandboxMode::Off) return "off (agents run as plain child processes)";
  std::string on, off;
  for (Protection p : kAllProtections) {
    std::string& list = plan.uses(p) ? on : off;
    if (!list.empty()) list += ", ";
    list += protection_key(p);
  }
  std::string out = on.empty() ? "no protection in force" : on;
  if (!off.empty()) out += " (missing: " + off + ")";
  if (plan.uses(Protection::User)) out += "; agents run as " + plan.machine.agent_user;
  return out;
}

std::string sandbox_check_text(const SandboxSupport& tcp, const SandboxSupport& pipes) {
  std::string out = fmt::format(
      "arena sandbox check: running as {}; cgroups: {}; bwrap: {}; setpriv: {}\n",
      tcp.root ? "root" : "an unprivileged user",
      tcp.cgroups.version == CgroupVersion::V2   ? "v2"
      : tcp.cgroups.version == CgroupVersion::V1 ? "v1"
                                                 : "none",
      tcp.bwrap.empty() ? "missing" : tcp.bwrap, tcp.setpriv.empty() ? "missing" : tcp.setpriv);
  bool all = true;
  for (Protection p : kAllProtections) {
    const auto i = static_cast<std::size_t>(p);
    for (const SandboxSupport* s : {&tcp, &pipes}) {
      // Only the network differs between TCP agents and stdin/stdout bots.
      if (s == &pipes && p != Protection::Network) continue;
      const std::string scope =
          p != Protection::Network ? "" : (s == &tcp ? " [TCP agents]" : " [stdin/stdout bots]");
      all = all && s->on[i];
      out += fmt::format("  {:<10} {:<4} {}{}{}\n", protection_key(p), s->on[i] ? "on" : "OFF",
                         protection_title(p), scope,
                         s->on[i] ? "" : "\n             why: " + s->why_not[i]);
    }
  }
  if (tcp.on[static_cast<std::size_t>(Protection::User)])
    out += fmt::format("  agents run as: {} (uid {}, gid {})\n", tcp.agent_user, tcp.agent_uid,
                       tcp.agent_gid);
  out += all ? "Every protection is available: --sandbox required will run.\n"
             : "Some protections are missing: --sandbox auto runs without them (with a warning), "
               "--sandbox required refuses. See docs/sandbox.md.\n";
  return out;
}

nlohmann::json to_json(const AgentJailSpec& s) {
  auto paths = [](const std::vector<fs::path>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : v) a.push_back(p.string());
    return a;
  };
  nlohmann::json j = {{"limits", to_json(s.limits)},   {"cpus", s.cpus},
                      {"own_dir", s.own_dir.string()}, {"readable", paths(s.readable)},
                      {"hidden", paths(s.hidden)},     {"label", s.label}};
  if (!s.writable.empty()) j["writable"] = paths(s.writable);
  return j;
}

AgentJailSpec agent_jail_spec_from_json(const nlohmann::json& j) {
  AgentJailSpec s;
  s.limits = agent_limits_from_json(j.value("limits", nlohmann::json::object()));
  s.cpus = j.value("cpus", std::vector<int>{});
  s.own_dir = j.value("own_dir", std::string{});
  for (const auto& p : j.value("readable", std::vector<std::string>{})) s.readable.emplace_back(p);
  for (const auto& p : j.value("hidden", std::vector<std::string>{})) s.hidden.emplace_back(p);
  for (const auto& p : j.value("writable", std::vector<std::string>{})) s.writable.emplace_back(p);
  s.label = j.value("label", std::string("agent"));
  return s;
}

void write_bot_jails(const fs::path& file, const AgentJailSpec& first,
                     const AgentJailSpec& second) {
  const nlohmann::json j = {{"bots", {to_json(first), to_json(second)}}};
  std::ofstream out(file, std::ios::trunc);
  out << j.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::pair<AgentJailSpec, AgentJailSpec> read_bot_jails(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec || size > (1 << 20))
    throw std::runtime_error("cannot read " + file.string() +
                             (ec ? ": " + ec.message() : ": larger than 1 MB"));
  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  try {
    if (j.is_discarded()) throw std::runtime_error("not valid JSON");
    return {agent_jail_spec_from_json(j.at("bots").at(0)),
            agent_jail_spec_from_json(j.at("bots").at(1))};
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": not a sandbox configuration: " + e.what());
  }
}

AgentJail::AgentJail(const SandboxPlan& plan, AgentJailSpec spec)
    : plan_(plan), spec_(std::move(spec)) {
  if (spec_.own_dir.empty()) spec_.own_dir = fs::current_path();
  spec_.own_dir = resolved_path(spec_.own_dir);
  for (auto& p : spec_.readable) p = resolved_path(p);
  for (auto& p : spec_.hidden) p = resolved_path(p);
  for (auto& p : spec_.writable) p = resolved_path(p);
  std::string label;
  for (char c : spec_.label)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') label += c;
  const bool cgroup = plan_.uses(Protection::Memory) || plan_.uses(Protection::Cpu) ||
                      plan_.uses(Protection::Processes);
  if (cgroup) {
    CgroupLimits limits;
    if (plan_.uses(Protection::Memory)) limits.memory_bytes = spec_.limits.memory_bytes;
    if (plan_.uses(Protection::Processes)) limits.max_tasks = spec_.limits.max_processes;
    if (plan_.uses(Protection::Cpu)) limits.cpus = spec_.cpus;
    cgroup_ = std::make_unique<AgentCgroup>(plan_.machine.cgroups, label.substr(0, 40), limits);
  }
}

AgentJail::~AgentJail() = default;

AgentJail::Exec AgentJail::exec(const std::string& command,
                                const std::vector<std::string>& extra_env) const {
  Exec e;
  const bool files = plan_.uses(Protection::Files);
  const bool drop_user = plan_.uses(Protection::User) && plan_.machine.root;
  // The environment: a clean one in a private file system view, arena's own otherwise.
  std::vector<std::string> env;
  if (files) {
    env.push_back(std::string("PATH=") + kAgentPath);
    env.push_back(std::string("HOME=") + kScratchDir);
    env.push_back("TMPDIR=/tmp");
    env.push_back("USER=" + plan_.machine.agent_user);
    for (const char* name : kPassedEnv)
      if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
  } else {
    for (char** v = environ; *v; ++v) env.emplace_back(*v);
  }
  for (const auto& x : extra_env) env.push_back(x);

  if (files) {
    e.argv = {plan_.machine.bwrap};
    for (auto& f : namespace_flags(plan_.channel)) e.argv.push_back(f);
    for (const char* dir : kSystemDirs) {
      std::error_code ec;
      if (fs::is_symlink(dir, ec)) {
        e.argv.insert(e.argv.end(), {"--symlink", fs::read_symlink(dir, ec).string(), dir});
      } else if (fs::is_directory(dir, ec)) {
        e.argv.insert(e.argv.end(), {"--ro-bind", dir, dir});
      }
    }
    e.argv.insert(e.argv.end(), {"--proc", "/proc", "--dev", "/dev"});
    // Its private writable folders first, so that its own folder may lie below one of them.
    e.argv.insert(e.argv.end(), {"--perms", "0755", "--dir", "/var", "--perms", "0755", "--dir",
                                 fs::path(kScratchDir).parent_path().string()});
    for (const char* dir : kPrivateDirs)
      e.argv.insert(e.argv.end(), {"--perms", "1777", "--tmpfs", dir});
    // Its folder, what it may read and what its command names; then the hidden places over
    // whatever shows them.
    const AgentView view = agent_view(spec_, command);
    // bwrap makes missing parent folders private to root: the agent's user must pass through.
    std::vector<fs::path> parents;
    for (const auto& m : view.mounts)
      for (fs::path a = m.target.parent_path(); a != a.root_path() && !a.empty();
           a = a.parent_path())
        parents.push_back(a);
    std::sort(parents.begin(), parents.end());  // every parent before its children
    parents.erase(std::unique(parents.begin(), parents.end()), parents.end());
    for (const auto& dir : parents) {
      bool mounted = false;
      for (const char* p : kPrivateDirs) mounted = mounted || dir == p;
      for (const char* system : kSystemDirs) mounted = mounted || path_within(dir, system);
      if (!mounted) e.argv.insert(e.argv.end(), {"--perms", "0755", "--dir", dir.string()});
    }
    for (const auto& m : view.mounts)
      e.argv.insert(e.argv.end(), {"--ro-bind", m.source.string(), m.target.string()});
    // Mounted again over its read-only view (a build's own folder): the later mount is the one
    // the agent sees. Writable paths lie within its own folder, so their parents exist.
    for (const auto& w : spec_.writable)
      e.argv.insert(e.argv.end(), {"--bind", w.string(), w.string()});
    for (const auto& cover : view.covers) e.argv.insert(e.argv.end(), {"--tmpfs", cover.string()});
    e.argv.insert(e.argv.end(), {"--chdir", spec_.own_dir.string(), "--clearenv"});
    for (const auto& kv : env) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos) continue;
      e.argv.insert(e.argv.end(), {"--setenv", kv.substr(0, eq), kv.substr(eq + 1)});
    }
    e.argv.push_back("--");
  }
  if (drop_user) {
    e.argv.insert(e.argv.end(),
                  {plan_.machine.setpriv, "--reuid=" + std::to_string(plan_.machine.agent_uid),
                   "--regid=" + std::to_string(plan_.machine.agent_gid), "--clear-groups",
                   "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"});
  }
  e.argv.insert(e.argv.end(), {"/bin/sh", "-c", command});
  e.env = std::move(env);
  return e;
}

std::vector<fs::path> AgentJail::join_files() const {
  return cgroup_ ? cgroup_->join_files() : std::vector<fs::path>{};
}

std::optional<std::chrono::microseconds> AgentJail::cpu() const {
  return cgroup_ ? cgroup_->cpu() : std::nullopt;
}

std::optional<std::chrono::microseconds> AgentJail::user_cpu() const {
  return cgroup_ ? cgroup_->user_cpu() : std::nullopt;
}

std::optional<LimitBreach> AgentJail::breach() const {
  if (!cgroup_) return std::nullopt;
  const CgroupUsage u = cgroup_->usage();
  if (plan_.uses(Protection::Memory) && u.oom_kills > 0)
    return LimitBreach{"memory-limit",
                       fmt::format("went over its memory limit of {} (peak {}); the kernel "
                                   "killed {} of its processes",
                                   megabytes(spec_.limits.memory_bytes),
                                   megabytes(u.peak_memory_bytes), u.oom_kills)};
  if (plan_.uses(Protection::Processes) && u.task_limit_hits > 0)
    return LimitBreach{"too-many-processes",
                       fmt::format("tried to run more than {} processes and threads at once ({} "
                                   "refused)",
                                   spec_.limits.max_processes, u.task_limit_hits)};
  return std::nullopt;
}

void AgentJail::kill_all() {
  if (cgroup_) cgroup_->kill_all();
}

nlohmann::json AgentJail::usage_json() const {
  nlohmann::json j = nlohmann::json::object();
  if (cgroup_) {
    const CgroupUsage u = cgroup_->usage();
    if (plan_.uses(Protection::Memory)) j["peak_memory_bytes"] = u.peak_memory_bytes;
    j["cpu_ms"] = u.cpu.count() / 1000;
    j["user_cpu_ms"] = u.user_cpu.count() / 1000;
  }
  if (!spec_.cpus.empty() && plan_.uses(Protection::Cpu)) j["cores"] = spec_.cpus;
  if (const auto b = breach()) j["limit_broken"] = b->reason;
  return j;
}

nlohmann::json sandbox_record(const SandboxPlan& plan, const AgentLimits& white,
                              const AgentLimits& black) {
  nlohmann::json j = {{"mode", sandbox_mode_key(plan.mode)}, {"protections", plan.in_force()}};
  if (plan.mode == SandboxMode::Off) return j;
  auto limits = [&](const AgentLimits& l) {
    nlohmann::json out = {{"log_bytes", l.log_bytes}};
    if (plan.uses(Protection::Memory)) out["memory_bytes"] = l.memory_bytes;
    if (plan.uses(Protection::Cpu)) out["cpus"] = l.cpus;
    if (plan.uses(Protection::Processes)) out["max_processes"] = l.max_processes;
    return out;
  };
  j["limits"] = {{"white", limits(white)}, {"black", limits(black)}};
  if (plan.uses(Protection::User)) j["agent_user"] = plan.machine.agent_user;
  return j;
}

namespace {

void pin_this_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set);
}

std::chrono::nanoseconds thread_cpu() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

}  // namespace

std::optional<double> neighbour_core_share(std::chrono::milliseconds duration) {
  const std::vector<int> cores = usable_cpus();
  if (cores.size() < 2) return std::nullopt;
  std::atomic<bool> stop{false};
  auto spin_until_stopped = [&stop](int cpu) {
    pin_this_thread(cpu);
    volatile unsigned long x = 0;
    while (!stop.load(std::memory_order_relaxed)) x = x + 1;
  };
  std::thread neighbour(spin_until_stopped, cores[1]);
  double share = 0;
  std::thread measured([&] {
    pin_this_thread(cores[0]);
    const auto wall0 = std::chrono::steady_clock::now();
    const auto cpu0 = thread_cpu();
    volatile unsigned long x = 0;
    while (std::chrono::steady_clock::now() - wall0 < duration) x = x + 1;
    const auto wall = std::chrono::steady_clock::now() - wall0;
    share = static_cast<double>((thread_cpu() - cpu0).count()) / static_cast<double>(wall.count());
  });
  measured.join();
  stop = true;
  neighbour.join();
  return share;
}

std::vector<int> usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  }
  if (out.empty()) out.push_back(0);
  return out;
}

}  // namespace arena
