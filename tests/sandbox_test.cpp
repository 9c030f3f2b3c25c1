// The agents' sandbox against hostile agents, with real processes: `arena tournament` events in
// which one participant misbehaves (tests/support/hostile_agent.cpp, bounded by itself), and what
// the event, the records and the machine look like afterwards. Each test needs the protections it
// tests; on a machine without them it is skipped, naming what is missing.
//
// These tests run one at a time (RUN_SERIAL): they fill memory, fork and spin by design, and one
// of them compares CPU time.
#include "referee/sandbox.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "referee/cgroup.hpp"
#include "support/event_files.hpp"
#include "support/java_tools.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "tournament/participants.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::read_json;
using testing::TempDir;
namespace fs = std::filesystem;

#define REQUIRE_PROTECTIONS(...)                                             \
  do {                                                                       \
    const SandboxSupport& s = probe_sandbox(AgentChannel::Tcp);              \
    for (Protection p : {__VA_ARGS__})                                       \
      if (!s.has(p))                                                         \
        GTEST_SKIP() << "this machine cannot enforce '" << protection_key(p) \
                     << "': " << s.why_not[static_cast<std::size_t>(p)];     \
  } while (false)

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A machine much slower than real hardware (the cgroup v2 guest of tests/vm, whose CPUs are
// emulated) sets ARENA_TEST_TIME_SCALE: agents get that many times longer for their work before
// they connect, and the waits for whole events are as much longer. What is asserted is the same.
int time_scale() {
  const char* s = std::getenv("ARENA_TEST_TIME_SCALE");
  return std::max(s ? std::atoi(s) : 1, 1);
}

std::string scaled_seconds(int s) {
  return std::to_string(s * time_scale());
}

std::string hostile(const std::string& args) {
  return std::string(HOSTILE_AGENT) + " " + args;
}

// Runs a Fission event and gives its results.json; the event must complete.
nlohmann::json run_event(const fs::path& dir, const fs::path& participants,
                         std::vector<std::string> extra, std::string* out = nullptr) {
  std::vector<std::string> argv = {
      ARENA_BINARY, "tournament", "fission",   "-f",      participants.string(), "-o", dir.string(),
      "--warmup",   "0.1",        "--sandbox", "required"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  Process p(argv);
  const auto code = p.wait(300s * time_scale());
  if (out) *out = p.out() + p.err();
  EXPECT_EQ(code, 0) << p.out() << p.err();
  return read_json(dir / "results.json");
}

// Command lines of running processes that contain `marker`.
std::vector<std::string> processes_with(const std::string& marker) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = read_text(e.path() / "cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(marker) != std::string::npos && std::stoi(name) != ::getpid())
      found.push_back(name + ": " + cmdline);
  }
  return found;
}

void expect_none_left(const std::string& marker) {
  // Killed processes may take a moment to be gone from /proc.
  for (int i = 0; i < 100 && !processes_with(marker).empty(); ++i)
    std::this_thread::sleep_for(50ms);
  const auto left = processes_with(marker);
  EXPECT_TRUE(left.empty()) << left.size() << " left, e.g. " << left.front();
}

// The games `name` played, from results.json.
std::vector<nlohmann::json> games_of(const nlohmann::json& results, const std::string& name) {
  std::vector<nlohmann::json> out;
  for (const auto& g : results["games"])
    if (g["white"] == name || g["black"] == name) out.push_back(g);
  return out;
}

bool lost(const nlohmann::json& game, const std::string& name) {
  return (game["white"] == name && game["winner"] == "black") ||
         (game["black"] == name && game["winner"] == "white");
}

TEST(Sandbox, ParticipantLinesCarryTheirSandbox) {
  auto p = tournament::parse_participant(
      "bob: dir=/srv/bob memory=512 cpus=2 processes=64 log=3 command java -jar bob.jar");
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(p.value->name, "bob");
  EXPECT_EQ(p.value->dir, "/srv/bob");
  EXPECT_EQ(p.value->memory_bytes, 512 * kMiB);
  EXPECT_EQ(p.value->cpus, 2);
  EXPECT_EQ(p.value->max_processes, 64);
  EXPECT_EQ(p.value->log_bytes, 3 * kMiB);
  EXPECT_EQ(p.value->command, "java -jar bob.jar");
  auto engine = tournament::parse_participant("memory=100 engine time=200");
  ASSERT_TRUE(engine) << engine.error;
  EXPECT_EQ(engine.value->time_ms, 200);
  EXPECT_EQ(engine.value->memory_bytes, 100 * kMiB);
  EXPECT_FALSE(tournament::parse_participant("memory=8 random")) << "below 16 MB";
  EXPECT_FALSE(tournament::parse_participant("cpus=0 random"));
  EXPECT_FALSE(tournament::parse_participant("dir= random"));
}

TEST(Sandbox, CheckCommandNamesEveryProtection) {
  Process p({ARENA_BINARY, "sandbox", "--check"});
  const auto code = p.wait(60s);
  ASSERT_TRUE(code.has_value());
  for (Protection prot : kAllProtections)
    EXPECT_NE(p.out().find(std::string("  ") + std::string(protection_key(prot)) + " "),
              std::string::npos)
        << p.out();
  bool all = true;
  for (Protection prot : kAllProtections)
    all = all && probe_sandbox(AgentChannel::Tcp).has(prot) &&
          probe_sandbox(AgentChannel::Pipes).has(prot);
  EXPECT_EQ(*code, all ? 0 : 1) << p.out();
}

TEST(Sandbox, MemoryHogLosesWhileAnotherGameFinishes) {
  REQUIRE_PROTECTIONS(Protection::Memory, Protection::Files, Protection::Network,
                      Protection::Processes, Protection::Cpu, Protection::User);
  TempDir tmp;
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "hog: command " << hostile("hog 3072 " + tmp.path().string()) << "\n"
                      << "greedy: greedy\nrnd: random\n";
  std::string out;
  const auto results = run_event(tmp.path() / "event", file,
                                 {"-j", "2", "--connect-timeout", scaled_seconds(30), "--move-time",
                                  "300", "--moves-per-player", "10"},
                                 &out);
  const std::string hog = "hog";
  ASSERT_EQ(results["games_played"], 6) << out;
  for (const auto& g : results["games"]) {
    if (g["white"] == hog || g["black"] == hog) {
      EXPECT_TRUE(lost(g, hog)) << g;
      EXPECT_EQ(g["reason"], "memory-limit") << g;
      EXPECT_EQ(g["end"], "limit") << g;
      const auto record = read_json(tmp.path() / "event" / g["record"].get<std::string>());
      const std::string side = g["white"] == hog ? "white" : "black";
      EXPECT_GE(record["sandbox"][side]["peak_memory_bytes"].get<std::uint64_t>(), 1900 * kMiB)
          << record["sandbox"];
      EXPECT_EQ(record["sandbox"][side]["limit_broken"], "memory-limit");
      EXPECT_EQ(record["sandbox"]["limits"][side]["memory_bytes"], 2048 * kMiB);
    } else {
      // Played to its end by the rules, at the same time as the hog's games.
      EXPECT_TRUE(g["end"] == "win" || g["end"] == "draw") << g;
      EXPECT_GT(g["plies"].get<int>(), 0) << g;
    }
  }
  expect_none_left(tmp.path().string());
}

TEST(Sandbox, ForkBombLosesAndTheMachineGoesOn) {
  REQUIRE_PROTECTIONS(Protection::Processes, Protection::Files, Protection::Network);
  TempDir tmp;
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "bomb: command " << hostile("forkbomb " + tmp.path().string()) << "\n"
                      << "rnd: random\n";
  std::string out;
  const auto results = run_event(tmp.path() / "event", file,
                                 {"--connect-timeout", "5", "--max-processes", "64"}, &out);
  const std::string bomb = "bomb";
  ASSERT_EQ(results["games_played"], 2) << out;
  for (const auto& g : games_of(results, bomb)) {
    EXPECT_TRUE(lost(g, bomb)) << g;
    EXPECT_EQ(g["reason"], "too-many-processes") << g;
  }
  expect_none_left(tmp.path().string());
  // The machine still starts processes and plays.
  const auto after = tmp.path() / "after.txt";
  std::ofstream(after) << "greedy\nrandom\n";
  const auto again = run_event(tmp.path() / "again", after, {"--moves-per-player", "5"});
  EXPECT_EQ(again["games_played"], 2);
}

// The CPU time participant `name` got per second of its turns (its moves of 20 ms or more, as
// the server measured them): about 1 on a core of its own, less on a shared one.
double cpu_share(const fs::path& event, const nlohmann::json& results, const std::string& name) {
  long long cpu = 0, wall = 0;
  for (const auto& g : results["games"]) {
    const std::string side = g["white"] == name ? "white" : g["black"] == name ? "black" : "";
    if (side.empty()) continue;
    const auto record = read_json(event / g["record"].get<std::string>());
    for (const auto& m : record["moves"])
      if (m["side"] == side && m.contains("cpu_ms") && m["time_ms"].get<long long>() >= 20) {
        cpu += m["cpu_ms"].get<long long>();
        wall += m["time_ms"].get<long long>();
      }
  }
  return wall > 0 ? static_cast<double>(cpu) / static_cast<double>(wall) : 0.0;
}

TEST(Sandbox, BusyThreadsDuringTheOpponentsTurnDoNotTakeItsTime) {
  REQUIRE_PROTECTIONS(Protection::Cpu, Protection::Files, Protection::Network);
  // Own cores help only where cores are independent; a host that caps a virtual machine's CPU
  // below its core count makes every core slow down when another is busy.
  const auto neighbour = neighbour_core_share(500ms);
  if (!neighbour || *neighbour < 0.8)
    GTEST_SKIP() << "this machine's cores are not independent: a busy core leaves its neighbour "
                 << (neighbour ? *neighbour * 100 : 0) << "% of a core";
  TempDir tmp;
  // The engine searches by the clock: a core shared with a spinner would give it less CPU time
  // per move. Against a quiet opponent and against one spinning 4 threads, it must get the same.
  const std::string spinner = fmt::format(
      "command sh -c '{} spin 4 20 {} & exec {} connect fission \"$0\" \"$1\" --player random'",
      HOSTILE_AGENT, tmp.path().string(), ARENA_BINARY);
  double share[2];
  for (int run = 0; run < 2; ++run) {
    const auto file = tmp.path() / fmt::format("participants{}.txt", run);
    std::ofstream(file) << "eng: engine time=250\n"
                        << "opp: " << (run == 0 ? std::string("random") : spinner) << "\n";
    const auto event = tmp.path() / fmt::format("event{}", run);
    std::string out;
    const auto results = run_event(
        event, file, {"--move-time", "1000", "--moves-per-player", "8", "--cpus-per-agent", "1"},
        &out);
    share[run] = cpu_share(event, results, "eng");
    ASSERT_GT(share[run], 0.0) << "the engine must think; " << out;
  }
  const std::string measured = fmt::format(
      "CPU time per second of the engine's turns: {:.3f} against a quiet opponent, {:.3f} against "
      "one spinning 4 threads (a busy core left its neighbour {:.0f}% of a core)",
      share[0], share[1], *neighbour * 100);
  std::printf("%s\n", measured.c_str());  // the figures, also when they pass
  EXPECT_GE(share[1], 0.8 * share[0]) << measured;
  expect_none_left(tmp.path().string());
}

TEST(Sandbox, AgentSeesNeitherOtherAgentsNorTheEvent) {
  REQUIRE_PROTECTIONS(Protection::Files, Protection::User, Protection::Network);
  TempDir tmp;
  const auto alice = tmp.path() / "alice", mallory = tmp.path() / "mallory";
  fs::create_directories(alice);
  fs::create_directories(mallory);
  std::ofstream(alice / "secret.txt") << "ALICE-SECRET-42\n";
  fs::permissions(tmp.path(), fs::perms::all, fs::perm_options::add);
  const auto event = tmp.path() / "event";
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "alice: dir=" << alice.string() << " random\n"
                      << "mallory: dir=" << mallory.string() << " command "
                      << hostile("files " + (alice / "secret.txt").string() + " " + event.string())
                      << "\n";
  const auto results = run_event(event, file, {"--connect-timeout", "2"});
  ASSERT_EQ(results["games_played"], 2);
  bool seen = false;
  for (const auto& entry : fs::directory_iterator(event / "games")) {
    const std::string name = entry.path().filename().string();
    const bool mallory_white = name.find("-mallory-vs-") != std::string::npos;
    const std::string log_side = mallory_white ? ".white.log" : ".black.log";
    if (name.size() < log_side.size() || name.substr(name.size() - log_side.size()) != log_side ||
        name.find("mallory") == std::string::npos)
      continue;
    const std::string log = read_text(entry.path());
    seen = true;
    EXPECT_NE(log.find("read-secret: failed"), std::string::npos) << log;
    EXPECT_EQ(log.find("ALICE-SECRET-42"), std::string::npos) << log;
    EXPECT_EQ(log.find("write-event: written"), std::string::npos) << log;
    EXPECT_EQ(log.find("write-own: written"), std::string::npos) << log;
    EXPECT_NE(log.find("write-scratch: written"), std::string::npos) << log;
  }
  EXPECT_TRUE(seen) << "no log of mallory's";
  EXPECT_FALSE(fs::exists(event / "pwned"));
  EXPECT_FALSE(fs::exists(mallory / "own-folder-file"));
  EXPECT_EQ(read_text(alice / "secret.txt"), "ALICE-SECRET-42\n");
}

TEST(Sandbox, AgentReachesNoOtherAddressNorAnotherGamesPort) {
  REQUIRE_PROTECTIONS(Protection::Network);
  TempDir tmp;
  // A port open on this machine's loopback, as another game's server would be.
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  socklen_t len = sizeof a;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "prober: command " << hostile(fmt::format("net {}", port)) << "\n"
                      << "rnd: random\n";
  const auto event = tmp.path() / "event";
  const auto results = run_event(event, file, {"--connect-timeout", "4"});
  ASSERT_EQ(results["games_played"], 2);
  for (const char* log : {"001-prober-vs-rnd.white.log", "002-rnd-vs-prober.black.log"}) {
    const std::string text = read_text(event / "games" / log);
    EXPECT_NE(text.find("other-port: "), std::string::npos) << text;
    EXPECT_EQ(text.find("other-port: connected"), std::string::npos) << text;
    EXPECT_NE(text.find("outside: "), std::string::npos) << text;
    EXPECT_EQ(text.find("outside: connected"), std::string::npos) << text;
  }
  EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "nobody may have connected";
  ::close(listener);
}

TEST(Sandbox, GigabyteOfOutputLeavesACappedLog) {
  TempDir tmp;  // the cap needs no kernel protection
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "talker: command " << hostile("print 1024 " + tmp.path().string())
                      << "\nrnd: random\n";
  const auto event = tmp.path() / "event";
  std::vector<std::string> argv = {
      ARENA_BINARY,   "tournament",        "fission", "-f",          file.string(), "-o",
      event.string(), "--connect-timeout", "60",      "--log-limit", "1",           "--sandbox",
      "auto",         "--warmup",          "0.1"};
  Process p(argv);
  ASSERT_EQ(p.wait(300s), 0) << p.out() << p.err();
  const auto log = event / "games" / "001-talker-vs-rnd.white.log";
  const std::string text = read_text(log);
  EXPECT_LE(text.size(), kMiB + 200);
  EXPECT_EQ(text.rfind("[arena: the first ", 0), 0u) << text.substr(0, 200);
  EXPECT_NE(text.find("END-OF-OUTPUT"), std::string::npos) << "the tail is kept";
  expect_none_left(tmp.path().string());
}

// A course's own kind of agent: a Java program (tests/java/RandomMulinoAgent.java, the Bologna
// course's classes and protocol) packed in a jar and started with plain `java -jar`, default JVM
// flags, inside the course's 2 GB.
TEST(Sandbox, JavaAgentWithDefaultFlagsPlaysWholeGamesInsideTwoGigabytes) {
  REQUIRE_PROTECTIONS(Protection::Memory, Protection::Files, Protection::User, Protection::Network);
  const std::string javac = testing::find_java_tool("javac"), jar = testing::find_java_tool("jar");
  if (javac.empty() || jar.empty() || testing::find_java_tool("java").empty())
    GTEST_SKIP() << "no JDK found: bash scripts/setup.sh installs default-jdk-headless";
  TempDir tmp;
  std::vector<std::string> compile = {javac, "-d", (tmp.path() / "classes").string()};
  for (const auto& e : fs::recursive_directory_iterator(ARENA_TEST_JAVA))
    if (e.path().extension() == ".java") compile.push_back(e.path().string());
  Process javac_run(compile);
  ASSERT_EQ(javac_run.wait(180s), 0) << javac_run.err();
  const auto agent_dir = tmp.path() / "javabot";
  fs::create_directories(agent_dir);
  Process pack({jar, "cfe", (agent_dir / "agent.jar").string(), "RandomMulinoAgent", "-C",
                (tmp.path() / "classes").string(), "."});
  ASSERT_EQ(pack.wait(60s), 0) << pack.err();

  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "javabot: dir=" << agent_dir.string() << " command java -jar agent.jar\n"
                      << "rnd: random\n";
  const auto event = tmp.path() / "event";
  Process p({ARENA_BINARY, "tournament", "morris", "-f", file.string(), "-o", event.string(),
             "--sandbox", "required", "--move-time", std::to_string(5000 * time_scale()),
             "--connect-timeout", scaled_seconds(60)});
  ASSERT_EQ(p.wait(300s * time_scale()), 0) << p.out() << p.err();
  const auto results = read_json(event / "results.json");
  ASSERT_EQ(results["games_played"], 2) << p.out();
  for (const auto& g : results["games"]) {
    // Ended by the rules of the game, not by a fault of either side.
    EXPECT_TRUE(g["end"] == "win" || g["end"] == "draw") << g;
    EXPECT_GE(g["plies"].get<int>(), 18) << "past the placing phase: " << g;
    const auto record = read_json(event / g["record"].get<std::string>());
    const std::string side = g["white"] == "javabot" ? "white" : "black";
    const auto& sandbox = record["sandbox"];
    EXPECT_EQ(sandbox["limits"][side]["memory_bytes"], 2048 * kMiB) << "the course's default";
    EXPECT_FALSE(sandbox[side].contains("limit_broken")) << sandbox;
    const auto peak = sandbox[side]["peak_memory_bytes"].get<std::uint64_t>();
    EXPECT_GT(peak, 16 * kMiB) << "a JVM ran";
    EXPECT_LT(peak, 2048 * kMiB);
    // The JVM sized its default heap from the cgroup's 2 GB (a quarter of it), not from the
    // machine's memory.
    fs::path log_path = event / g["record"].get<std::string>();
    const std::string log = read_text(log_path.replace_extension("." + side + ".log"));
    const auto at = log.find(" MB of max ");
    ASSERT_NE(at, std::string::npos) << "the agent played to the end: " << log;
    const long max_heap_mb = std::stol(log.substr(at + 11));
    EXPECT_GT(max_heap_mb, 256) << log;
    EXPECT_LE(max_heap_mb, 512) << log;
  }
  expect_none_left(tmp.path().string());
}

// The groups of arena process `pid`, where the test process would make its own.
std::vector<fs::path> cgroups_of(pid_t pid) {
  std::vector<fs::path> out;
  for (const auto& mine : own_cgroup_parents())
    out.push_back(mine.parent_path() / ("arena-" + std::to_string(pid)));
  return out;
}

std::size_t mount_count() {
  std::ifstream in("/proc/self/mountinfo");
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

TEST(Sandbox, KillNineAndResumeLeaveNoProcessCgroupOrMount) {
  REQUIRE_PROTECTIONS(Protection::Memory, Protection::Files, Protection::Network);
  TempDir tmp;
  const std::size_t mounts_before = mount_count();
  const auto file = tmp.path() / "participants.txt";
  // A mark only the slow agent's processes carry (arena's own command line names the folder).
  const std::string mark = "slow-agent-" + tmp.path().filename().string();
  // It never connects: it loses each game at the 3 s connect timeout.
  const std::string slow = fmt::format("command sh -c 'sleep 30 # {}' ", mark);
  std::ofstream(file) << "slow: " << slow << "\nrnd: random\nengine depth=1\n";
  const auto event = tmp.path() / "event";
  Process first({ARENA_BINARY, "tournament", "fission", "-f", file.string(), "-o", event.string(),
                 "--sandbox", "required", "--connect-timeout", "3", "--warmup", "0.1"});
  // Wait until the first game's agent runs, then kill arena without warning. The agent's own
  // command, not only bubblewrap (whose command line carries the mark too): until bubblewrap has
  // started the command, the chain of its processes that die with their parent is not complete,
  // and what a kill then leaves is for the resume below to sweep.
  const auto agent_running = [&] {
    for (const auto& p : processes_with(mark))
      if (p.find("bwrap") == std::string::npos) return true;
    return false;
  };
  for (int i = 0; i < 400 && !agent_running(); ++i) std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(agent_running()) << first.out() << first.err();
  const pid_t dead = first.pid();
  first.kill(SIGKILL);
  first.wait(10s);
  expect_none_left(mark);
  for (const auto& folder : cgroups_of(dead)) {
    if (fs::exists(folder / "cgroup.procs")) {
      EXPECT_EQ(read_text(folder / "cgroup.procs"), "") << folder;
    }
  }
  // The resumed event plays what is missing and sweeps what the killed one left.
  Process resumed({ARENA_BINARY, "tournament", "--resume", event.string(), "--quiet"});
  ASSERT_EQ(resumed.wait(300s), 0) << resumed.out() << resumed.err();
  EXPECT_EQ(read_json(event / "results.json")["games_played"], 6);
  for (const auto& folder : cgroups_of(dead)) EXPECT_FALSE(fs::exists(folder)) << folder;
  for (const auto& folder : cgroups_of(resumed.pid())) EXPECT_FALSE(fs::exists(folder)) << folder;
  expect_none_left(tmp.path().string());
  EXPECT_EQ(mount_count(), mounts_before);
}

}  // namespace
}  // namespace arena
