// arena: run AI board-game competitions as university AI courses run them.
#include <fmt/format.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <exception>
#include <string>

#include "cli/commands.hpp"

namespace {

// A program that runs arena as its worker (the course server's checks) sets ARENA_PARENT_PID:
// this arena then ends with it, however it ends (kill -9 included), and takes its own children
// along (SIGTERM ends them first).
void end_with_parent_if_asked() {
  const char* parent = std::getenv("ARENA_PARENT_PID");
  if (!parent) return;
  const bool orphaned = std::to_string(::getppid()) != parent;
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (orphaned) std::_Exit(1);     // it ended before we could ask
  ::unsetenv("ARENA_PARENT_PID");  // for this arena only, not for the arenas it starts
}

}  // namespace

int main(int argc, char** argv) {
  end_with_parent_if_asked();
  CLI::App app{
      "arena: referee servers, clients, engines and tools for the course board games "
      "(" +
          arena::game_names() + ")",
      "arena"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "arena 0.1.0");
  int exit_code = 0;
  arena::cli::add_serve(app, exit_code);
  arena::cli::add_connect(app, exit_code);
  arena::cli::add_play(app, exit_code);
  arena::cli::add_perft(app, exit_code);
  arena::cli::add_bench(app, exit_code);
  arena::cli::add_tournament(app, exit_code);
  arena::cli::add_mulino(app, exit_code);
  arena::cli::add_replay(app, exit_code);
  arena::cli::add_web(app, exit_code);
  arena::cli::add_soccer_referee(app, exit_code);
  arena::cli::add_soccer_ref(app, exit_code);
  arena::cli::add_soccer_view(app, exit_code);
  arena::cli::add_soccer_bot(app, exit_code);
  arena::cli::add_sandbox(app, exit_code);
  arena::cli::add_match(app, exit_code);
  arena::cli::add_engine(app, exit_code);
  arena::cli::add_endgames(app, exit_code);
  arena::cli::add_handin(app, exit_code);
  arena::cli::add_course(app, exit_code);
  arena::cli::add_submit(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    // `arena handin check` keeps 1 for a rejected hand-in: a bad command line is 2 there.
    if (code != 0 && app.got_subcommand("handin")) return 2;
    return code;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return exit_code;
}
