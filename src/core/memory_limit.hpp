#pragma once
// The memory this process may use, as a sandbox or a course's limit sets it: the memory limit of
// its cgroup and of every cgroup above it (v2 memory.max, v1 memory.limit_in_bytes), and its
// address-space and data limits (setrlimit). An engine sizes its tables from it, as a JVM sizes
// its heap, so that a tighter limit than the default never kills it in the middle of a game.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace arena {

// The tightest of the process's memory limits; none when nothing limits it.
std::optional<std::uint64_t> process_memory_limit();

// The cgroup part of it, from the text of /proc/self/cgroup and the cgroup file systems mounted
// under `cgroup_root` (/sys/fs/cgroup). Unreadable files count as no limit. For tests.
std::optional<std::uint64_t> cgroup_memory_limit(std::string_view proc_self_cgroup,
                                                 const std::filesystem::path& cgroup_root);

}  // namespace arena
