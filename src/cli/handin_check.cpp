// `arena handin check GAME PATH`: whether a student's hand-in unpacks, builds and plays, as it
// will be run in a tournament. One line per stage, then one verdict line; --json gives one
// object instead. Exit status 0 accepted, 1 rejected, 2 bad usage. See docs/handin.md.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/handin_grade.hpp"
#include "cli/handin_prepare.hpp"

namespace arena::cli {
namespace {

int check(const CheckOptions& o) {
  HandinReport report(o.json);
  const CheckedHandin c = check_handin(game_named(o.game), o, report);
  return report.finish(c.out, c.accepted, c.reason);
}

}  // namespace

void add_handin(CLI::App& app, int& exit_code) {
  auto* handin = app.add_subcommand("handin", "Students' hand-ins: check one before an event");
  handin->require_subcommand(1);
  auto* cmd = handin->add_subcommand(
      "check",
      "Unpack a hand-in safely, build it in the sandbox, and play two smoke games against the "
      "random player; prints one verdict line (exit 0 accepted, 1 rejected)");
  auto o = std::make_shared<CheckOptions>();
  add_check_options(*cmd, *o, "smoke games", "agent/, build.log, smoke/, verdict.json");
  cmd->add_flag("--no-smoke", o->no_smoke,
                "Build only, without the smoke games (a course worker building a hand-in the "
                "server has checked already)");
  add_handin_batch(*handin, exit_code);
  cmd->callback([o, &exit_code] {
    try {
      exit_code = check(*o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 2;
    }
  });
  add_handin_grade(*handin, exit_code);
}

}  // namespace arena::cli
