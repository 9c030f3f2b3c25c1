// Reading files of /proc whose process ends between the open and the read (the tests' and the
// event status's scans of /proc meet this whenever a process ends during the scan).
#include "core/kernel_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

namespace {

// A child that sleeps, its cmdline opened, then killed and reaped: /proc/self/fd/N reopens the
// ended process's file, whose reads fail with ESRCH.
struct EndedProcessFile {
  EndedProcessFile() {
    child = ::fork();
    if (child == 0) {
      ::execlp("sleep", "sleep", "60", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    fd = ::open(("/proc/" + std::to_string(child) + "/cmdline").c_str(), O_RDONLY | O_CLOEXEC);
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  ~EndedProcessFile() { ::close(fd); }
  pid_t child = -1;
  int fd = -1;
  std::string path;
};

TEST(KernelFile, ProcessEndedBetweenOpenAndReadReadsEmpty) {
  EndedProcessFile ended;
  ASSERT_GE(ended.fd, 0);
  // What std::filebuf does with it: the failure this reader is for.
  std::ifstream in(ended.path, std::ios::binary);
  ASSERT_TRUE(in.is_open());
  EXPECT_THROW((std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())),
               std::ios_base::failure);
  EXPECT_EQ(arena::read_kernel_file(ended.path), "");
}

TEST(KernelFile, ReadsAWholeFileAndNothingForAMissingOne) {
  const std::string cmdline = arena::read_kernel_file("/proc/self/cmdline");
  EXPECT_NE(cmdline.find("arena_tests"), std::string::npos) << cmdline;
  EXPECT_EQ(arena::read_kernel_file("/proc/self/no-such-file"), "");
  EXPECT_EQ(arena::read_kernel_file("/proc/self/status").rfind("Name:", 0), 0u);
}

}  // namespace
