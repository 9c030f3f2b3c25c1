// `arena handin check` end to end, with real hand-ins: a C++ Paper Soccer bot built by its
// Makefile, a Java Morris agent in a jar, and the ways a hand-in is rejected (no Main-Class, a
// failing build, a build that never ends, a forbidden flag, a path leaving the folder).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/handin_verdict.hpp"
#include "support/java_tools.hpp"
#include "support/process.hpp"
#include "support/soccer_bot_source.hpp"
#include "support/temp_dir.hpp"
#include "support/test_archive.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArchiveFormat;
using testing::Process;
using testing::TempDir;
using testing::TestArchive;

using testing::kSoccerBot;

struct Verdict {
  int exit = -1;
  pid_t pid = -1;
  std::string out, err, last_line;
};

Verdict check(const std::vector<std::string>& args, std::chrono::seconds timeout = 60s) {
  std::vector<std::string> argv = {ARENA_BINARY, "handin", "check"};
  argv.insert(argv.end(), args.begin(), args.end());
  Process p(argv);
  Verdict v;
  v.pid = p.pid();
  v.exit = p.wait(timeout).value_or(-1);
  v.out = p.out();
  v.err = p.err();
  std::string trimmed = v.out;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  v.last_line =
      trimmed.substr(trimmed.rfind('\n') == std::string::npos ? 0 : trimmed.rfind('\n') + 1);
  return v;
}

// A zip of one folder, "student/", with these files.
fs::path zip_of(const fs::path& dir,
                const std::vector<std::pair<std::string, std::string>>& files) {
  const fs::path zip = dir / "student.zip";
  TestArchive a(zip, ArchiveFormat::Zip);
  a.folder("student/");
  for (const auto& [name, content] : files) a.file("student/" + name, content);
  a.close();
  return zip;
}

TEST(HandinCheck, CppSoccerBotWithMakefileIsAccepted) {
  TempDir tmp;
  const fs::path zip = zip_of(tmp.path(), {{"bot.cpp", kSoccerBot},
                                           {"Makefile",
                                            "build:\n\tg++ -std=c++17 -o bot bot.cpp\n"
                                            "clean:\n\trm -f bot\n"}});
  const fs::path out = tmp.path() / "check";
  const Verdict v =
      check({"soccer", zip.string(), "--out", out.string(), "--move-time", "1000"}, 90s);
  ASSERT_EQ(v.exit, 0) << v.out << v.err;
  EXPECT_EQ(v.last_line.rfind("accepted: ./bot", 0), 0u) << v.out;
  EXPECT_NE(v.out.find("build:"), std::string::npos) << v.out;
  const auto verdict = nlohmann::json::parse(std::ifstream(out / "verdict.json"));
  EXPECT_EQ(verdict["verdict"], "accepted");
  ASSERT_EQ(verdict["games"].size(), 2u);
  for (const auto& g : verdict["games"]) {
    EXPECT_FALSE(g["fault"].get<bool>()) << g;
    EXPECT_TRUE(fs::exists(g["record"].get<std::string>())) << g;
  }
  EXPECT_TRUE(fs::exists(out / "build.log"));
  EXPECT_TRUE(fs::exists(out / "agent" / "student" / "bot"));
}

// Jars of the tests' Java classes, packed when the tests were built.
class HandinCheckJava : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = testing::java_programs_missing(ARENA_TEST_JAVA_AGENT);
    if (!missing.empty()) GTEST_SKIP() << missing;
    ASSERT_TRUE(fs::exists(ARENA_TEST_JAVA_AGENT)) << ARENA_TEST_JAVA_AGENT;
    ASSERT_TRUE(fs::exists(ARENA_TEST_JAVA_LIBRARY)) << ARENA_TEST_JAVA_LIBRARY;
  }
  // dir/agent.jar: with RandomMulinoAgent as its Main-Class when `main`, else without one.
  static fs::path make_jar(const fs::path& dir, bool main) {
    const fs::path jar = dir / "agent.jar";
    fs::copy_file(main ? ARENA_TEST_JAVA_AGENT : ARENA_TEST_JAVA_LIBRARY, jar);
    return jar;
  }
};

TEST_F(HandinCheckJava, MorrisJarIsAccepted) {
  TempDir tmp;
  const fs::path jar = make_jar(tmp.path(), true);
  const fs::path out = tmp.path() / "check";
  const Verdict v =
      check({"morris", jar.string(), "--out", out.string(), "--move-time", "1000"}, 120s);
  ASSERT_EQ(v.exit, 0) << v.out << v.err;
  EXPECT_EQ(v.last_line.rfind("accepted: java -jar", 0), 0u) << v.out;
  const auto verdict = nlohmann::json::parse(std::ifstream(out / "verdict.json"));
  ASSERT_EQ(verdict["games"].size(), 2u);
  EXPECT_EQ(verdict["games"][0]["side"], "white");
  EXPECT_EQ(verdict["games"][1]["side"], "black");
}

TEST_F(HandinCheckJava, JarWithoutMainClassIsRejected) {
  TempDir tmp;
  const fs::path jar = make_jar(tmp.path(), false);
  const Verdict v = check({"morris", jar.string(), "--out", (tmp.path() / "check").string()});
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line.rfind("rejected: ", 0), 0u) << v.out;
  EXPECT_NE(v.last_line.find("Main-Class"), std::string::npos) << v.out;
}

// A jar without Main-Class that arena.json runs anyway: the JVM's complaint, named.
TEST_F(HandinCheckJava, JarWithoutMainClassThroughManifestIsNamed) {
  TempDir tmp;
  const fs::path root = tmp.path() / "student";
  fs::create_directories(root);
  make_jar(root, false);
  std::ofstream(root / "arena.json") << R"({"run": "java -jar agent.jar {side}"})";
  const Verdict v = check({"morris", root.string(), "--out", (tmp.path() / "check").string()});
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line.rfind("rejected: as White it lost by its own fault: crash (White (handin) "
                              "exited with status 1 before connecting to the server (port ",
                              0),
            0u)
      << v.out;
  EXPECT_NE(v.last_line.find("; the jar has no Main-Class (java: no main manifest attribute))"),
            std::string::npos)
      << v.out;
}

// An agent that thinks long (here 700 ms a move) is checked in seconds: its games are stopped
// after a few plies.
TEST_F(HandinCheckJava, SlowThinkerIsCheckedQuicklyWithSmokePlies) {
  TempDir tmp;
  const fs::path root = tmp.path() / "student";
  fs::create_directories(root);
  make_jar(root, true);
  std::ofstream(root / "arena.json") << R"({"run": "java -jar agent.jar {side} 700"})";
  const fs::path out = tmp.path() / "check";
  const auto began = std::chrono::steady_clock::now();
  const Verdict v = check(
      {"morris", root.string(), "--out", out.string(), "--move-time", "3000", "--smoke-plies", "6"},
      120s);
  EXPECT_LT(std::chrono::steady_clock::now() - began, 60s);
  ASSERT_EQ(v.exit, 0) << v.out << v.err;
  const auto verdict = nlohmann::json::parse(std::ifstream(out / "verdict.json"));
  ASSERT_EQ(verdict["games"].size(), 2u);
  for (const auto& g : verdict["games"]) {
    EXPECT_EQ(g["reason"], "ply-limit") << g;
    EXPECT_EQ(g["detail"], "stopped after 6 plies (smoke game)") << g;
    EXPECT_EQ(g["plies"], 6) << g;
    EXPECT_EQ(g["result"], "draw") << g;
  }
  testing::expect_no_process_with(root.string(), /*grace=*/false);
}

TEST(HandinCheck, FailingBuildIsRejectedWithTheLogTail) {
  TempDir tmp;
  const fs::path zip = zip_of(tmp.path(), {{"bot.c", "int main( { return 0 }\n"},
                                           {"Makefile",
                                            "build:\n\tgcc -o bot bot.c\n"
                                            "clean:\n\trm -f bot\n"}});
  const Verdict v = check({"soccer", zip.string(), "--out", (tmp.path() / "check").string()});
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line, "rejected: the build failed (exit 2)") << v.out;
  EXPECT_NE(v.out.find("  | "), std::string::npos) << v.out;  // the log's tail
  EXPECT_NE(v.out.find("bot.c"), std::string::npos) << v.out;
}

TEST(HandinCheck, EndlessBuildIsStoppedAtItsTimeout) {
  TempDir tmp;
  // Two sleeps with numbers nothing else uses, one of them left behind in the background.
  const fs::path zip = zip_of(tmp.path(), {{"Makefile",
                                            "build:\n\tsleep 4711 & sleep 4712\n"
                                            "clean:\n\trm -f bot\n"}});
  const auto began = std::chrono::steady_clock::now();
  const Verdict v = check(
      {"soccer", zip.string(), "--out", (tmp.path() / "check").string(), "--build-timeout", "3"});
  EXPECT_LT(std::chrono::steady_clock::now() - began, 20s);
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line, "rejected: the build took longer than 3 s") << v.out;
  testing::expect_no_process_with("sleep 4711", /*grace=*/false);
  testing::expect_no_process_with("sleep 4712", /*grace=*/false);
  // Nor a cgroup of its (arena-<pid>, in any controller's hierarchy).
  const std::string cgroup = "arena-" + std::to_string(v.pid);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator("/sys/fs/cgroup", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() > 4) it.disable_recursion_pending();
    if (it->is_directory(ec) && it->path().filename().string().rfind(cgroup, 0) == 0)
      ADD_FAILURE() << "left behind: " << it->path();
  }
}

TEST(HandinCheck, BuildOverItsMemoryIsRejected) {
  TempDir tmp;
  const fs::path zip =
      zip_of(tmp.path(), {{"Makefile",
                           "build:\n\tpython3 -c 'b = bytearray(300 << 20); print(len(b))'\n"
                           "clean:\n\trm -f bot\n"}});
  const Verdict v = check({"soccer", zip.string(), "--out", (tmp.path() / "check").string(),
                           "--build-memory", "64", "--sandbox", "required"});
  if (v.exit == 2 && v.err.find("sandbox") != std::string::npos)
    GTEST_SKIP() << "no memory limit on this machine: " << v.err;
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line, "rejected: the build broke its memory limit") << v.out;
}

TEST(HandinCheck, ForbiddenFlagIsRejectedByName) {
  TempDir tmp;
  const fs::path zip = zip_of(tmp.path(), {{"bot.cpp", kSoccerBot},
                                           {"Makefile",
                                            "build:\n\tg++ -O2 -o bot bot.cpp\n"
                                            "clean:\n\trm -f bot\n"}});
  const Verdict v = check(
      {"soccer", zip.string(), "--out", (tmp.path() / "check").string(), "--forbid-flags", "-O*"});
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line, "rejected: forbidden flag -O2 in Makefile line 2: g++ -O2 -o bot bot.cpp")
      << v.out;
}

TEST(HandinCheck, ZipSlipIsRejected) {
  TempDir tmp;
  const fs::path zip = tmp.path() / "slip.zip";
  {
    TestArchive a(zip, ArchiveFormat::Zip);
    a.file("student/Makefile", "build:\n\ttrue\n");
    a.file("../../evil.sh", "echo owned\n");
    a.close();
  }
  const Verdict v =
      check({"soccer", zip.string(), "--out", (tmp.path() / "check").string(), "--json"});
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["verdict"], "rejected");
  EXPECT_NE(j["reason"].get<std::string>().find(".."), std::string::npos) << j;
  EXPECT_FALSE(fs::exists(tmp.path() / "evil.sh"));
  EXPECT_FALSE(fs::exists(tmp.path().parent_path() / "evil.sh"));
}

// A Fission hand-in whose arena.json runs arena's own client: the line protocol's smoke games,
// and the report as one JSON object.
TEST(HandinCheck, FissionManifestWithJsonReport) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "carol";
  fs::create_directories(dir);
  std::ofstream(dir / "arena.json")
      << nlohmann::json{{"run", std::string(ARENA_BINARY) +
                                    " connect fission {host} {port} --player random "
                                    "--moves-per-player 10 --move-time {move_ms}"}}
             .dump();
  const fs::path out = tmp.path() / "check";
  const Verdict v =
      check({"fission", dir.string(), "--out", out.string(), "--move-time", "500", "--json"});
  ASSERT_EQ(v.exit, 0) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["verdict"], "accepted") << j;
  EXPECT_EQ(j["how"], "arena.json");
  ASSERT_EQ(j["games"].size(), 2u);
  for (const auto& g : j["games"]) {
    EXPECT_FALSE(g["fault"].get<bool>()) << g;
    EXPECT_LE(g["plies"].get<int>(), 20) << g;  // ten moves each at most
  }
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(out / "verdict.json")), j);
}

TEST(HandinCheck, BadUsageExitsTwo) {
  const Verdict v = check({"nosuchgame", "/nonexistent"});
  EXPECT_EQ(v.exit, 2) << v.out << v.err;
}

}  // namespace
}  // namespace arena
