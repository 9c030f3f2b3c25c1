// An event played in parts: `arena tournament play DIR [--shard K/N]`, `arena tournament status
// DIR` and `arena tournament slurm DIR --shards N` (the job files for Slurm and Kubernetes).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "referee/record.hpp"
#include "tournament/cluster_jobs.hpp"
#include "tournament/event_runner.hpp"
#include "tournament/event_status.hpp"
#include "tournament/journal.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

// Runs `body`, turning an exception into a message and exit code 1; ends the parse so that
// `arena tournament`'s own callback does not run an event.
template <class F>
void run_command(int& exit_code, F&& body) {
  try {
    exit_code = body();
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    exit_code = 1;
  }
}

CLI::Validator shard_validator() {
  return CLI::Validator(
      [](std::string& text) {
        const auto s = tournament::parse_shard(text);
        return s ? std::string() : s.error;
      },
      "K/N");
}

void add_shard_play(CLI::App& tournament, int& exit_code) {
  auto* cmd = tournament.add_subcommand(
      "play",
      "Plays the games of a planned event that are not played yet: all of them, or one "
      "shard's (--shard K/N), writing only that shard's journal; safe to run again");
  cmd->footer(
      "Shard K of N plays the games whose number is K, K+N, K+2N, ... Shards on different "
      "machines\nsharing the event folder never write the same file. See docs/cluster.md.");
  struct Options {
    std::string dir, shard;
    int concurrency = 0;
    bool quiet = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("dir", o->dir, "The event folder (arena tournament plan)")->required();
  cmd->add_option("--shard", o->shard, "Play only this shard, K/N (1 <= K <= N)")
      ->check(shard_validator());
  cmd->add_option("--concurrency,-j", o->concurrency,
                  "Games played at once (default: as many as give every agent its own cores)")
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--quiet,-q", o->quiet, "No line per finished game");
  cmd->callback([o, &exit_code] {
    run_command(exit_code, [&] {
      tournament::RunOptions run;
      run.concurrency = o->concurrency;
      run.quiet = o->quiet;
      run.arena_binary = own_binary();
      if (o->shard.empty()) {
        handle_stop_signals("arena tournament play " + o->dir);
        return tournament::play_event(o->dir, run, std::cout, std::cerr);
      }
      run.shard = *tournament::parse_shard(o->shard).value;
      const fs::path alive = tournament::shard_alive_path(o->dir, *run.shard);
      handle_stop_signals(
          fmt::format("arena tournament play {} --shard {}", o->dir, o->shard), [alive](int signo) {
            tournament::mark_shard_stopped(alive, fmt::format("stopped by signal {}", signo));
          });
      return tournament::play_event(o->dir, run, std::cout, std::cerr);
    });
  });
}

void add_status(CLI::App& tournament, int& exit_code) {
  auto* cmd = tournament.add_subcommand(
      "status",
      "How far an event is: games played of the total, shard by shard, and which shards "
      "stopped or look dead");
  cmd->footer(
      "A shard is: not started, playing (host, pid, Slurm job, last sign of life), finished,\n"
      "stopped (by a signal or an error) or looks dead. See docs/cluster.md.");
  struct Options {
    std::string dir;
    int shards = 0;
    int stale_s = 120;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("dir", o->dir, "The event folder")->required();
  cmd->add_option("--shards", o->shards,
                  "The number of shards (default: from the shards' journals, or from "
                  "arena tournament slurm)")
      ->check(CLI::Range(1, tournament::kMaxShards));
  cmd->add_option("--stale", o->stale_s,
                  "Seconds without a sign of life after which a shard looks dead (a playing "
                  "shard signs every 10 s)")
      ->capture_default_str()
      ->check(CLI::Range(20, 86400));
  cmd->callback([o, &exit_code] {
    run_command(exit_code, [&] {
      const auto st = tournament::event_status(
          o->dir, o->shards > 0 ? std::optional<int>(o->shards) : std::nullopt,
          std::chrono::seconds(o->stale_s));
      fmt::print("{}", tournament::status_text(st, o->dir));
      return 0;
    });
  });
}

void add_slurm(CLI::App& tournament, int& exit_code) {
  auto* cmd = tournament.add_subcommand(
      "slurm",
      "Writes the job files that play a planned event in N shards on a cluster: a Slurm batch "
      "script for a job array (DIR/cluster/slurm.sbatch) and a Kubernetes Indexed Job "
      "(DIR/cluster/kubernetes-job.yaml)");
  cmd->footer(
      "Each task runs: arena tournament play DIR --shard K/N -j GAMES. CPUs and memory per task "
      "follow\nfrom the event's agent limits (two agents per game); the time limit is estimated "
      "from the\nevent. The event folder, the arena binary and the agents' folders must be on a "
      "file system\nevery node shares, at the same paths. See docs/cluster.md.");
  struct Options {
    std::string dir;
    tournament::ClusterJobOptions job;
    int time_minutes = 0;
    std::string mount;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("dir", o->dir, "The event folder (arena tournament plan)")->required();
  cmd->add_option("--shards", o->job.shards, "Number of shards: array tasks, or job indexes")
      ->required()
      ->check(CLI::Range(1, tournament::kMaxShards));
  cmd->add_option("--games-per-task,-j", o->job.games_per_task,
                  "Games a task plays at once (its -j)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--time", o->time_minutes,
                  "Time limit per task in minutes (default: estimated from the event)")
      ->check(CLI::Range(1, 366 * 24 * 60));
  cmd->add_option("--partition", o->job.partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--account", o->job.account, "Slurm account (default: yours)");
  cmd->add_option("--image", o->job.image, "Kubernetes: an image with arena on its PATH")
      ->capture_default_str();
  cmd->add_option("--claim", o->job.claim,
                  "Kubernetes: the persistent volume claim that holds the event folder")
      ->capture_default_str();
  cmd->add_option("--mount", o->mount,
                  "Kubernetes: where the claim is mounted (default: the event folder's parent)");
  cmd->callback([o, &exit_code] {
    run_command(exit_code, [&] {
      const fs::path dir = fs::absolute(o->dir).lexically_normal();
      const auto event = tournament::read_event_journals(dir);
      auto job = o->job;
      job.time_limit = std::chrono::minutes(o->time_minutes);
      job.arena_binary = own_binary();
      job.mount = o->mount;
      const fs::path folder = dir / tournament::kClusterFolder;
      fs::create_directories(folder / "logs");  // Slurm does not create its output folder
      const auto script = folder / "slurm.sbatch";
      write_file_atomically(script, tournament::slurm_script(dir, event, job));
      fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
      const auto manifest = folder / "kubernetes-job.yaml";
      write_file_atomically(manifest, tournament::kubernetes_job(dir, event, job));
      write_file_atomically(tournament::planned_shards_path(dir),
                            nlohmann::json({{"shards", job.shards}}).dump() + "\n");
      const auto r = tournament::task_resources(event, job);
      fmt::print(
          "Wrote {} and {}\nEach of the {} tasks: {} CPUs, {} MB, time limit {} ({})\n"
          "Submit with: sbatch {}   (Kubernetes: kubectl apply -f {})\n"
          "Watch with:  arena tournament status {}\n",
          script.string(), manifest.string(), job.shards, r.cpus, r.memory_mib,
          tournament::slurm_time(r.time), r.time_basis, script.string(), manifest.string(),
          dir.string());
      return 0;
    });
  });
}

}  // namespace

void add_tournament_cluster(CLI::App& tournament, int& exit_code) {
  add_shard_play(tournament, exit_code);
  add_status(tournament, exit_code);
  add_slurm(tournament, exit_code);
}

}  // namespace arena::cli
