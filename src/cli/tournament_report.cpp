// `arena tournament report DIR [--html OUT]`: the standings step (every journal of the event read
// into its standings files) and the tournament's pages as a folder to publish.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "tournament/event_runner.hpp"
#include "tournament/journal.hpp"
#include "view/static_export.hpp"

namespace arena::cli {

void add_tournament_report(CLI::App& tournament, int& exit_code) {
  auto* cmd = tournament.add_subcommand(
      "report",
      "Writes an event's standings from all its journals (every shard's), and with --html its "
      "pages (standings, crosstable, charts, every game to step through) as a folder that opens "
      "from file:// without a server and can be published as it is");
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
                  "Pages to write: a folder new, empty, or holding an earlier report (replaced)");
  cmd->callback([o, &exit_code] {
    try {
      // The standings step: always without --html; with it, for an event played in shards
      // (whose last shard may not have seen the others finish). A one-machine event wrote its
      // standings when it ended.
      const std::filesystem::path dir(o->dir);
      if (o->html.empty() || std::filesystem::is_directory(dir / tournament::kShardsFolder))
        tournament::report_event(dir, std::cout);
      if (o->html.empty()) {
        exit_code = 0;
        return;
      }
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
  });
}

}  // namespace arena::cli
