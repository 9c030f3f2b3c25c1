// One run of a command to its end (run_sandboxed): how it ended, its output file, and a command
// that outlives its time. Without a sandbox here; sandbox_test.cpp runs commands confined.
#include "sandbox/sandboxed_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace arena {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
}

TEST(SandboxedRun, SaysHowACommandEndedAndKeepsItsOutput) {
  const auto log = temp_file("arena-sandboxed-run");
  const RunOutcome r =
      run_sandboxed({"echo built; exit 3", {}, log, {}, 0}, SandboxPlan{}, {}, {seconds(20)});
  EXPECT_TRUE(r.by_itself);
  EXPECT_FALSE(r.clean);
  EXPECT_EQ(r.status, "exited with status 3");
  EXPECT_FALSE(r.breach);
  EXPECT_TRUE(r.usage.is_null());  // no sandbox, nothing measured
  EXPECT_EQ(read_all(log), "built\n");
  std::filesystem::remove(log);
}

TEST(SandboxedRun, ACleanExitIsClean) {
  const RunOutcome r = run_sandboxed({"true", {}, {}, {}, 0}, SandboxPlan{}, {}, {seconds(20)});
  EXPECT_TRUE(r.by_itself);
  EXPECT_TRUE(r.clean);
  EXPECT_EQ(r.status, "exited with status 0");
}

TEST(SandboxedRun, ACommandOverItsTimeIsKilled) {
  const RunOutcome r =
      run_sandboxed({"sleep 30", {}, {}, {}, 0}, SandboxPlan{}, {}, {milliseconds(200)});
  EXPECT_FALSE(r.by_itself);
  EXPECT_FALSE(r.clean);
  EXPECT_NE(r.status.find("killed by signal 9"), std::string::npos) << r.status;
  EXPECT_GE(r.wall, milliseconds(200));
  EXPECT_LT(r.wall, seconds(20));
}

TEST(SandboxedRun, ABusyLoopIsStoppedAtItsCpuTime) {
  const SandboxPlan plan = plan_sandbox(SandboxMode::Auto, AgentChannel::Pipes);
  if (!jail_for(plan, {}) || !jail_for(plan, {})->cpu())
    GTEST_SKIP() << "no cgroup measures CPU time here";
  // Bounded by itself too: `timeout` ends the loop after 20 s whatever arena does.
  const RunOutcome r = run_sandboxed({"timeout 20 sh -c 'while :; do :; done'", {}, {}, {}, 0},
                                     plan, {}, {seconds(30), milliseconds(300)});
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->reason, kCpuTimeLimitReason);
  EXPECT_NE(r.breach->detail.find("over its limit of 0.3 s"), std::string::npos)
      << r.breach->detail;
  EXPECT_TRUE(r.by_itself);
  EXPECT_FALSE(r.clean);
  EXPECT_LT(r.wall, seconds(15));
}

TEST(SandboxedRun, NoJailWhenThePlanEnforcesNothing) {
  EXPECT_EQ(jail_for(SandboxPlan{}, {}), nullptr);
}

}  // namespace
}  // namespace arena
