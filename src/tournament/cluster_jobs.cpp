#include "tournament/cluster_jobs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "games/registry.hpp"
#include "sandbox/child_process.hpp"
#include "tournament/match_runner.hpp"
#include "tournament/schedule.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;

// Plies a game without a move limit is expected to last, for the time estimate only.
constexpr long long kPliesExpectedWithoutLimit = 200;
// Memory for the referee itself (arena's servers and their threads) beside its agents.
constexpr std::uint64_t kRefereeMemoryMiB = 512;

long long ceil_div(long long a, long long b) {
  return (a + b - 1) / b;
}

// A name Slurm and Kubernetes accept: lower-case letters, digits and '-'.
std::string job_name(const fs::path& dir) {
  std::string name = "arena-";
  for (char c : dir.filename().string())
    name += std::isalnum(static_cast<unsigned char>(c))
                ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                : '-';
  name.resize(std::min<std::size_t>(name.size(), 52));
  while (name.back() == '-') name.pop_back();
  return name;
}

int games_in_largest_shard(int total, int shards) {
  return static_cast<int>(ceil_div(total, shards));
}

}  // namespace

std::string slurm_array_lines(const SlurmArray& a) {
  std::string s = fmt::format(
      "#SBATCH --job-name={}\n"
      "#SBATCH --array=1-{}\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task={}\n"
      "#SBATCH --mem={}M\n"
      "#SBATCH --time={}\n"
      "#SBATCH --output={}/%A_%a.out\n"
      "#SBATCH --open-mode=append\n"
      "#SBATCH --requeue\n",
      a.name, a.tasks, a.cpus, a.memory_mib, slurm_time(a.time), a.logs.string());
  if (!a.partition.empty()) s += "#SBATCH --partition=" + a.partition + "\n";
  if (!a.account.empty()) s += "#SBATCH --account=" + a.account + "\n";
  return s;
}

std::string slurm_time(std::chrono::minutes m) {
  const long long t = m.count();
  return fmt::format("{}-{:02}:{:02}:00", t / 1440, t / 60 % 24, t % 60);
}

TaskResources task_resources(const EventJournals& event, const ClusterJobOptions& o) {
  const EventSettings& s = event.settings;
  TaskResources r;
  int cpus = 1;
  std::uint64_t memory = 0;
  for (const auto& p : s.participants) {
    const AgentLimits l = limits_of(s, p);
    cpus = std::max(cpus, l.cpus);
    memory = std::max(memory, l.memory_bytes);
  }
  r.cpus = o.games_per_task * 2 * cpus;
  r.memory_mib =
      o.games_per_task * 2 * ceil_div(static_cast<long long>(memory), kMiB) + kRefereeMemoryMiB;
  if (o.time_limit.count() > 0) {
    r.time = o.time_limit;
    r.time_basis = "given with --time";
    return r;
  }
  const GameInfo* game = find_game(s.game);
  const int total =
      static_cast<int>(double_round_robin(static_cast<int>(s.participants.size()), s.seed).size());
  const long long rounds = ceil_div(games_in_largest_shard(total, o.shards), o.games_per_task);
  long long per_game_ms = 0;
  if (!event.games.empty()) {
    long long sum = 0;
    for (const auto& g : event.games) sum += g.duration_ms;
    per_game_ms = sum / static_cast<long long>(event.games.size());
    r.time_basis = fmt::format("{} played games took {:.1f} s on average", event.games.size(),
                               per_game_ms / 1000.0);
  } else {
    const int per_player =
        s.rules.moves_per_player.value_or(game ? game->default_moves_per_player : 0);
    const long long plies = per_player > 0 ? 2LL * per_player : kPliesExpectedWithoutLimit;
    const long long move_ms =
        s.move_time_ms > 0 ? s.move_time_ms : (game ? game->default_move_time_ms : 1000);
    per_game_ms = s.connect_timeout_ms + s.warmup_ms + plies * move_ms;
    r.time_basis = fmt::format("{} plies of {} ms and the warm-up: {:.0f} s per game at most",
                               plies, move_ms, per_game_ms / 1000.0);
  }
  // Half again for slow nodes; a task that still runs out is played again from its journal.
  const long long ms = rounds * per_game_ms * 3 / 2 + 5 * 60'000;
  r.time = std::chrono::minutes(std::max<long long>(10, ceil_div(ms, 60'000)));
  r.time_basis += fmt::format(", {} games after another per task, and half again", rounds);
  return r;
}

std::string slurm_script(const fs::path& dir, const EventJournals& event,
                         const ClusterJobOptions& o) {
  const TaskResources r = task_resources(event, o);
  const fs::path logs = dir / "cluster" / "logs";
  std::string s = fmt::format(
      "#!/bin/bash\n"
      "# The event {dir} as a Slurm job array: {n} shards, one array task each, every task\n"
      "# playing its shard's games ({g} at once) into its own journal in the event folder.\n"
      "# Written by: arena tournament slurm {dir} --shards {n}\n"
      "#\n"
      "#   submit:    sbatch {script}\n"
      "#   watch:     squeue --name={name}; arena tournament status {dir}\n"
      "#   cancel:    scancel --name={name}   (finished games are kept)\n"
      "#   resubmit:  sbatch --array=K,... {script}   (those shards play their missing games)\n"
      "#\n"
      "# Resources per task: games at once: {g}; 2 agents a game, each with the event's cores\n"
      "# and memory, and the referee's memory;\n"
      "# time: {basis}.\n",
      fmt::arg("dir", dir.string()), fmt::arg("n", o.shards), fmt::arg("g", o.games_per_task),
      fmt::arg("script", (dir / "cluster" / "slurm.sbatch").string()),
      fmt::arg("name", job_name(dir)), fmt::arg("basis", r.time_basis));
  s += slurm_array_lines({job_name(dir), o.shards, r.cpus, static_cast<std::uint64_t>(r.memory_mib),
                          r.time, logs, o.partition, o.account});
  s += fmt::format(
      "\n"
      "# Slurm's SIGTERM (scancel, preemption, the time limit) stops the shard cleanly: its\n"
      "# agents are killed, its finished games stay in its journal.\n"
      "exec {arena} tournament play {dir} --shard \"${{SLURM_ARRAY_TASK_ID}}/{n}\" -j {g}\n",
      fmt::arg("arena", shell_quote(o.arena_binary.string())),
      fmt::arg("dir", shell_quote(dir.string())), fmt::arg("n", o.shards),
      fmt::arg("g", o.games_per_task));
  return s;
}

std::string kubernetes_job(const fs::path& dir, const EventJournals& event,
                           const ClusterJobOptions& o) {
  const TaskResources r = task_resources(event, o);
  const fs::path mount = o.mount.empty() ? dir.parent_path() : o.mount;
  const std::string command =
      fmt::format("exec arena tournament play {} --shard $((JOB_COMPLETION_INDEX + 1))/{} -j {}",
                  shell_quote(dir.string()), o.shards, o.games_per_task);
  return fmt::format(
      "# The event {dir} as a Kubernetes Indexed Job: {n} shards, completion index i plays\n"
      "# shard i+1 into its own journal in the event folder, which the volume claim '{claim}'\n"
      "# holds at {mount} (the agents' folders too, at the paths the event was planned with).\n"
      "# Written by: arena tournament slurm {dir} --shards {n}\n"
      "#\n"
      "#   submit:   kubectl apply -f {file}\n"
      "#   watch:    kubectl get pods -l job-name={name}; arena tournament status {dir}\n"
      "#   cancel:   kubectl delete job {name}   (finished games are kept)\n"
      "#   resubmit: delete the job and apply it again: every shard plays only its missing games\n"
      "#\n"
      "# Time per shard: {basis}.\n"
      "apiVersion: batch/v1\n"
      "kind: Job\n"
      "metadata:\n"
      "  name: {name}\n"
      "spec:\n"
      "  completionMode: Indexed\n"
      "  completions: {n}\n"
      "  parallelism: {n}\n"
      "  backoffLimitPerIndex: 3\n"
      "  template:\n"
      "    spec:\n"
      "      restartPolicy: Never\n"
      "      containers:\n"
      "        - name: arena\n"
      "          image: {image}\n"
      "          command: [\"sh\", \"-c\", {command}]\n"
      "          resources:\n"
      "            requests: {{cpu: \"{cpus}\", memory: \"{mem}Mi\"}}\n"
      "            limits: {{cpu: \"{cpus}\", memory: \"{mem}Mi\"}}\n"
      "          # The agents' sandbox makes cgroups and namespaces (docs/sandbox.md); without\n"
      "          # this, plan the event with --sandbox auto and the pod's limits bound the shard.\n"
      "          securityContext:\n"
      "            privileged: true\n"
      "          volumeMounts:\n"
      "            - name: events\n"
      "              mountPath: {mount}\n"
      "      volumes:\n"
      "        - name: events\n"
      "          persistentVolumeClaim:\n"
      "            claimName: {claim}\n",
      fmt::arg("dir", dir.string()), fmt::arg("n", o.shards), fmt::arg("claim", o.claim),
      fmt::arg("mount", mount.string()),
      fmt::arg("file", (dir / "cluster" / "kubernetes-job.yaml").string()),
      fmt::arg("name", job_name(dir)), fmt::arg("basis", r.time_basis), fmt::arg("image", o.image),
      fmt::arg("command", nlohmann::json(command).dump()), fmt::arg("cpus", r.cpus),
      fmt::arg("mem", r.memory_mib));
}

}  // namespace arena::tournament
