// `arena tournament report DIR --html OUT`: a tournament's pages as a folder to publish.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "view/static_export.hpp"

namespace arena::cli {

void add_tournament_report(CLI::App& tournament, int& exit_code) {
  auto* cmd = tournament.add_subcommand(
      "report",
      "Writes a tournament's pages (standings, crosstable, charts, every game to step through) "
      "as a folder that opens from file:// without a server and can be published as it is");
  cmd->footer(
      "The folder holds index.html, the page's CSS and JavaScript, data.js and data/ (the "
      "tournament\nand every game, embedded) and files/ (the records, results.json and the "
      "standings files).\nSee docs/viewer.md.");
  struct Options {
    std::string dir, html;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("dir", o->dir, "The tournament's event folder")->required();
  cmd->add_option("--html", o->html,
                  "Folder to write: new, empty, or holding an earlier report (replaced)")
      ->required();
  cmd->callback([o, &exit_code] {
    try {
      const auto done = view::export_static_site(o->dir, o->html);
      fmt::print(
          "Wrote {} games and {} participants' pages to {}: open {}/index.html, or publish "
          "the folder as it is\n",
          done.games, done.participants, o->html, o->html);
      exit_code = 0;
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
    // Ends the parse here: `arena tournament`'s own callback (which runs an event) runs after
    // its subcommands' and must not run for a report.
    if (exit_code != 0) throw CLI::RuntimeError(exit_code);
    throw CLI::Success();
  });
}

}  // namespace arena::cli
