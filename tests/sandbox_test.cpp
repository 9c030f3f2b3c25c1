// The agents' sandbox against hostile agents, with real processes: `arena tournament` events in
// which one participant misbehaves (tests/support/hostile_agent.cpp, bounded by itself), and what
// the event, the records and the machine look like afterwards. Each test needs the protections it
// tests; on a machine without them it is skipped, naming what is missing.
//
// These tests run one at a time (RUN_SERIAL): they fill memory, fork and spin by design, and one
// of them compares CPU time.
#include "sandbox/sandbox.hpp"

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

#include "sandbox/agent_view.hpp"
#include "sandbox/cgroup.hpp"
#include "sandbox/shell_words.hpp"
#include "support/event_files.hpp"
#include "support/java_tools.hpp"
#include "support/leftovers.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/time_scale.hpp"
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

// ARENA_TEST_TIME_SCALE (support/time_scale.hpp): agents get that many times longer for their
// work before they connect, and the waits for whole events are as much longer.
using testing::time_scale;

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
  testing::expect_no_process_with(tmp.path().string());
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
  testing::expect_no_process_with(tmp.path().string());
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
  testing::expect_no_process_with(tmp.path().string());
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
  testing::expect_no_process_with(tmp.path().string());
}

// A course's own kind of agent: a Java program (tests/java/RandomMulinoAgent.java, the Bologna
// course's classes and protocol) packed in a jar at build time and started with plain
// `java -jar`, default JVM flags, inside the course's 2 GB.
TEST(Sandbox, JavaAgentWithDefaultFlagsPlaysWholeGamesInsideTwoGigabytes) {
  REQUIRE_PROTECTIONS(Protection::Memory, Protection::Files, Protection::User, Protection::Network);
  const fs::path built_jar = ARENA_TEST_JAVA_AGENT;
  const std::string missing = testing::java_programs_missing(built_jar);
  if (!missing.empty()) GTEST_SKIP() << missing;
  ASSERT_TRUE(fs::exists(built_jar)) << built_jar;
  TempDir tmp;
  const auto agent_dir = tmp.path() / "javabot";
  fs::create_directories(agent_dir);
  fs::copy_file(built_jar, agent_dir / "agent.jar");

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
  testing::expect_no_process_with(tmp.path().string());
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
    for (const auto& p : testing::processes_with(mark))
      if (p.find("bwrap") == std::string::npos) return true;
    return false;
  };
  // Seen once is enough, and asking again is not: a process in the middle of execve (setpriv
  // becoming the agent's shell) shows an empty command line, long enough on an emulated CPU.
  bool seen = false;
  for (int i = 0; i < 400 && !(seen = agent_running()); ++i) std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(seen) << first.out() << first.err();
  const pid_t dead = first.pid();
  first.kill(SIGKILL);
  first.wait(10s);
  testing::expect_no_process_with(mark);
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
  testing::expect_no_process_with(tmp.path().string());
  EXPECT_EQ(mount_count(), mounts_before);
}

// Runs argv in `dir`, as a user types a command in a folder of their own.
Process run_in(const fs::path& dir, std::vector<std::string> argv) {
  argv.insert(argv.begin(), {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", dir.string()});
  return Process(argv);
}

// A reference-bot wrapper with the course's calling convention: `AI-Linux64 <A|B> <level> SEED`.
fs::path reference_wrapper(const fs::path& dir) {
  fs::create_directories(dir);
  const fs::path script = dir / "AI-Linux64";
  std::ofstream(script) << "#!/bin/sh\nexec '" << ARENA_BINARY
                        << "' soccer-ref silent \"$2\" \"$3\"\n";
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  return script;
}

bool agents_run_as_another_user() {
  const SandboxSupport& s = probe_sandbox(AgentChannel::Pipes);
  return s.root && s.has(Protection::User) && s.has(Protection::Files);
}

TEST(Sandbox, CommandProgramIsReadAsTheShellReadsIt) {
  auto program = [](const std::string& command) {
    return command_program(shell_words(command)).value_or("<shell>");
  };
  EXPECT_EQ(program("/opt/course/AI-Linux64 A 2 42"), "/opt/course/AI-Linux64");
  EXPECT_EQ(program("'/srv/my agents/bot' B 42"), "/srv/my agents/bot");
  EXPECT_EQ(program("FOO=1 exec ../other/bot"), "../other/bot");
  EXPECT_EQ(program("env -i A=b java -jar x.jar"), "java");
  EXPECT_EQ(program("cd /x && ./bot"), "<shell>");
  EXPECT_EQ(program("$HOME/bot"), "<shell>");
  EXPECT_EQ(program("exit 127"), "<shell>");
  const auto words = shell_words("a\\ b \"c d\"|e>f # g");
  std::vector<std::string> texts;
  for (const auto& w : words) texts.push_back(w.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a b", "c d", "|", "e", ">", "f"}));
}

TEST(Sandbox, AgentViewShowsWhatItsCommandNamesAndNothingHidden) {
  TempDir tmp;
  const fs::path root = fs::canonical(tmp.path());
  for (const char* d : {"own", "x/y", "lib", "other", "event/games"})
    fs::create_directories(root / d);
  for (const char* f : {"x/y/agent.jar", "lib/bot.py", "other/bot", "event/games/secret.json"})
    std::ofstream(root / f) << "data\n";
  AgentJailSpec spec;
  spec.own_dir = root / "own";
  spec.hidden = {root / "event"};
  auto targets = [&](const std::string& command) {
    std::vector<std::string> out;
    for (const auto& m : agent_view(spec, command).mounts) out.push_back(m.target.string());
    return out;
  };
  using V = std::vector<std::string>;
  const std::string own = (root / "own").string();
  EXPECT_EQ(targets("java -jar '" + (root / "x/y/agent.jar").string() + "' White"),
            (V{own, (root / "x/y").string()}));
  EXPECT_EQ(targets("python3 " + (root / "lib/bot.py").string()),
            (V{(root / "lib").string(), own}));
  EXPECT_EQ(targets("../other/bot A 2 42"), (V{(root / "other").string(), own}));
  EXPECT_EQ(targets("java -cp " + (root / "lib").string() + ":" +
                    (root / "x/y/agent.jar").string() + " Main"),
            (V{(root / "lib").string(), own, (root / "x/y").string()}));
  // The event folder, named or below a named folder, stays hidden.
  EXPECT_EQ(targets("cat " + (root / "event/games/secret.json").string()), (V{own}));
  const AgentView whole = agent_view(spec, "ls " + root.string());
  EXPECT_EQ(whole.mounts.size(), 1u);
  EXPECT_EQ(whole.covers, (std::vector<fs::path>{root / "event"}));
  // Arguments that are not paths, and the system's folders, add nothing.
  EXPECT_EQ(targets("/usr/bin/env python3 bot.py --depth 3 A"), (V{own}));
}

TEST(Sandbox, SoccerBotsNamedByPathInOtherFoldersPlayAsWithoutTheSandbox) {
  REQUIRE_PROTECTIONS(Protection::Files, Protection::User, Protection::Network);
  TempDir tmp;
  // The course's reference bot in one folder, a student's bot in another, the referee run from a
  // third: `arena soccer-referee '/.../AI-Linux64 A 2 42' '../student/bot B 42'`.
  const fs::path course = tmp.path() / "course", student = tmp.path() / "student",
                 cwd = tmp.path() / "cwd";
  const fs::path reference = reference_wrapper(course);
  fs::create_directories(student);
  fs::create_directories(cwd);
  fs::copy_file(BOT_BINARY, student / "bot");
  const std::string player1 = reference.string() + " A 2 42";
  const std::string player2 = "../student/bot B 42 --nodes 20000 --move-time 60000 --silent";
  struct Run {
    int exit = -1;
    std::string out, log;
    nlohmann::json record;
  };
  auto play = [&](const std::string& mode) {
    const fs::path records = tmp.path() / ("records-" + mode), log = tmp.path() / ("log-" + mode);
    Process p =
        run_in(cwd, {ARENA_BINARY, "soccer-referee", player1, player2, "-t", "30", "--sandbox",
                     mode, "--log", log.string(), "--records", records.string(), "--quiet-bots"});
    Run r;
    r.exit = p.wait(600s).value_or(-1);
    r.out = p.out() + p.err();
    r.log = read_text(log);
    std::error_code none;  // a referee that refused the game wrote no record
    for (const auto& e : fs::directory_iterator(records, none)) r.record = read_json(e.path());
    return r;
  };
  const Run off = play("off");
  const Run jailed = play("required");
  ASSERT_TRUE(off.exit == 61 || off.exit == 62) << off.out;
  EXPECT_EQ(jailed.exit, off.exit) << jailed.out;
  EXPECT_EQ(jailed.log, off.log);
  EXPECT_GT(std::count(off.log.begin(), off.log.end(), '\n'), 4) << off.log;
  const auto reason = [](const Run& r) {
    return r.record.value("/result/reason"_json_pointer, "");
  };
  EXPECT_EQ(reason(jailed), reason(off)) << jailed.record.dump();
  EXPECT_NE(reason(jailed), "disconnect") << jailed.record.dump();
  const auto protections =
      jailed.record.value("/sandbox/protections"_json_pointer, nlohmann::json::array());
  EXPECT_NE(std::find(protections.begin(), protections.end(), "files"), protections.end())
      << jailed.record.dump();
  testing::expect_no_process_with(tmp.path().string());
}

TEST(Sandbox, SoccerRefereeRefusesABotTheAgentsUserCannotRun) {
  if (!agents_run_as_another_user())
    GTEST_SKIP() << "agents run as the invoking user here (arena runs as root with setpriv and "
                    "bubblewrap in the tests that need it)";
  TempDir tmp;
  const fs::path locked = tmp.path() / "locked", cwd = tmp.path() / "cwd";
  fs::create_directories(locked);
  fs::create_directories(cwd);
  fs::copy_file(BOT_BINARY, locked / "bot");
  const fs::path reference = reference_wrapper(tmp.path() / "course");
  auto referee = [&](const std::string& mode) {
    return run_in(cwd, {ARENA_BINARY, "soccer-referee", (locked / "bot").string() + " A 42",
                        reference.string() + " B 0 42", "--sandbox", mode, "--quiet-bots", "--log",
                        "viewer_log", "--records", "records"});
  };
  // A program only its owner (root) may run.
  fs::permissions(locked / "bot", fs::perms::owner_all);
  Process file = referee("auto");
  EXPECT_EQ(file.wait(60s), 2) << file.out() << file.err();
  EXPECT_NE(file.err().find("player 1's command cannot start: " + (locked / "bot").string() +
                            ": the agents' user nobody cannot run it (mode 0700"),
            std::string::npos)
      << file.err();
  EXPECT_NE(file.err().find("chmod o+rx " + (locked / "bot").string()), std::string::npos);
  EXPECT_NE(file.err().find("--sandbox off"), std::string::npos);
  EXPECT_EQ(file.out().find("a castigat"), std::string::npos) << file.out();
  EXPECT_FALSE(fs::exists(cwd / "viewer_log"));
  EXPECT_FALSE(fs::exists(cwd / "records"));
  // A program anyone may run, in a folder nobody else may enter.
  fs::permissions(locked / "bot",
                  fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(locked, fs::perms::owner_all);
  Process folder = referee("auto");
  EXPECT_EQ(folder.wait(60s), 2) << folder.out() << folder.err();
  EXPECT_NE(folder.err().find("the folder " + locked.string() + ": the agents' user nobody"),
            std::string::npos)
      << folder.err();
  EXPECT_NE(folder.err().find("chmod o+x " + locked.string()), std::string::npos);
  // Without the sandbox the bot runs as root, and the game is played.
  Process off = referee("off");
  const auto code = off.wait(300s);
  EXPECT_TRUE(code == 61 || code == 62) << off.out() << off.err();
}

TEST(Sandbox, TournamentRefusesAParticipantTheAgentsUserCannotRun) {
  if (!agents_run_as_another_user()) GTEST_SKIP() << "agents run as the invoking user here";
  TempDir tmp;
  const fs::path locked = tmp.path() / "locked";
  const fs::path agent = reference_wrapper(locked);
  fs::permissions(agent, fs::perms::owner_all);
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "ref0: soccer-ref 0\nlocked: command " << agent.string() << " A 1 7\n";
  const fs::path event = tmp.path() / "event";
  Process p({ARENA_BINARY, "tournament", "soccer", "-f", file.string(), "-o", event.string(),
             "--move-time", "2000"});
  EXPECT_EQ(p.wait(60s), 1) << p.out() << p.err();
  EXPECT_NE(p.err().find("participant 'locked' cannot start: " + agent.string() +
                         ": the agents' user nobody cannot read and run it (mode 0700"),
            std::string::npos)
      << p.err();
  EXPECT_NE(p.err().find("chmod o+rx " + agent.string()), std::string::npos) << p.err();
  EXPECT_FALSE(fs::exists(event)) << "no event, no game lost";
}

TEST(Sandbox, TournamentBotNamedByPathInAnotherFolderPlaysEveryGame) {
  REQUIRE_PROTECTIONS(Protection::Files, Protection::User, Protection::Network);
  TempDir tmp;
  const fs::path agent = reference_wrapper(tmp.path() / "elsewhere");
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "ref0: soccer-ref 0\nfar: command " << agent.string() << " A 1 7\n";
  const fs::path event = tmp.path() / "event";
  Process p({ARENA_BINARY, "tournament", "soccer", "-f", file.string(), "-o", event.string(),
             "--move-time", "5000", "--sandbox", "required", "--quiet"});
  ASSERT_EQ(p.wait(600s), 0) << p.out() << p.err();
  const auto results = read_json(event / "results.json");
  ASSERT_EQ(results["games_played"], 2);
  for (const auto& g : results["games"]) {
    EXPECT_NE(g["reason"], "disconnect") << g;
    EXPECT_NE(g["reason"], "crash") << g;
    EXPECT_GT(g["plies"].get<int>(), 0) << g;
  }
  testing::expect_no_process_with(tmp.path().string());
}

}  // namespace
}  // namespace arena
