// `arena course init|serve|backup|password|token|status` (docs/course.md).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "course/backup.hpp"
#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/server.hpp"
#include "course/store.hpp"

namespace arena::cli {
namespace fs = std::filesystem;

namespace {

// Runs a command's body, turning an exception into "error: ..." and exit status 1.
void guarded(int& exit_code, const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    exit_code = 1;
  }
}

course::User console_user(course::Store& store, const std::string& login) {
  auto u = store.user(course::normalize_login(login));
  if (!u) throw std::runtime_error(fmt::format("'{}' is not on the roster", login));
  return *u;
}

}  // namespace

void add_course_status(CLI::App& course, int& exit_code);
void add_course_worker(CLI::App& course, int& exit_code);
void add_course_cluster(CLI::App& course, int& exit_code);

void add_course(CLI::App& app, int& exit_code) {
  auto* course = app.add_subcommand(
      "course",
      "A course server: students hand in through a web page and see their verdicts, "
      "games and the leaderboard (docs/course.md)");
  course->require_subcommand(1);

  struct InitOptions {
    std::string dir, game, roster, title;
  };
  auto init = std::make_shared<InitOptions>();
  auto* init_cmd = course->add_subcommand("init", "Make a course folder from a roster");
  init_cmd->add_option("dir", init->dir, "The new course folder")->required();
  std::vector<std::string> games;
  for (const GameInfo& g : all_games()) games.emplace_back(g.name);
  init_cmd->add_option("--game", init->game, "The course's game: " + game_names())
      ->required()
      ->check(CLI::IsMember(games));
  init_cmd
      ->add_option("--roster", init->roster,
                   "CSV with the columns login,name,role (student or staff); more columns "
                   "are kept")
      ->required()
      ->check(CLI::ExistingFile);
  init_cmd->add_option("--title", init->title, "The course's name on its pages");
  init_cmd->callback([init, &exit_code] {
    guarded(exit_code, [&] {
      const auto roster = course::read_roster(init->roster);
      const std::string title =
          init->title.empty() ? std::string(game_named(init->game).title) : init->title;
      course::init_course({init->dir}, init->game, title, roster);
      int staff = 0;
      for (const auto& e : roster) staff += e.role == "staff";
      fmt::print("course '{}' ({}) in {}: {} student(s), {} staff\n", title, init->game, init->dir,
                 roster.size() - static_cast<std::size_t>(staff), staff);
      fmt::print(
          "next: arena course password {} LOGIN (for each staff member), then arena course "
          "serve {}\n",
          init->dir, init->dir);
    });
  });

  auto serve = std::make_shared<course::CourseServerOptions>();
  auto max_upload_mb = std::make_shared<int>(32);
  auto* serve_cmd = course->add_subcommand("serve", "Serve a course folder until Ctrl-C");
  serve_cmd->add_option("dir", serve->dir, "The course folder")->required();
  serve_cmd
      ->add_option("--host", serve->host,
                   "Address to listen on (behind a reverse proxy for TLS: 127.0.0.1)")
      ->capture_default_str();
  serve_cmd->add_option("--port", serve->port, "TCP port (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  serve_cmd->add_option("--max-upload", *max_upload_mb, "MB a hand-in may have")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  serve_cmd->add_option("--threads", serve->threads, "Requests answered at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  serve_cmd->add_flag("--secure-cookies", serve->limits.secure_cookies,
                      "Mark the session cookie Secure (when an HTTPS proxy is in front)");
  serve_cmd->add_flag("--behind-proxy", serve->limits.behind_proxy,
                      "Take the client's address from the last X-Forwarded-For entry (a reverse "
                      "proxy in front; its login limits then count each student, not the proxy)");
  serve_cmd
      ->add_option("--checks", serve->checks,
                   "Hand-ins checked at once (each check's build and games take cores: on a "
                   "machine of N cores, about N/2)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  serve_cmd->add_flag("--checks-on-workers", serve->checks_on_workers,
                      "Workers check the hand-ins (build, smoke games, grading) as jobs, like "
                      "games: the server's own worker among them (--local-games), or only "
                      "workers on other machines with --local-games 0");
  auto no_grade = std::make_shared<bool>(false);
  serve_cmd->add_flag("--no-grade", *no_grade,
                      "Check hand-ins without grading them (Paper Soccer's grading games take "
                      "minutes)");
  serve_cmd->add_option("--check-options", serve->check_args,
                        "More options for each hand-in's check, as for arena handin check "
                        "(e.g. \"--smoke-plies 40 --sandbox required\")");
  serve_cmd
      ->add_option("--local-games", serve->local_games,
                   "Ladder and challenge games this machine plays at once (default: one per two "
                   "cores; 0: none, workers on other machines play them)")
      ->check(CLI::Range(0, 256));
  serve_cmd
      ->add_option("--move-time", serve->move_time_ms,
                   "Milliseconds per move in ladder and challenge games (default: the "
                   "game's course limit)")
      ->check(CLI::Range(1, 3'600'000));
  serve_cmd
      ->add_option("--lease", serve->ladder.lease_seconds,
                   "Seconds a worker that stops answering keeps its game before it is "
                   "given to another")
      ->capture_default_str()
      ->check(CLI::Range(5, 3600));
  serve_cmd
      ->add_option("--ladder-queue", serve->ladder.queued_games,
                   "Ladder games kept waiting for workers")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  serve_cmd
      ->add_option("--settle-games", serve->ladder.policy.settle_games,
                   "Games a new version plays before others' (its rating has settled)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  serve_cmd->add_option("--worker-options", serve->worker_args,
                        "More options for the server's own worker, as for arena course worker "
                        "(e.g. \"--sandbox required\")");
  serve_cmd->callback([serve, max_upload_mb, no_grade, &exit_code] {
    serve->grade = !*no_grade;
    serve->limits.max_upload_bytes = static_cast<std::size_t>(*max_upload_mb) << 20;
    guarded(exit_code, [&] { course::serve_course(*serve, std::cout); });
  });

  auto backup = std::make_shared<std::pair<std::string, std::string>>();
  auto* backup_cmd = course->add_subcommand(
      "backup", "Copy the course (database and hand-ins) into one tar file, also while serving");
  backup_cmd->add_option("dir", backup->first, "The course folder")->required();
  backup_cmd->add_option("file", backup->second, "The tar file to write (must not exist)")
      ->required();
  backup_cmd->callback([backup, &exit_code] {
    guarded(exit_code, [&] {
      const auto s = course::backup_course(backup->first, backup->second);
      fmt::print("backed up the database and {} hand-in file(s) ({} bytes) to {}\n", s.files,
                 s.bytes, backup->second);
    });
  });

  auto who = std::make_shared<std::pair<std::string, std::string>>();
  auto* password_cmd = course->add_subcommand(
      "password",
      "Print a new one-time password for a login (its owner chooses their own at the "
      "first login; every session of theirs ends)");
  password_cmd->add_option("dir", who->first, "The course folder")->required();
  password_cmd->add_option("login", who->second, "Whose")->required();
  password_cmd->callback([who, &exit_code] {
    guarded(exit_code, [&] {
      course::Store store(course::CourseDir{who->first}.db(), false);
      const auto u = console_user(store, who->second);
      const std::string password = course::random_password();
      store.set_password(u.id, course::hash_password(password), true);
      store.log_event("console", "password-reset", u.login);
      fmt::print("{}\n", password);
    });
  });

  auto* token_cmd = course->add_subcommand(
      "token", "Print a new API token for a login (for arena submit and scripts)");
  token_cmd->add_option("dir", who->first, "The course folder")->required();
  token_cmd->add_option("login", who->second, "Whose")->required();
  auto revoke = std::make_shared<bool>(false);
  token_cmd->add_flag("--revoke", *revoke, "End every token of the login instead");
  token_cmd->callback([who, revoke, &exit_code] {
    guarded(exit_code, [&] {
      course::Store store(course::CourseDir{who->first}.db(), false);
      const auto u = console_user(store, who->second);
      if (*revoke) {
        const int n = store.revoke_tokens(u.id);
        store.log_event("console", "tokens-revoked", u.login);
        fmt::print("ended {} token(s) of {}\n", n, u.login);
        return;
      }
      const std::string token = course::random_secret(32);
      store.add_token(u.id, course::sha256_hex(token));
      store.log_event("console", "token", u.login);
      fmt::print("{}\n", token);
    });
  });

  auto worker = std::make_shared<std::pair<std::string, std::string>>();
  auto* worker_token_cmd = course->add_subcommand(
      "worker-token",
      "Print a new token for a worker machine (arena course worker URL --token T); a worker of "
      "the same name gets a new one and the old one stops working");
  worker_token_cmd->add_option("dir", worker->first, "The course folder")->required();
  worker_token_cmd->add_option("name", worker->second, "The worker's name, e.g. lab-pc-07")
      ->required();
  auto remove = std::make_shared<bool>(false);
  worker_token_cmd->add_flag("--revoke", *remove, "End the worker's token instead");
  worker_token_cmd->callback([worker, remove, &exit_code] {
    guarded(exit_code, [&] {
      if (!course::is_valid_login(worker->second) || worker->second == "local")
        throw std::runtime_error(
            "a worker's name is lowercase letters, digits, '.', '_' or '-' (and not 'local', "
            "the server's own)");
      course::Store store(course::CourseDir{worker->first}.db(), false);
      if (*remove) {
        const bool removed = store.remove_worker(worker->second);
        store.log_event("console", "worker-revoked", worker->second);
        fmt::print("{}\n", removed ? "ended the worker's token" : "no such worker");
        return;
      }
      const std::string token = course::random_secret(32);
      store.set_worker(worker->second, course::sha256_hex(token));
      store.log_event("console", "worker-token", worker->second);
      fmt::print("{}\n", token);
    });
  });

  add_course_status(*course, exit_code);
  add_course_worker(*course, exit_code);
  add_course_cluster(*course, exit_code);
}

}  // namespace arena::cli
