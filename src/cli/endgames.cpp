// `arena endgames build morris` and `arena endgames check morris`: the Morris endgame databases
// in the cache folder every engine reads them from (src/games/morris/endgames.hpp).
#include "games/morris/endgames.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cli/commands.hpp"
#include "games/morris/endgame_verify.hpp"

namespace arena::cli {
namespace {

namespace eg = morris::endgame;

struct Options {
  std::string game;
  std::string dir;
  int pieces = eg::kDefaultMaxPieces;
  bool force = false;
  bool deep = false;
};

void add_common(CLI::App& cmd, Options& o) {
  cmd.add_option("game", o.game, "The game (morris)")->required()->check(CLI::IsMember({"morris"}));
  cmd.add_option("--dir", o.dir,
                 "The folder (default $ARENA_ENDGAMES, else $XDG_CACHE_HOME/arena/endgames, "
                 "else ~/.cache/arena/endgames)");
  cmd.add_option("--pieces", o.pieces,
                 "Tables up to this many pieces on the board in all (8: 3-3, 4-3, 4-4, 5-3)")
      ->check(CLI::Range(6, 2 * morris::kPiecesPerSide));
}

std::filesystem::path folder(const Options& o) {
  return o.dir.empty() ? eg::default_directory() : std::filesystem::path(o.dir);
}

}  // namespace

void add_endgames(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "endgames", "Endgame databases (Morris: every position with no pieces in hand)");
  cmd->require_subcommand(1);

  auto o = std::make_shared<Options>();
  auto* build = cmd->add_subcommand(
      "build", "Solve the tables by retrograde analysis into the cache folder (valid ones kept)");
  add_common(*build, *o);
  build->add_flag("--force", o->force, "Rebuild tables that are already there");
  build->callback([o, &exit_code] {
    const auto dir = folder(*o);
    const auto t0 = std::chrono::steady_clock::now();
    fmt::print("Morris endgame tables up to {} pieces in {}\n", o->pieces, dir.string());
    std::string error;
    const bool ok = eg::build_tables(
        dir, o->pieces, o->force,
        [](const std::string& line) {
          fmt::print("{}\n", line);
          std::fflush(stdout);
        },
        error);
    if (!ok) {
      fmt::print(stderr, "error: {}\n", error);
      exit_code = 1;
      return;
    }
    fmt::print("done in {:.1f} s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  });

  auto c = std::make_shared<Options>();
  auto* check = cmd->add_subcommand(
      "check", "Verify the tables in the cache folder (exit 0 when all are there and valid)");
  add_common(*check, *c);
  check->add_flag("--deep", c->deep,
                  "Also check every entry against the rules' move generator (minutes)");
  check->callback([c, &exit_code] {
    const auto dir = folder(*c);
    bool bad = false;
    const auto set = eg::TableSet::load(
        dir,
        [&](const std::string& m) {
          fmt::print(stderr, "error: {}\n", m);
          bad = true;
        },
        c->pieces);
    for (const auto& [a, b] : eg::build_order(c->pieces)) {
      std::vector<std::pair<int, int>> tables = {{a, b}};
      if (a != b) tables.emplace_back(b, a);
      for (const auto& [m, n] : tables) {
        const auto* t = set.find(m, n);
        if (!t) {
          fmt::print("morris {}-{}: missing\n", m, n);
          bad = true;
          continue;
        }
        const auto counts = eg::count_values(*t);
        fmt::print("morris {}-{}: {} positions: {} wins, {} draws, {} losses, longest {} plies\n",
                   m, n, t->size(), counts.wins, counts.draws, counts.losses, counts.longest);
        if (c->deep) {
          const auto fault = eg::verify_table(*t, set);
          fmt::print("  every entry against the rules' moves: {}\n", fault ? *fault : "agrees");
          bad = bad || fault;
        }
        std::fflush(stdout);
      }
    }
    exit_code = bad ? 1 : 0;
  });
}

}  // namespace arena::cli
