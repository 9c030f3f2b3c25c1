#include "core/memory_limit.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "games/soccer/mcts.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(MemoryLimit, CgroupV2TakesTheTightestLimitUpTheTree) {
  testing::TempDir root;
  write(root.path() / "arena-1/memory.max", "max\n");
  write(root.path() / "arena-1/agent-2/memory.max", "536870912\n");
  write(root.path() / "arena-1/agent-2/inner/memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit("0::/arena-1/agent-2/inner\n", root.path()), 536870912u);
  write(root.path() / "arena-1/memory.max", "268435456\n");
  EXPECT_EQ(cgroup_memory_limit("0::/arena-1/agent-2/inner\n", root.path()), 268435456u);
}

TEST(MemoryLimit, CgroupV1ReadsTheMemoryHierarchy) {
  testing::TempDir root;
  // v1's "no limit" is a number close to 2^63; the cpu hierarchy's files are not memory limits.
  write(root.path() / "memory/memory.limit_in_bytes", "9223372036854771712\n");
  write(root.path() / "memory/arena-7/a/memory.limit_in_bytes", "1073741824\n");
  write(root.path() / "cpu,cpuacct/arena-7/a/memory.limit_in_bytes", "1\n");
  const std::string cgroup =
      "12:cpu,cpuacct:/arena-7/a\n4:memory:/arena-7/a\n1:name=systemd:/\n0::/\n";
  EXPECT_EQ(cgroup_memory_limit(cgroup, root.path()), 1073741824u);
}

TEST(MemoryLimit, NoLimitWhenNothingIsSetOrReadable) {
  testing::TempDir root;
  write(root.path() / "memory/memory.limit_in_bytes", "9223372036854771712\n");
  write(root.path() / "unified/memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit("4:memory:/\n0::/\n", root.path()), std::nullopt);
  EXPECT_EQ(cgroup_memory_limit("4:memory:/not/there\n", root.path()), std::nullopt);
  EXPECT_EQ(cgroup_memory_limit("garbage\n0::../../etc\n\n", root.path()), std::nullopt);
  write(root.path() / "memory/x/memory.limit_in_bytes", "12 potatoes\n");
  EXPECT_EQ(cgroup_memory_limit("4:memory:/x\n", root.path()), std::nullopt);
}

// A real limit: a child process whose address space may grow by 1 GiB more sees the limit (set
// above what it has mapped already, which under AddressSanitizer is terabytes of shadow).
TEST(MemoryLimit, SeesTheAddressSpaceLimit) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    if (!(statm >> pages)) ::_exit(2);
    const std::uint64_t bytes =
        pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) + (std::uint64_t{1} << 30);
    const rlimit limit{bytes, bytes};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(3);
    const auto seen = process_memory_limit();
    ::_exit(seen && *seen <= bytes ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(MemoryLimit, PaperSoccerTreesTakeHalfALimit) {
  EXPECT_EQ(soccer::trees_within(std::nullopt), std::nullopt);
  EXPECT_EQ(soccer::trees_within(std::uint64_t{512} << 20), std::size_t{256} << 20);
}

}  // namespace
}  // namespace arena
