#pragma once
// Files the kernel makes up (/proc, /sys/fs/cgroup): a read may fail after the open succeeded,
// with ESRCH when the process has ended meanwhile, or ENODEV when the cgroup was removed.
// std::filebuf throws on such a failed read; these say "" instead.
#include <filesystem>
#include <string>

namespace arena {

// The whole file (bounded at 1 MB), or what was read before it ended or failed; "" when it
// cannot be opened.
std::string read_kernel_file(const std::filesystem::path& file);

}  // namespace arena
