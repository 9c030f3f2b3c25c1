#include "sandbox/cgroup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/kernel_file.hpp"
#include "core/text.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// The v1 controllers arena uses, each in its own hierarchy (or co-mounted: cpu,cpuacct).
constexpr const char* kV1Controllers[] = {"memory", "pids", "cpuset", "cpuacct"};

std::string fmt_cannot_create(const fs::path& folder, const std::error_code& ec) {
  return "cannot create " + folder.string() + ": " + ec.message();
}

// Writes a cgroup control file; throws with the file and the kernel's reason.
void write_control(const fs::path& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
  const ssize_t n = ::write(fd, value.data(), value.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(value.size()))
    throw std::runtime_error("cannot write '" + value + "' to " + path.string() + ": " +
                             std::strerror(err));
}

bool try_write_control(const fs::path& path, const std::string& value) {
  try {
    write_control(path, value);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::uint64_t read_number(const fs::path& path) {
  const std::string text = read_kernel_file(path);
  return text.empty() ? 0 : std::strtoull(text.c_str(), nullptr, 10);
}

// The value of "key N" in a flat-keyed file (memory.events, cpu.stat, memory.oom_control).
std::uint64_t read_keyed(const fs::path& path, const std::string& key) {
  std::istringstream in(read_kernel_file(path));
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (int c : cpus) {
    if (!out.empty()) out += ',';
    out += std::to_string(c);
  }
  return out;
}

struct Hierarchy {
  fs::path mount;  // where the hierarchy is mounted
  fs::path own;    // our cgroup's folder in it
};

// Where arena's groups go: per v1 controller (or "" for v2) the folder of our own cgroup.
struct Layout {
  CgroupVersion version = CgroupVersion::None;
  std::map<std::string, Hierarchy> v1;  // controller -> hierarchy
  Hierarchy v2;
  bool v2_found = false;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

Layout read_layout() {
  Layout layout;
  // Our cgroup in each hierarchy: "ID:controllers:path", "0::path" for v2.
  std::map<std::string, std::string> own_v1;
  std::string own_v2;
  bool have_v2_line = false;
  {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
      const auto first = line.find(':');
      const auto second = line.find(':', first + 1);
      if (first == std::string::npos || second == std::string::npos) continue;
      const std::string controllers = line.substr(first + 1, second - first - 1);
      const std::string path = line.substr(second + 1);
      if (controllers.empty()) {
        own_v2 = path;
        have_v2_line = true;
      }
      for (const auto& c : split(controllers, ',')) own_v1[c] = path;
    }
  }
  // The mounts: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS".
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream before(line.substr(0, dash)), after(line.substr(dash + 3));
    std::string id, parent, dev, root, mountpoint, fstype, source, super;
    before >> id >> parent >> dev >> root >> mountpoint;
    after >> fstype >> source >> super;
    // A group's folder: the mount point plus our path below the mount's root.
    auto folder = [&](const std::string& own) -> std::optional<fs::path> {
      if (root != "/" && own.rfind(root, 0) != 0) return std::nullopt;
      const std::string rest = root == "/" ? own : own.substr(root.size());
      return fs::path(mountpoint) / fs::path(rest).relative_path();
    };
    if (fstype == "cgroup2" && have_v2_line && !layout.v2_found) {
      if (auto f = folder(own_v2)) {
        layout.v2 = {mountpoint, *f};
        layout.v2_found = true;
      }
    } else if (fstype == "cgroup") {
      for (const auto& option : split(super, ','))
        for (const char* c : kV1Controllers)
          if (option == c && own_v1.count(c) && !layout.v1.count(c))
            if (auto f = folder(own_v1[c])) layout.v1[c] = {mountpoint, *f};
    }
  }
  return layout;
}

std::string arena_folder_name() {
  return "arena-" + std::to_string(::getpid());
}

// Copies a v1 cpuset folder's cpus and mems from its parent (a new cpuset folder has none, and
// no process may join it until it has).
void inherit_cpuset(const fs::path& folder) {
  for (const char* file : {"cpuset.cpus", "cpuset.mems"}) {
    const fs::path mine = folder / file;
    if (!trim(read_kernel_file(mine)).empty()) continue;
    const std::string parent = std::string(trim(read_kernel_file(folder.parent_path() / file)));
    write_control(mine, parent);
  }
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

std::vector<pid_t> read_pids(const fs::path& procs) {
  std::vector<pid_t> out;
  std::istringstream in(read_kernel_file(procs));
  long pid = 0;
  while (in >> pid) out.push_back(static_cast<pid_t>(pid));
  return out;
}

// v2: the controllers arena uses. cpu is not needed for cpu.stat (every group has it) but
// weighs groups against each other, so that an agent's many threads do not crowd out arena's.
constexpr const char* kV2Controllers[] = {"memory", "pids", "cpuset", "cpu"};
// The leaf arena moves the other processes of its cgroup into (the shell it was started from).
constexpr const char* kOthersLeaf = "arena-others";

// v2: the controllers arena uses, enabled for the children of `folder` where delegated to it.
// Gives those enabled.
std::vector<std::string> enable_v2_controllers(const fs::path& folder) {
  std::vector<std::string> on;
  const auto delegated = words(read_kernel_file(folder / "cgroup.controllers"));
  for (const char* name : kV2Controllers)
    if (contains(delegated, name) &&
        try_write_control(folder / "cgroup.subtree_control", std::string("+") + name))
      on.emplace_back(name);
  return on;
}

// "arena-<pid>-self" (where an arena moved itself) or "arena-others".
bool is_arena_leaf(const std::string& name) {
  const std::string prefix = "arena-", suffix = "-self";
  if (name == kOthersLeaf) return true;
  if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  return digits.find_first_not_of("0123456789") == std::string::npos;
}

// Moves every process of cgroup `from` into `to`; true when `from` is then empty.
bool move_all(const fs::path& from, const fs::path& to) {
  for (int round = 0; round < 10; ++round) {  // again for processes forked meanwhile
    const auto pids = read_pids(from / "cgroup.procs");
    if (pids.empty()) return true;
    for (pid_t pid : pids) try_write_control(to / "cgroup.procs", std::to_string(pid));
  }
  return read_pids(from / "cgroup.procs").empty();
}

// v2: the cgroup arena makes its groups under, with the controllers on for its children. A cgroup
// with processes in it cannot give the memory controller to its children (v2's "no internal
// processes" rule; only the machine's root cgroup is exempt, not the root of a container's cgroup
// namespace); and one that gives them cpu, cpuset or pids while it holds processes becomes a
// thread root, whose children take no more processes. So arena first empties its cgroup: it moves
// itself into a leaf "arena-<pid>-self" and the other processes (the shell of a delegated scope)
// into "arena-others", then enables the controllers. An arena started in such a leaf (by another
// arena, by a test, from a shell moved there) uses the cgroup above it.
fs::path v2_base(const fs::path& own) {
  if (is_arena_leaf(own.filename().string())) {
    enable_v2_controllers(own.parent_path());
    return own.parent_path();
  }
  const bool machine_root = !fs::exists(own / "cgroup.type");  // only the root lacks it
  const auto delegated = words(read_kernel_file(own / "cgroup.controllers"));
  if (!machine_root && !delegated.empty() && !read_pids(own / "cgroup.procs").empty()) {
    std::error_code ec;
    const fs::path self = own / (arena_folder_name() + "-self");
    const fs::path others = own / kOthersLeaf;
    fs::create_directory(self, ec);
    if (!ec && try_write_control(self / "cgroup.procs", std::to_string(::getpid())) &&
        !read_pids(own / "cgroup.procs").empty()) {
      fs::create_directory(others, ec);
      if (!ec) move_all(own, others);
    }
  }
  enable_v2_controllers(own);
  return own;
}

// Why the v2 controller `c` is off for the groups under `base`.
std::string v2_missing(const fs::path& base, const std::string& c) {
  if (!contains(words(read_kernel_file(base / "cgroup.controllers")), c))
    return "the " + c + " controller is not delegated to " + base.string() +
           " (not in its cgroup.controllers)";
  return "cannot enable the " + c + " controller in " + base.string() +
         "/cgroup.subtree_control (not writable, or it holds processes arena cannot move)";
}

// The folder "arena-<pid>" per hierarchy, made once per process with what it needs.
struct Parents {
  CgroupSupport support;
  std::map<std::string, fs::path> v1;  // controller -> arena-<pid> folder
  fs::path v2;
};

Parents make_parents() {
  Parents p;
  const Layout layout = read_layout();
  const std::string name = arena_folder_name();
  std::vector<std::string> problems;
  if (!layout.v1.empty() && layout.v1.count("memory")) {
    p.support.version = CgroupVersion::V1;
    for (const auto& [controller, h] : layout.v1) {
      const fs::path folder = h.own / name;
      std::error_code ec;
      fs::create_directory(folder, ec);
      if (ec) {
        problems.push_back(fmt_cannot_create(folder, ec));
        continue;
      }
      try {
        if (controller == "cpuset") inherit_cpuset(folder);
        p.v1[controller] = folder;
      } catch (const std::exception& e) {
        problems.push_back(e.what());
      }
    }
    p.support.memory = p.v1.count("memory") > 0;
    p.support.pids = p.v1.count("pids") > 0;
    p.support.cpuset = p.v1.count("cpuset") > 0;
    p.support.cpuacct = p.v1.count("cpuacct") > 0;
  } else if (layout.v2_found) {
    p.support.version = CgroupVersion::V2;
    const fs::path base = v2_base(layout.v2.own);
    const fs::path folder = base / name;
    std::error_code ec;
    fs::create_directory(folder, ec);
    if (ec) {
      std::string why = fmt_cannot_create(folder, ec);
      if (ec == std::errc::permission_denied || ec == std::errc::read_only_file_system)
        why +=
            " (not delegated to this user: start arena in a delegated cgroup, e.g. "
            "systemd-run --user --scope -p Delegate=yes arena ...; see docs/sandbox.md)";
      problems.push_back(why);
    } else {
      p.v2 = folder;
      const auto below = enable_v2_controllers(folder);
      p.support.memory = contains(below, "memory");
      p.support.pids = contains(below, "pids");
      p.support.cpuset = contains(below, "cpuset");
      p.support.cpuacct = true;  // cpu.stat is in every v2 group
      for (const char* c : {"memory", "pids", "cpuset"})
        if (!contains(below, c)) problems.push_back(v2_missing(base, c));
    }
  } else {
    problems.push_back("no cgroup hierarchy with the memory controller is mounted");
  }
  if (p.support.version == CgroupVersion::V1)
    for (const char* c : kV1Controllers)
      if (!p.v1.count(c) && !layout.v1.count(c))
        problems.push_back(std::string("no cgroup v1 hierarchy has the ") + c + " controller");
  for (const auto& s : problems) {
    if (!p.support.why_not.empty()) p.support.why_not += "; ";
    p.support.why_not += s;
  }
  return p;
}

void remove_own_cgroups_at_exit();

Parents& parents() {
  // Never destroyed: the exit handler below still needs it.
  static Parents* p = [] {
    auto* made = new Parents(make_parents());
    std::atexit(remove_own_cgroups_at_exit);
    return made;
  }();
  return *p;
}

// Kills the processes in a group folder until none is left; true when empty.
bool empty_folder(const fs::path& folder, bool v2) {
  if (v2 && fs::exists(folder / "cgroup.kill")) try_write_control(folder / "cgroup.kill", "1");
  for (int round = 0; round < 500; ++round) {
    const auto pids = read_pids(folder / "cgroup.procs");
    if (pids.empty()) return true;
    for (pid_t pid : pids) ::kill(pid, SIGKILL);
    std::this_thread::sleep_for(milliseconds(2));
  }
  return read_pids(folder / "cgroup.procs").empty();
}

// rmdir, retried while the last tasks are still leaving the group.
void remove_folder(const fs::path& folder) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (::rmdir(folder.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) return;
    std::this_thread::sleep_for(milliseconds(5));
  }
}

// Removes a folder tree of groups, deepest first, killing what is in them.
void remove_tree(const fs::path& folder, bool v2) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (e.is_directory()) remove_tree(e.path(), v2);
  empty_folder(folder, v2);
  remove_folder(folder);
}

std::atomic<unsigned> g_sequence{0};

void remove_own_cgroups_at_exit() {
  remove_own_cgroups();
}

}  // namespace

void remove_own_cgroups() {
  const Parents& p = parents();
  for (const auto& [controller, folder] : p.v1) remove_tree(folder, false);
  if (!p.v2.empty()) remove_tree(p.v2, true);
}

const CgroupSupport& probe_cgroups() {
  return parents().support;
}

AgentCgroup::AgentCgroup(const CgroupSupport& support, const std::string& label,
                         const CgroupLimits& limits)
    : version_(support.version) {
  const Parents& p = parents();
  const std::string name = std::to_string(g_sequence++) + "-" + label;
  auto make = [&](const fs::path& parent) {
    const fs::path folder = parent / name;
    std::error_code ec;
    fs::create_directory(folder, ec);
    if (ec) throw std::runtime_error(fmt_cannot_create(folder, ec));
    folders_.push_back(folder);
    procs_files_.push_back(folder / "cgroup.procs");
    return folder;
  };
  try {
    if (version_ == CgroupVersion::V1) {
      for (const auto& [controller, parent] : p.v1) {
        const fs::path folder = make(parent);
        if (controller == "memory") memory_ = folder;
        if (controller == "pids") pids_ = folder;
        if (controller == "cpuacct") cpuacct_ = folder;
        if (controller == "cpuset") {
          write_control(folder / "cpuset.mems",
                        std::string(trim(read_kernel_file(parent / "cpuset.mems"))));
          write_control(folder / "cpuset.cpus",
                        limits.cpus.empty()
                            ? std::string(trim(read_kernel_file(parent / "cpuset.cpus")))
                            : cpu_list(limits.cpus));
        }
      }
      if (!memory_.empty() && limits.memory_bytes > 0) {
        const std::string bytes = std::to_string(limits.memory_bytes);
        write_control(memory_ / "memory.limit_in_bytes", bytes);
        // Swap must not extend the limit (where swap is accounted).
        if (fs::exists(memory_ / "memory.memsw.limit_in_bytes"))
          write_control(memory_ / "memory.memsw.limit_in_bytes", bytes);
      }
      if (!pids_.empty() && limits.max_tasks > 0)
        write_control(pids_ / "pids.max", std::to_string(limits.max_tasks));
    } else if (version_ == CgroupVersion::V2) {
      const fs::path folder = make(p.v2);
      memory_ = pids_ = cpuacct_ = folder;
      if (support.memory && limits.memory_bytes > 0) {
        write_control(folder / "memory.max", std::to_string(limits.memory_bytes));
        if (fs::exists(folder / "memory.swap.max")) write_control(folder / "memory.swap.max", "0");
        // An OOM kill ends the whole agent, not one of its processes.
        if (fs::exists(folder / "memory.oom.group"))
          write_control(folder / "memory.oom.group", "1");
      }
      if (support.pids && limits.max_tasks > 0)
        write_control(folder / "pids.max", std::to_string(limits.max_tasks));
      if (support.cpuset && !limits.cpus.empty())
        write_control(folder / "cpuset.cpus", cpu_list(limits.cpus));
    } else {
      throw std::runtime_error("this machine has no usable cgroups");
    }
  } catch (...) {
    for (auto it = folders_.rbegin(); it != folders_.rend(); ++it) remove_folder(*it);
    throw;
  }
}

AgentCgroup::~AgentCgroup() {
  kill_all();
  for (auto it = folders_.rbegin(); it != folders_.rend(); ++it) remove_folder(*it);
}

bool AgentCgroup::kill_all() {
  bool empty = true;
  for (const auto& f : folders_) empty = empty_folder(f, version_ == CgroupVersion::V2) && empty;
  return empty;
}

std::vector<pid_t> AgentCgroup::members() const {
  return folders_.empty() ? std::vector<pid_t>{} : read_pids(procs_files_.front());
}

std::optional<std::chrono::microseconds> AgentCgroup::cpu() const {
  if (cpuacct_.empty()) return std::nullopt;
  if (version_ == CgroupVersion::V2)
    return std::chrono::microseconds(read_keyed(cpuacct_ / "cpu.stat", "usage_usec"));
  return std::chrono::microseconds(read_number(cpuacct_ / "cpuacct.usage") / 1000);
}

std::optional<std::chrono::microseconds> AgentCgroup::user_cpu() const {
  if (cpuacct_.empty()) return std::nullopt;
  if (version_ == CgroupVersion::V2)
    return std::chrono::microseconds(read_keyed(cpuacct_ / "cpu.stat", "user_usec"));
  return std::chrono::microseconds(read_number(cpuacct_ / "cpuacct.usage_user") / 1000);
}

CgroupUsage AgentCgroup::usage() const {
  CgroupUsage u;
  u.cpu = cpu().value_or(std::chrono::microseconds(0));
  u.user_cpu = user_cpu().value_or(std::chrono::microseconds(0));
  if (!memory_.empty()) {
    if (version_ == CgroupVersion::V2) {
      u.peak_memory_bytes = read_number(memory_ / "memory.peak");
      u.oom_kills = read_keyed(memory_ / "memory.events", "oom_kill");
    } else {
      u.peak_memory_bytes = read_number(memory_ / "memory.max_usage_in_bytes");
      u.oom_kills = read_keyed(memory_ / "memory.oom_control", "oom_kill");
    }
  }
  if (!pids_.empty() && fs::exists(pids_ / "pids.events"))
    u.task_limit_hits = read_keyed(pids_ / "pids.events", "max");
  return u;
}

std::vector<fs::path> own_cgroup_parents() {
  const Parents& p = parents();
  std::vector<fs::path> out;
  for (const auto& [controller, folder] : p.v1) out.push_back(folder);
  if (!p.v2.empty()) out.push_back(p.v2);
  return out;
}

int remove_stale_cgroups() {
  const Parents& p = parents();
  int removed = 0;
  auto sweep = [&](const fs::path& base, bool v2) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      const std::string name = e.path().filename().string();
      if (!e.is_directory() || name.rfind("arena-", 0) != 0) continue;
      const std::string digits = name.substr(6, name.find('-', 6) - 6);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      const pid_t pid = static_cast<pid_t>(std::stol(digits));
      if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
      remove_tree(e.path(), v2);
      ++removed;
    }
  };
  for (const auto& [controller, folder] : p.v1) sweep(folder.parent_path(), false);
  if (!p.v2.empty()) sweep(p.v2.parent_path(), true);
  return removed;
}

}  // namespace arena
