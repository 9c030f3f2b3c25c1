// `arena course worker URL`: checks a course's hand-ins and plays its ladder and challenge games
// on this machine. Each of its -j slots leases a job over the API, keeps the lease alive while it
// works, and posts the verdict or the record; a slot whose lease ran out (the server gave the job
// to another worker) drops it.
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "cli/commands.hpp"
#include "cli/course_client.hpp"
#include "cli/course_worker_job.hpp"
#include "sandbox/child_process.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

struct WorkerOptions {
  std::string url, token;
  int games = 0;
  std::string cache = "arena-worker-cache";
  std::string check_args;
  SandboxMode sandbox = SandboxMode::Auto;
  double poll_s = 2;
};

std::atomic<bool> g_stop{false};
std::mutex g_print;

template <typename... Args>
void say(fmt::format_string<Args...> format, Args&&... args) {
  std::lock_guard lock(g_print);
  fmt::print(format, std::forward<Args>(args)...);
  std::fflush(stdout);
}

// Renews a lease every third of its time until stopped. A lease the server took back (it thought
// the worker dead) is noticed when the record is refused.
class LeaseKeeper {
 public:
  LeaseKeeper(const WorkerOptions& o, std::int64_t job, std::string lease, int seconds)
      : thread_([=, this] {
          CourseClient client(o.url, o.token);
          const auto every = std::chrono::milliseconds(std::max(1, seconds) * 1000 / 3);
          std::unique_lock lock(mutex_);
          while (!done_) {
            if (wake_.wait_for(lock, every, [this] { return done_; })) break;
            lock.unlock();
            try {
              client.post(fmt::format("/api/worker/jobs/{}/renew", job), {{"lease", lease}});
            } catch (const std::exception&) {
              // The server is away for a moment: the lease may still hold when it is back.
            }
            lock.lock();
          }
        }) {}
  ~LeaseKeeper() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

void sleep_for(double seconds) {
  for (double t = 0; t < seconds && !g_stop.load(); t += 0.1)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

std::string job_title(const nlohmann::json& lease) {
  const auto name = [&](const char* side) {
    return lease.contains(side) && lease[side].is_object() ? lease[side].value("name", "?")
                                                           : std::string("?");
  };
  if (lease.value("kind", "") == "check") return name("handin");
  return name("white") + " - " + name("black");
}

// A job done: the result to post, or why it was not done (then it is given back).
struct Outcome {
  std::string why_not;
  nlohmann::json result;
  std::string summary;
};

Outcome play(CourseClient& client, const nlohmann::json& lease, const WorkerSettings& settings) {
  const PlayedJob played = play_job(client, lease, settings);
  if (!played.played) return {played.why_not, {}, {}};
  return {{},
          {{"record", played.record},
           {"logs", {{"white", played.white_log}, {"black", played.black_log}}}},
          played.summary};
}

Outcome check(CourseClient& client, const nlohmann::json& lease, const WorkerSettings& settings) {
  const CheckedJob checked = check_job(client, lease, settings);
  if (!checked.checked) return {checked.why_not, {}, {}};
  return {{}, {{"report", checked.report}}, checked.summary};
}

// One slot: lease, play, post, until stopped. A wrong token stops the whole worker.
void slot(const WorkerOptions& o, WorkerSettings settings, int index, int& exit_code) {
  CourseClient client(o.url, o.token);
  while (!g_stop.load()) {
    CourseClient::Answer lease;
    try {
      lease = client.post("/api/worker/lease", {{"kinds", {"ladder", "challenge", "check"}}});
    } catch (const std::exception& e) {
      say("slot {}: {}; trying again\n", index, e.what());
      sleep_for(o.poll_s * 5);
      continue;
    }
    if (lease.status == 401 || lease.status == 403) {
      say("error: the server refuses this worker: {}\n", lease.error());
      exit_code = 1;
      g_stop.store(true);
      return;
    }
    if (lease.status != 200 || !lease.body.is_object()) {
      if (lease.status != 204) say("slot {}: the server answered {}\n", index, lease.error());
      sleep_for(o.poll_s);
      continue;
    }
    const auto job = lease.body.value("job", std::int64_t{0});
    const std::string secret = lease.body.value("lease", "");
    const std::string kind = lease.body.value("kind", "");
    say("slot {}: job {} ({}): {}\n", index, job, kind, job_title(lease.body));
    try {
      LeaseKeeper keeper(o, job, secret, lease.body.value("lease_seconds", 60));
      const Outcome done = kind == "check" ? check(client, lease.body, settings)
                                           : play(client, lease.body, settings);
      if (!done.why_not.empty()) {
        say("slot {}: job {} given back: {}\n", index, job, done.why_not);
        client.post(fmt::format("/api/worker/jobs/{}/release", job),
                    {{"lease", secret}, {"reason", done.why_not}});
        sleep_for(o.poll_s);
        continue;
      }
      nlohmann::json result = done.result;
      result["lease"] = secret;
      const auto posted = client.post(fmt::format("/api/worker/jobs/{}/result", job), result);
      if (posted.status == 200)
        say("slot {}: job {} done: {}\n", index, job, done.summary);
      else
        say("slot {}: job {} not taken ({}): {}\n", index, job, posted.status, posted.error());
    } catch (const std::exception& e) {
      say("slot {}: job {} failed here: {}\n", index, job, e.what());
      try {
        client.post(fmt::format("/api/worker/jobs/{}/release", job),
                    {{"lease", secret}, {"reason", e.what()}});
      } catch (const std::exception&) {
        // Its lease runs out and the server gives it to another worker.
      }
      sleep_for(o.poll_s);
    }
  }
}

int run_worker(WorkerOptions o) {
  // The token is kept in memory only: nothing this worker starts (builds, agents) inherits it.
  if (o.token.empty())
    if (const char* env = std::getenv("ARENA_TOKEN")) o.token = env;
  ::unsetenv("ARENA_TOKEN");
  // The server's own worker dies with its server.
  if (const char* parent = std::getenv("ARENA_PARENT_PID")) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (std::to_string(::getppid()) != parent) return 1;
  }
  CourseClient probe(o.url, o.token);  // checks the address and the token's presence
  const std::vector<int> cpus = usable_cpus();
  const SandboxPlan plan = plan_sandbox(o.sandbox, AgentChannel::Tcp);
  // As many games as give each agent a core of its own (as tournaments do); without the CPU
  // protection, one per core.
  const int games =
      o.games > 0
          ? o.games
          : std::max(1, static_cast<int>(cpus.size()) / (plan.uses(Protection::Cpu) ? 2 : 1));
  fs::create_directories(o.cache);
  say("arena course worker for {}: {} game(s) at once, cache {}\nSandbox: {}\n", o.url, games,
      fs::absolute(o.cache).string(), sandbox_summary(plan));
  end_children_on_signals();
  int exit_code = 0;
  std::vector<std::thread> slots;
  for (int i = 0; i < games; ++i) {
    WorkerSettings s;
    s.cache = fs::absolute(o.cache);
    s.check_args = o.check_args;
    s.sandbox = o.sandbox;
    if (!cpus.empty())
      s.cores = {cpus[static_cast<std::size_t>(2 * i) % cpus.size()],
                 cpus[static_cast<std::size_t>(2 * i + 1) % cpus.size()]};
    slots.emplace_back([&o, s, i, &exit_code] { slot(o, s, i + 1, exit_code); });
  }
  for (auto& t : slots) t.join();
  return exit_code;
}

}  // namespace

void add_course_worker(CLI::App& course, int& exit_code) {
  auto o = std::make_shared<WorkerOptions>();
  auto* cmd = course.add_subcommand(
      "worker",
      "Play a course server's ladder and challenge games (and check its hand-ins, with serve "
      "--checks-on-workers) on this machine: leases jobs over the API, builds each hand-in once "
      "(cached by hash), plays in the sandbox, posts the records and verdicts");
  cmd->add_option("url", o->url, "The course server, e.g. http://course.example.org:8080")
      ->required();
  cmd->add_option("--token", o->token,
                  "The worker's token (arena course worker-token; default: ARENA_TOKEN)");
  cmd->add_option("-j,--games", o->games,
                  "Games at once (default: one per two cores, each agent a core of its own)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--cache", o->cache, "Where built hand-ins are kept, by hash")
      ->capture_default_str();
  cmd->add_option("--check-options", o->check_args,
                  "More options for building a hand-in, as for arena handin check (e.g. "
                  "\"--build-timeout 600\")");
  cmd->add_option("--sandbox", o->sandbox,
                  "auto: confine builds and agents with what this machine allows; required: "
                  "refuse without every protection; off: plain child processes")
      ->transform(one_of<SandboxMode>({{"auto", SandboxMode::Auto},
                                       {"required", SandboxMode::Required},
                                       {"off", SandboxMode::Off}}))
      ->default_str("auto");
  cmd->add_option("--poll", o->poll_s, "Seconds between asking for work when there is none")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 600.0));
  cmd->callback([o, &exit_code] {
    try {
      exit_code = run_worker(*o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
