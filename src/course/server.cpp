#include "course/server.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>
#include <stdexcept>

#include "course/check_report.hpp"
#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/local_worker.hpp"
#include "games/registry.hpp"
#include "sandbox/cgroup.hpp"
#include "sandbox/shell_words.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace fs = std::filesystem;

void serve_course(const CourseServerOptions& o, std::ostream& out) {
  if (o.checks_on_workers) {
    // Workers take the check options as words: none that the shell would read, and none that
    // a worker decides for itself.
    std::vector<std::string> words;
    for (const ShellWord& w : shell_words(o.check_args)) {
      if (w.op || w.expands)
        throw std::runtime_error(
            fmt::format("--check-options '{}': with --checks-on-workers, give plain options only",
                        o.check_args));
      words.push_back(w.text);
    }
    if (const auto refused = refused_worker_check_option(words))
      throw std::runtime_error(
          *refused +
          ": with --checks-on-workers, give it to the workers (--worker-options for "
          "the server's own)");
  }
  const CourseDir dir{fs::absolute(o.dir)};
  std::error_code ec;
  if (!fs::is_regular_file(dir.db(), ec))
    throw std::runtime_error(
        fmt::format("{} is not a course folder (no course.db): make one with arena course init",
                    o.dir.string()));
  ServerLock lock(dir);
  make_private(dir);
  Store store(dir.db(), false);
  FileStore files(dir.files());
  const std::string game = store.setting("game").value_or("");
  const GameInfo* info = find_game(game);
  if (!info) throw std::runtime_error("the course's game '" + game + "' is unknown");
  // A server killed with its checks left their sandboxes' cgroups behind.
  remove_stale_cgroups();
  if (const int redo = store.requeue_interrupted(o.checks_on_workers); redo > 0) {
    fmt::print(out, "{} hand-in(s) left half checked go back to the queue\n", redo);
    store.log_event("server", "requeue", fmt::format("{} hand-in(s) after a stop", redo));
  }

  CheckerOptions check;
  check.arena_binary = fs::read_symlink("/proc/self/exe");
  check.work_dir = dir.work();
  check.game = game;
  check.grade = o.grade && game == "soccer";
  check.extra_args = o.check_args;
  check.parallel = o.checks;
  check.on_workers = o.checks_on_workers;
  Ladder ladder(store, o.ladder);
  check.on_verdict = [&ladder] { ladder.wake(); };
  Checker checker(store, files, check);
  LoginLimiter limiter;
  FinalTournament final_tournament(
      store, ladder, {check.arena_binary, dir.root, game, o.move_time_ms, o.check_args});
  CourseContext ctx{store,    files, checker,       limiter, ladder, final_tournament,
                    o.limits, game,  o.move_time_ms};

  httplib::Server server;
  web::ServerLimits limits;
  limits.max_body_bytes = o.limits.max_upload_bytes + (64u << 10);  // the form around the file
  limits.threads = o.threads;
  limits.read_timeout_s = 30;  // an upload on a slow link
  limits.large_body = large_body_route;
  web::configure(server, limits);
  add_session_routes(server, ctx);
  add_submission_routes(server, ctx);
  add_game_routes(server, ctx);
  add_staff_routes(server, ctx);
  add_page_routes(server, ctx);
  add_worker_routes(server, ctx);
  add_ladder_routes(server, ctx);
  add_final_routes(server, ctx);

  const int port = web::bind(server, o.host, o.port);
  checker.start();
  // Workers went on playing while the server was down: their leases run from now.
  store.extend_leases(unix_now() + o.ladder.lease_seconds);
  ladder.start();
  final_tournament.resume();
  std::optional<LocalWorker> local_worker;
  if (o.local_games != 0) {
    // A new token at every start: the one before dies with the server that made it.
    const std::string token = random_secret();
    store.set_worker("local", sha256_hex(token));
    LocalWorkerOptions w;
    w.arena_binary = check.arena_binary;
    const bool any_host = o.host == "0.0.0.0" || o.host == "::" || o.host.empty();
    const bool ipv6 = o.host.find(':') != std::string::npos;
    w.url = fmt::format("http://{}:{}/",
                        any_host ? "127.0.0.1"
                        : ipv6   ? "[" + o.host + "]"
                                 : o.host,
                        port);
    w.token = token;
    w.cache_dir = dir.root / "cache";
    w.log_file = dir.root / "worker.log";
    w.games = std::max(0, o.local_games);
    w.extra_args = o.worker_args;
    local_worker.emplace(std::move(w));
  }
  store.log_event("server", "start", fmt::format("{}:{}", o.host, port));
  fmt::print(out, "arena course server on http://{}:{}/ for {} ({})\n", o.host, port,
             store.setting("title").value_or(""), game);
  out.flush();
  web::serve(server, true, out);
  local_worker.reset();
  ladder.stop();
  checker.stop();
  store.log_event("server", "stop", "");
}

}  // namespace arena::course
