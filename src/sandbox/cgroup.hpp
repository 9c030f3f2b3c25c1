#pragma once
// One control group per agent: the kernel's bound on the memory, the tasks and the cores of a
// whole process tree, and its measure of their CPU time and peak memory. cgroup v2 where the
// machine has the controllers on its unified hierarchy; v1 where they are mounted one by one.
//
// The groups live under the cgroup that arena itself runs in, in a folder "arena-<pid>" per
// arena process (a delegated subtree is enough; no root needed for v2 delegation). On v2 arena
// first moves the processes of its cgroup into leaves ("arena-<pid>-self", "arena-others"), since
// a cgroup with processes cannot give controllers to its children; an arena started in such a
// leaf makes its folder beside it. Folders of arena processes that died (kill -9) are removed
// the next time arena creates one.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace arena {

enum class CgroupVersion { None, V1, V2 };

// What the machine's cgroups can do for arena, probed once per process.
struct CgroupSupport {
  CgroupVersion version = CgroupVersion::None;
  bool memory = false;   // memory limit, peak, OOM kills
  bool pids = false;     // task limit
  bool cpuset = false;   // pinning to cores
  bool cpuacct = false;  // CPU time of the group
  std::string why_not;   // for whatever is missing
};

// Probes the machine once (/proc/self/mountinfo, /proc/self/cgroup, and the folder arena creates
// its groups in) and keeps the answer.
const CgroupSupport& probe_cgroups();

struct CgroupLimits {
  std::uint64_t memory_bytes = 0;  // 0: no limit
  int max_tasks = 0;               // processes and threads; 0: no limit
  std::vector<int> cpus;           // cores; empty: not pinned
};

struct CgroupUsage {
  std::chrono::microseconds cpu{0};       // user + system
  std::chrono::microseconds user_cpu{0};  // user only
  std::uint64_t peak_memory_bytes = 0;
  std::uint64_t oom_kills = 0;        // processes the kernel killed at the memory limit
  std::uint64_t task_limit_hits = 0;  // forks and threads refused at the task limit
};

// The group of one agent. Created empty with its limits; a process joins it by writing "0" to
// join_files() (before it execs, so that nothing it starts escapes).
class AgentCgroup {
 public:
  // Throws std::runtime_error naming the file that could not be written.
  AgentCgroup(const CgroupSupport& support, const std::string& label, const CgroupLimits& limits);
  // Kills whatever is left and removes the group.
  ~AgentCgroup();
  AgentCgroup(const AgentCgroup&) = delete;
  AgentCgroup& operator=(const AgentCgroup&) = delete;

  // The cgroup.procs files a process writes "0" to, to join (one per v1 hierarchy).
  const std::vector<std::filesystem::path>& join_files() const { return procs_files_; }
  CgroupUsage usage() const;
  // The CPU time of the group; nullopt without CPU accounting.
  std::optional<std::chrono::microseconds> cpu() const;
  std::optional<std::chrono::microseconds> user_cpu() const;
  // SIGKILLs every process in the group until none is left (bounded); true when empty.
  bool kill_all();
  std::vector<pid_t> members() const;
  // The group folders (for tests and messages).
  const std::vector<std::filesystem::path>& folders() const { return folders_; }

 private:
  CgroupVersion version_;
  std::vector<std::filesystem::path> folders_;      // one per hierarchy (v1) or one (v2)
  std::vector<std::filesystem::path> procs_files_;  // their cgroup.procs
  std::filesystem::path memory_, pids_, cpuacct_;   // where each controller's files are
};

// Removes this process's own groups (killing what is in them): at exit, and before a stop signal
// ends the process.
void remove_own_cgroups();

// Removes the groups of arena processes that no longer run (after kill -9). Gives how many.
int remove_stale_cgroups();

// The folders arena creates its groups in ("arena-<pid>" under each hierarchy), for
// `arena sandbox --check` and tests.
std::vector<std::filesystem::path> own_cgroup_parents();

}  // namespace arena
