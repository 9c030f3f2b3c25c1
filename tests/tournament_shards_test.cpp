// An event played in shards: the split, the shards' journals, `status`, the job files, and the
// same standings and games as one machine gives, with real `arena tournament` processes.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "referee/record.hpp"
#include "support/event_files.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "tournament/cluster_jobs.hpp"
#include "tournament/journal.hpp"
#include "tournament/shard.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::count_lines;
using testing::Process;
using testing::read_json;
using testing::TempDir;
namespace fs = std::filesystem;

TEST(Shards, ParseAndSplit) {
  const auto s = tournament::parse_shard("3/8");
  ASSERT_TRUE(s) << s.error;
  EXPECT_EQ(s.value->index, 3);
  EXPECT_EQ(s.value->count, 8);
  EXPECT_EQ(s.value->label(), "3/8");
  for (const char* bad : {"0/4", "5/4", "4", "a/b", "1/0", "-1/4", "1/4x", "", "1/100001"})
    EXPECT_FALSE(tournament::parse_shard(bad)) << bad;
  // Every game in exactly one shard, and the shards even to one game.
  for (int n = 1; n <= 9; ++n) {
    std::vector<int> per_shard(static_cast<std::size_t>(n));
    for (int game = 0; game < 7080; ++game) {
      int owners = 0;
      for (int k = 1; k <= n; ++k)
        if (tournament::Shard{k, n}.owns(game)) {
          ++owners;
          ++per_shard[static_cast<std::size_t>(k - 1)];
        }
      ASSERT_EQ(owners, 1) << "game " << game << " of " << n << " shards";
    }
    const auto [lo, hi] = std::minmax_element(per_shard.begin(), per_shard.end());
    EXPECT_LE(*hi - *lo, 1);
  }
  EXPECT_EQ(tournament::shard_journal_path("/e", {2, 16}),
            fs::path("/e/shards/0002-of-0016.jsonl"));
  const auto back = tournament::shard_of_file("/e/shards/0002-of-0016.jsonl");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->index, 2);
  EXPECT_EQ(back->count, 16);
  EXPECT_FALSE(tournament::shard_of_file("/e/shards/0017-of-0016.jsonl"));
  EXPECT_FALSE(tournament::shard_of_file("/e/shards/notes.jsonl"));
}

// A deterministic field: seeded random and greedy players and fixed-depth engines.
std::vector<std::string> event_args(const std::string& verb, const fs::path& dir) {
  std::vector<std::string> args = {ARENA_BINARY, "tournament"};
  if (!verb.empty()) args.push_back(verb);
  for (const char* a :
       {"fission", "-a", "r1: random", "-a", "greedy", "-a", "deep: engine depth=2", "-a",
        "d1: engine depth=1", "--seed", "31", "--warmup", "0", "--moves-per-player", "12", "-o"})
    args.emplace_back(a);
  args.push_back(dir.string());
  return args;
}

std::vector<std::string> play_shard(const fs::path& dir, const std::string& shard) {
  return {ARENA_BINARY, "tournament", "play", dir.string(), "--shard", shard, "-j", "1"};
}

// The moves of every game record in an event, by file name.
std::map<std::string, std::vector<std::string>> all_moves(const fs::path& dir) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& e : fs::directory_iterator(dir / "games"))
    if (e.path().extension() == ".json")
      for (const auto& m : read_record(e.path()).moves) out[e.path().filename()].push_back(m.move);
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void run_ok(const std::vector<std::string>& argv, std::string* out = nullptr) {
  Process p(argv);
  const auto code = p.wait(180s);
  if (out) *out = p.out();
  ASSERT_EQ(code, 0) << argv[2] << " " << (argv.size() > 3 ? argv[3] : "") << "\n"
                     << p.out() << p.err();
}

// Waits (bounded) until a shard's sign of life says it is playing: its process has started its
// games (slow to start under a sanitizer).
bool wait_until_playing(const fs::path& alive) {
  for (int i = 0; i < 6000; ++i) {
    if (read_text(alive).find("\"state\":\"playing\"") != std::string::npos) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

class ShardedEvent : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir;
    run_ok(event_args("", local()));  // the one-machine event
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static fs::path local() { return tmp_->path() / "local"; }
  static inline TempDir* tmp_ = nullptr;
};

TEST_F(ShardedEvent, FourShardsAtOnceGiveWhatOneMachineGives) {
  const auto dir = tmp_->path() / "sharded";
  std::string planned;
  run_ok(event_args("plan", dir), &planned);
  EXPECT_NE(planned.find("12 games in 6 rounds"), std::string::npos) << planned;
  EXPECT_EQ(count_lines(dir / "journal.jsonl"), 1) << "plan plays nothing";
  EXPECT_EQ(count_lines(dir / "schedule.csv"), 13);
  EXPECT_FALSE(fs::exists(dir / "games") && !fs::is_empty(dir / "games"));
  EXPECT_EQ(read_json(dir / "results.json")["games_played"], 0);

  // The four shards as four processes at the same time, as four machines would.
  std::vector<std::unique_ptr<Process>> shards;
  for (int k = 1; k <= 4; ++k)
    shards.push_back(std::make_unique<Process>(play_shard(dir, std::to_string(k) + "/4")));
  int reported = 0;
  for (auto& p : shards) {
    ASSERT_EQ(p->wait(180s), 0) << p->out() << p->err();
    reported += p->out().find("Crosstable") != std::string::npos;
  }
  EXPECT_GE(reported, 1) << "the last shard to finish writes the standings";
  run_ok({ARENA_BINARY, "tournament", "report", dir.string()});
  for (const char* f : {"results.json", "standings.csv", "crosstable.csv", "games.csv"})
    EXPECT_EQ(read_text(dir / f), read_text(local() / f)) << f;
  EXPECT_EQ(all_moves(dir), all_moves(local()));
  // Each shard wrote only its own games, into its own journal; the event's journal has none.
  EXPECT_EQ(count_lines(dir / "journal.jsonl"), 1);
  for (int k = 1; k <= 4; ++k) {
    std::ifstream in(tournament::shard_journal_path(dir, {k, 4}));
    std::string line;
    int games = 0;
    for (std::getline(in, line); std::getline(in, line); ++games) {
      const int game = nlohmann::json::parse(line)["game"].get<int>();
      EXPECT_EQ((game - 1) % 4 + 1, k) << line;
    }
    EXPECT_EQ(games, 3) << "shard " << k;
  }
  std::string status;
  run_ok({ARENA_BINARY, "tournament", "status", dir.string()}, &status);
  EXPECT_NE(status.find("12/12 games played"), std::string::npos) << status;
  for (int k = 1; k <= 4; ++k)
    EXPECT_NE(status.find(std::to_string(k) + "/4      3/3     finished"), std::string::npos)
        << status;
  // Playing a finished shard again plays nothing.
  std::string again;
  run_ok(play_shard(dir, "2/4"), &again);
  EXPECT_NE(again.find("(0 to play)"), std::string::npos) << again;
}

TEST_F(ShardedEvent, StoppedAndKilledShardsAreShownAndPlayOnlyTheirMissingGames) {
  const auto dir = tmp_->path() / "interrupted";
  run_ok(event_args("plan", dir));
  run_ok(play_shard(dir, "1/2"));
  // Shard 2: stopped by SIGTERM (Slurm's scancel) in its first game.
  {
    Process p(play_shard(dir, "2/2"));
    ASSERT_TRUE(wait_until_playing(tournament::shard_alive_path(dir, {2, 2})));
    std::this_thread::sleep_for(100ms);
    p.kill(SIGTERM);
    EXPECT_EQ(p.wait(30s), 128 + SIGTERM);
    EXPECT_NE(p.err().find("arena tournament play " + dir.string() + " --shard 2/2"),
              std::string::npos)
        << p.err();
  }
  std::string status;
  run_ok({ARENA_BINARY, "tournament", "status", dir.string()}, &status);
  EXPECT_NE(status.find("finished"), std::string::npos) << status;
  EXPECT_NE(status.find("stopped by signal 15"), std::string::npos) << status;
  EXPECT_NE(status.find("sbatch --array=2 "), std::string::npos) << status;
  // Killed with -9 in a game: it cannot say so, but its process is gone from this host.
  {
    Process p(play_shard(dir, "2/2"));
    ASSERT_TRUE(wait_until_playing(tournament::shard_alive_path(dir, {2, 2})));
    std::this_thread::sleep_for(100ms);
    p.kill(SIGKILL);
    EXPECT_EQ(p.wait(30s), 128 + SIGKILL);
  }
  run_ok({ARENA_BINARY, "tournament", "status", dir.string()}, &status);
  EXPECT_NE(status.find("looks dead"), std::string::npos) << status;
  EXPECT_NE(status.find("its process is gone"), std::string::npos) << status;
  // Played again, the shard completes the event: every game once, as on one machine.
  run_ok(play_shard(dir, "2/2"));
  const auto journals = tournament::read_event_journals(dir);
  EXPECT_EQ(journals.games.size(), 12u);
  EXPECT_EQ(journals.duplicates, 0);
  EXPECT_EQ(read_text(dir / "results.json"), read_text(local() / "results.json"));
  EXPECT_EQ(all_moves(dir), all_moves(local()));
}

TEST_F(ShardedEvent, ResumeFinishesAShardedEventOnOneMachine) {
  const auto dir = tmp_->path() / "mixed";
  run_ok(event_args("plan", dir));
  run_ok(play_shard(dir, "3/4"));
  std::string out;
  run_ok({ARENA_BINARY, "tournament", "--resume", dir.string(), "-q"}, &out);
  EXPECT_NE(out.find("12 games (9 to play)"), std::string::npos) << out;
  EXPECT_EQ(read_text(dir / "results.json"), read_text(local() / "results.json"));
  EXPECT_EQ(count_lines(dir / "journal.jsonl"), 10);
}

TEST_F(ShardedEvent, OneShardCannotBePlayedTwiceAtOnce) {
  const auto dir = tmp_->path() / "twice";
  run_ok(event_args("plan", dir));
  Process first(play_shard(dir, "1/1"));
  ASSERT_TRUE(wait_until_playing(tournament::shard_alive_path(dir, {1, 1})));
  Process second(play_shard(dir, "1/1"));
  EXPECT_EQ(second.wait(30s), 1);
  EXPECT_NE(second.err().find("shard 1/1 is being played by another process"), std::string::npos)
      << second.err();
  first.kill(SIGTERM);
  first.wait(30s);
}

TEST_F(ShardedEvent, JobFilesForSlurmAndKubernetes) {
  const auto dir = tmp_->path() / "jobs";
  run_ok(event_args("plan", dir));
  std::string out;
  run_ok({ARENA_BINARY, "tournament", "slurm", dir.string(), "--shards", "4", "-j", "2",
          "--partition", "games"},
         &out);
  const std::string script = read_text(dir / "cluster" / "slurm.sbatch");
  for (const std::string& line : std::vector<std::string>{
           "#!/bin/bash\n", "#SBATCH --array=1-4\n", "#SBATCH --cpus-per-task=4\n",
           // Two games at once, two agents each, 2048 MB per agent, and the referee's 512.
           "#SBATCH --mem=8704M\n", "#SBATCH --time=0-00:10:00\n", "#SBATCH --partition=games\n",
           "#SBATCH --requeue\n",
           "#SBATCH --output=" + (dir / "cluster" / "logs").string() + "/%A_%a.out\n",
           "tournament play '" + dir.string() + "' --shard \"${SLURM_ARRAY_TASK_ID}/4\" -j 2\n"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  EXPECT_TRUE(fs::is_directory(dir / "cluster" / "logs"));
  const std::string yaml = read_text(dir / "cluster" / "kubernetes-job.yaml");
  for (const std::string& line :
       std::vector<std::string>{"kind: Job\n", "  completionMode: Indexed\n", "  completions: 4\n",
                                "--shard $((JOB_COMPLETION_INDEX + 1))/4 -j 2",
                                "limits: {cpu: \"4\", memory: \"8704Mi\"}",
                                "mountPath: " + dir.parent_path().string() + "\n"})
    EXPECT_NE(yaml.find(line), std::string::npos) << line << "\n" << yaml;
  // status knows the shard count from the job files before any shard starts.
  run_ok({ARENA_BINARY, "tournament", "status", dir.string()}, &out);
  EXPECT_NE(out.find("4 shards have not started"), std::string::npos) << out;
}

TEST(Shards, ClearErrors) {
  TempDir tmp;
  Process bad(
      {ARENA_BINARY, "tournament", "play", (tmp.path() / "none").string(), "--shard", "1/2"});
  EXPECT_EQ(bad.wait(30s), 1);
  EXPECT_NE(bad.err().find("is not an event folder"), std::string::npos) << bad.err();
  Process shard({ARENA_BINARY, "tournament", "play", tmp.path().string(), "--shard", "3/2"});
  EXPECT_NE(shard.wait(30s), 0);
  EXPECT_NE(shard.err().find("shards are numbered 1..2"), std::string::npos) << shard.err();
}

}  // namespace
}  // namespace arena
