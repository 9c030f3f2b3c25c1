#pragma once
// `arena course serve`: one course folder behind one HTTP server, with the hand-in checker
// running beside it. Taking the folder's lock, migrating, and putting back the checks a stopped
// server left half done all happen before the first request.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>

#include "course/routes.hpp"

namespace arena::course {

struct CourseServerOptions {
  std::filesystem::path dir;
  std::string host = "127.0.0.1";
  int port = 8080;   // 0: any free port
  int threads = 64;  // a slow client holds one while it sends
  CourseLimits limits;
  std::string check_args;          // more options for `arena handin check`
  bool grade = true;               // grade where the game has the course's grading (Paper Soccer)
  int checks = 1;                  // hand-ins checked at once
  bool checks_on_workers = false;  // workers (this machine's among them) check the hand-ins
  // The ladder: games at once on this machine (-1: as its cores allow; 0: none, workers on other
  // machines play them all), their time per move (0: the game's course limit), the lease a
  // worker holds a game under, and games kept waiting for workers.
  int local_games = -1;
  int move_time_ms = 0;
  LadderOptions ladder;
  std::string worker_args;  // more options for the server's own worker
};

// Serves until SIGINT/SIGTERM; prints the address once listening. Throws std::runtime_error
// (the folder is no course, another server holds it, the port is taken).
void serve_course(const CourseServerOptions& options, std::ostream& out);

}  // namespace arena::course
