// `arena handin grade GAME PATH`: everything `arena handin check` does and, for an accepted
// hand-in, its grading games: one line per game, the tables, then the verdict line with the grade
// ("points N/90" in Paper Soccer). --json: check's object with a "grade" member. Exit status 0
// accepted and graded, 1 rejected, 2 bad usage.
#include "cli/handin_grade.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.hpp"
#include "cli/handin_grading.hpp"
#include "cli/handin_prepare.hpp"

namespace arena::cli {
namespace {

struct GradeOptions {
  CheckOptions check;
  std::string levels = "1-5";
};

int grade(const GradeOptions& o) {
  const GameInfo& game = game_named(o.check.game);
  const auto levels = parse_levels(o.levels);
  if (!levels) throw std::runtime_error("--levels: " + levels.error);
  GradePlan plan;
  plan.bucharest = game.name == "soccer";
  plan.levels = *levels.value;

  HandinReport report(o.check.json);
  const CheckedHandin c = check_handin(game, o.check, report);
  if (!c.accepted) return report.finish(c.out, false, c.reason);

  SmokeOptions games;
  games.command = c.run;
  games.root = c.root;
  games.dir = c.out / "grade";
  games.move_time_ms = o.check.move_time_ms;
  games.sandbox = o.check.sandbox;
  games.arena_binary = own_binary();
  const Grade g = grade_handin(game, games, plan, [&](const GradedGame& played) {
    // Not in the report's "games": those are check's smoke games.
    if (o.check.json) return;
    fmt::print("{:<8} {}\n", "grade:", played.line());
    std::fflush(stdout);
  });
  if (!o.check.json) fmt::print("{}", g.table());
  report.set_grade(g.to_json());
  return report.finish(c.out, true, fmt::format("{}; {}", c.reason, g.summary()));
}

}  // namespace

void add_handin_grade(CLI::App& handin, int& exit_code) {
  auto* cmd = handin.add_subcommand(
      "grade",
      "Check a hand-in as `arena handin check` does and, if it is accepted, grade it: Paper "
      "Soccer by the Bucharest course's scheme (the reference bot at difficulties 0, 1 and 2, "
      "both seats, seed 42, a win 10/15/20 points, 90 in all), and every game against arena's "
      "engine at levels 1 to 5 in both colours; prints a line per game, the tables and one "
      "verdict line (exit 0 accepted and graded, 1 rejected)");
  auto o = std::make_shared<GradeOptions>();
  add_check_options(*cmd, o->check, "smoke and grading games",
                    "agent/, build.log, smoke/, grade/, verdict.json");
  cmd->add_option("--levels", o->levels,
                  "The engine levels to play, each in both colours: a range, a list or both "
                  "(1-5, 1,3, 1-2,5), or none")
      ->capture_default_str();
  cmd->callback([o, &exit_code] {
    try {
      exit_code = grade(*o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 2;
    }
  });
}

}  // namespace arena::cli
