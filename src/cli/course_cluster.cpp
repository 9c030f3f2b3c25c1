// `arena course slurm DIR --workers N --url URL`: the job files that run a course's workers on a
// cluster (docs/cluster.md): a Slurm job array and a Kubernetes Deployment, both with a worker
// token of their own that is kept in a file only its owner reads.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli/commands.hpp"
#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/store.hpp"
#include "referee/record.hpp"
#include "sandbox/child_process.hpp"
#include "tournament/cluster_jobs.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

// Memory for the worker itself (its referees and threads) beside its agents, as for a
// tournament's task.
constexpr std::uint64_t kWorkerMemoryMiB = 512;

struct Options {
  std::string dir, url, name = "slurm", partition, account, image = "arena:latest";
  int workers = 0, games = 1, time_minutes = 24 * 60;
};

// What every worker is given: two agents a game, each with the sandbox's default core and
// memory (a worker plays with those), and the worker's own memory.
struct Resources {
  int cpus = 0;
  std::uint64_t memory_mib = 0;
};
Resources worker_resources(int games) {
  const AgentLimits agent;
  return {games * 2 * agent.cpus, games * 2 * (agent.memory_bytes / kMiB) + kWorkerMemoryMiB};
}

// The server's address, checked: it goes into a shell script and a manifest.
void check_url(const std::string& url) {
  static const std::regex form(
      R"(https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:([0-9]{1,5}))?(/[A-Za-z0-9._~/-]*)?)");
  std::smatch m;
  const bool matches = std::regex_match(url, m, form);
  const int port = matches && m[3].matched ? std::stoi(m[3].str()) : 80;
  if (!matches || port < 1 || port > 65535)
    throw std::runtime_error(fmt::format(
        "--url '{}' is not a server address like http://course.example.org:8080/ (http or "
        "https, a host, maybe a port and a path)",
        url));
}

bool is_loopback(const std::string& url) {
  static const std::regex loopback(R"(https?://(localhost|127\.[0-9.]+|\[::1\])([:/].*)?)");
  return std::regex_match(url, loopback);
}

// A name Slurm and Kubernetes both accept: lower-case letters, digits and '-'.
std::string job_name(const fs::path& dir, const std::string& worker) {
  std::string name;
  for (char c : "arena-" + dir.filename().string() + "-" + worker) {
    const auto u = static_cast<unsigned char>(c);
    name += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-';
  }
  name.resize(std::min<std::size_t>(name.size(), 52));
  while (name.back() == '-') name.pop_back();
  return name;
}

struct Files {
  fs::path dir, token, script, manifest, logs;
  std::string name;  // of the Slurm job and of the Deployment
};

std::string slurm_script(const Options& o, const Files& f) {
  const Resources r = worker_resources(o.games);
  std::string s = fmt::format(
      "#!/bin/bash\n"
      "# {n} workers of the course {dir} as a Slurm job array: each array task runs\n"
      "# arena course worker, which plays {g} of the server's ladder and challenge games at once\n"
      "# until it is cancelled or reaches its time limit.\n"
      "# Written by: arena course slurm {dir} --workers {n} --url {url} -j {g}\n"
      "#\n"
      "#   start:  sbatch {script}\n"
      "#   watch:  squeue --name={name}; the workers and games on the server's ladder page\n"
      "#   stop:   scancel --name={name}   (a game cut off is played again by another worker)\n"
      "#   more:   sbatch --array=1-K {script}   (K more workers)\n"
      "#\n"
      "# Resources per task: {g} game(s) at once, 2 agents a game, each with the sandbox's\n"
      "# default core and memory, and the worker's own memory.\n",
      fmt::arg("n", o.workers), fmt::arg("dir", f.dir.string()), fmt::arg("g", o.games),
      fmt::arg("url", o.url), fmt::arg("script", f.script.string()), fmt::arg("name", f.name));
  s += tournament::slurm_array_lines({f.name, o.workers, r.cpus, r.memory_mib,
                                      std::chrono::minutes(o.time_minutes), f.logs, o.partition,
                                      o.account});
  s += fmt::format(
      "\n"
      "set -eu\n"
      "# The token comes from a file only you can read: on the command line every user of the\n"
      "# node would see it (ps).\n"
      "token_file={token}\n"
      "ARENA_TOKEN=$(cat \"$token_file\") || {{\n"
      "    echo \"cannot read the worker token $token_file: the nodes must see the course\" \\\n"
      "        \"folder's cluster/ (a shared file system), or copy it and change token_file\" >&2\n"
      "    exit 1\n"
      "}}\n"
      "export ARENA_TOKEN\n"
      "# Built hand-ins are kept on the node's own disk, a folder per task, removed at the end.\n"
      "cache=\"${{TMPDIR:-/tmp}}/arena-worker-${{SLURM_JOB_ID}}\"\n"
      "trap 'rm -rf \"$cache\"' EXIT\n"
      "trap 'exit 143' TERM  # without it, bash ends on SIGTERM without its EXIT trap\n"
      "# Slurm's SIGTERM (scancel, the time limit) ends the worker and its games at once; each\n"
      "# game goes back to the queue when its lease runs out, and another worker plays it.\n"
      "{arena} course worker {url} -j {g} --cache \"$cache\"\n",
      fmt::arg("token", shell_quote(f.token.string())),
      fmt::arg("arena", shell_quote(own_binary().string())), fmt::arg("url", shell_quote(o.url)),
      fmt::arg("g", o.games));
  return s;
}

std::string kubernetes_manifest(const Options& o, const Files& f, const std::string& token) {
  const Resources r = worker_resources(o.games);
  const nlohmann::json command = {
      "arena", "course", "worker", o.url, "-j", std::to_string(o.games), "--cache", "/cache"};
  return fmt::format(
      "# {n} workers of the course {dir} as a Kubernetes Deployment: each pod runs arena course\n"
      "# worker, which plays {g} of the server's ladder and challenge games at once, with the\n"
      "# worker token from the Secret {name}-token.\n"
      "# THIS FILE HOLDS THE WORKER TOKEN: keep it private (the course folder is).\n"
      "# Written by: arena course slurm {dir} --workers {n} --url {url} -j {g}\n"
      "#\n"
      "#   start:  kubectl apply -f {file}\n"
      "#   watch:  kubectl get pods -l app={name}\n"
      "#           and the workers and games on the server's ladder page\n"
      "#   scale:  kubectl scale deployment {name} --replicas=K\n"
      "#   stop:   kubectl delete -f {file}\n"
      "#           (a game cut off is played again by another worker)\n"
      "apiVersion: v1\n"
      "kind: Secret\n"
      "metadata:\n"
      "  name: {name}-token\n"
      "type: Opaque\n"
      "data:\n"
      "  token: {token}\n"
      "---\n"
      "apiVersion: apps/v1\n"
      "kind: Deployment\n"
      "metadata:\n"
      "  name: {name}\n"
      "spec:\n"
      "  replicas: {n}\n"
      "  selector:\n"
      "    matchLabels:\n"
      "      app: {name}\n"
      "  template:\n"
      "    metadata:\n"
      "      labels:\n"
      "        app: {name}\n"
      "    spec:\n"
      "      containers:\n"
      "        - name: worker\n"
      "          image: {image}\n"
      "          command: {command}\n"
      "          env:\n"
      "            - name: ARENA_TOKEN\n"
      "              valueFrom:\n"
      "                secretKeyRef: {{name: {name}-token, key: token}}\n"
      "          resources:\n"
      "            requests: {{cpu: \"{cpus}\", memory: \"{mem}Mi\"}}\n"
      "            limits: {{cpu: \"{cpus}\", memory: \"{mem}Mi\"}}\n"
      "          # The agents' sandbox makes cgroups and namespaces (docs/sandbox.md).\n"
      "          securityContext:\n"
      "            privileged: true\n"
      "          # Built hand-ins, on the node's own disk.\n"
      "          volumeMounts:\n"
      "            - name: cache\n"
      "              mountPath: /cache\n"
      "      volumes:\n"
      "        - name: cache\n"
      "          emptyDir: {{}}\n",
      fmt::arg("n", o.workers), fmt::arg("dir", f.dir.string()), fmt::arg("g", o.games),
      fmt::arg("url", o.url), fmt::arg("file", f.manifest.string()), fmt::arg("name", f.name),
      fmt::arg("token", course::base64(token)), fmt::arg("image", nlohmann::json(o.image).dump()),
      fmt::arg("command", command.dump()), fmt::arg("cpus", r.cpus), fmt::arg("mem", r.memory_mib));
}

int write_worker_jobs(const Options& o) {
  check_url(o.url);
  if (!course::is_valid_login(o.name) || o.name == "local")
    throw std::runtime_error(
        "--name: a worker's name is lowercase letters, digits, '.', '_' or '-' (and not "
        "'local', the server's own)");
  static const std::regex slurm_word("[A-Za-z0-9_.,-]*");
  if (!std::regex_match(o.partition, slurm_word) || !std::regex_match(o.account, slurm_word))
    throw std::runtime_error(
        "--partition and --account are Slurm names: letters, digits, '_', '.', '-' (and ',' "
        "between names)");
  Files f;
  f.dir = fs::absolute(o.dir).lexically_normal();
  if (!f.dir.has_filename()) f.dir = f.dir.parent_path();  // "course/"
  if (std::any_of(f.dir.native().begin(), f.dir.native().end(),
                  [](unsigned char c) { return std::isspace(c) || std::iscntrl(c); }))
    throw std::runtime_error(fmt::format(
        "the course folder's path '{}' has a space: Slurm's #SBATCH lines cannot hold it",
        f.dir.string()));
  const course::CourseDir course{f.dir};
  if (std::error_code ec; !fs::is_regular_file(course.db(), ec))
    throw std::runtime_error(fmt::format(
        "{} is not a course folder (no course.db): make one with arena course init", o.dir));
  const fs::path folder = f.dir / "cluster";
  f.token = folder / "worker-token";
  f.script = folder / "workers.sbatch";
  f.manifest = folder / "kubernetes-workers.yaml";
  f.logs = folder / "logs";
  f.name = job_name(f.dir, o.name);

  course::Store store(course.db(), false);
  fs::create_directories(f.logs);  // Slurm does not make its output folder
  fs::permissions(folder, fs::perms::owner_all, fs::perm_options::replace);
  const std::string token = course::random_secret(32);
  write_file_atomically(f.token, token + "\n", true, 0600);
  write_file_atomically(f.script, slurm_script(o, f));
  fs::permissions(f.script, fs::perms::owner_exec, fs::perm_options::add);
  write_file_atomically(f.manifest, kubernetes_manifest(o, f, token), true, 0600);
  // Last: the workers of this name that run now stop only when the new files are there.
  store.set_worker(o.name, course::sha256_hex(token));
  store.log_event("console", "worker-token", o.name);

  const Resources r = worker_resources(o.games);
  fmt::print(
      "Wrote {}: a new token for the worker '{}', readable by you only\n"
      "  (workers of that name started before are refused from now on)\n"
      "Wrote {}: a Slurm job array of {} workers\n"
      "Wrote {}: a Kubernetes Deployment of {} workers\n"
      "  and the Secret with their token (keep the file private)\n"
      "Each worker: {} game(s) at once, {} CPUs, {} MB; Slurm's time limit {}\n"
      "Start with:  sbatch {}\n"
      "             (Kubernetes: kubectl apply -f {})\n"
      "Stop with:   scancel --name={}\n"
      "             (Kubernetes: kubectl delete -f {})\n"
      "Watch the workers and their games on the server's ladder page.\n",
      f.token.string(), o.name, f.script.string(), o.workers, f.manifest.string(), o.workers,
      o.games, r.cpus, r.memory_mib, tournament::slurm_time(std::chrono::minutes(o.time_minutes)),
      f.script.string(), f.manifest.string(), f.name, f.manifest.string());
  if (o.workers > 1000)
    fmt::print(
        "note: Slurm's default MaxArraySize allows 1000 array tasks at most (scontrol "
        "show config)\n");
  if (is_loopback(o.url))
    fmt::print(
        "note: {} is this machine's own address: workers on other machines cannot reach it\n",
        o.url);
  return 0;
}

}  // namespace

void add_course_cluster(CLI::App& course, int& exit_code) {
  auto o = std::make_shared<Options>();
  auto* cmd = course.add_subcommand(
      "slurm",
      "Writes the job files that run N course workers on a cluster: a Slurm batch script for a "
      "job array (DIR/cluster/workers.sbatch) and a Kubernetes Deployment "
      "(DIR/cluster/kubernetes-workers.yaml), with a new worker token in "
      "DIR/cluster/worker-token");
  cmd->footer(
      "Each worker runs: arena course worker URL -j GAMES, and plays the ladder's and the\n"
      "challenges' games until it is stopped; a game whose worker is stopped goes back to the\n"
      "queue when its lease runs out (arena course serve --lease), and another worker plays it.\n"
      "CPUs and memory per worker: two agents a game, each with the sandbox's default limits.\n"
      "The Slurm tasks read the token from DIR/cluster/worker-token (readable by you only): the\n"
      "nodes must see it and the arena binary at the same paths (a shared file system). The\n"
      "Kubernetes file holds the token in a Secret: keep it private. Running this again makes\n"
      "a new token: workers started before are refused. See docs/cluster.md.");
  cmd->add_option("dir", o->dir, "The course folder (arena course init)")->required();
  cmd->add_option("--workers", o->workers, "Number of workers: array tasks, or pods")
      ->required()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--url", o->url,
                  "The course server as the nodes reach it, e.g. http://course.example.org:8080/")
      ->required();
  cmd->add_option("--games-per-worker,-j", o->games,
                  "Games a worker plays at once (its -j); CPUs and memory follow")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--time", o->time_minutes,
                  "Time limit per worker in minutes; a worker that reaches it stops, its game is "
                  "played again by another")
      ->capture_default_str()
      ->check(CLI::Range(1, 366 * 24 * 60));
  cmd->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--account", o->account, "Slurm account (default: yours)");
  cmd->add_option("--image", o->image, "Kubernetes: an image with arena on its PATH")
      ->capture_default_str();
  cmd->add_option("--name", o->name,
                  "The workers' name on the server's ladder page (all share it and its token); "
                  "also in the Slurm job's and the Deployment's name")
      ->capture_default_str();
  cmd->callback([o, &exit_code] {
    try {
      exit_code = write_worker_jobs(*o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
