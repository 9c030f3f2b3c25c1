// `arena match GAME A B`: two agents in game pairs from an opening book, with Elo and SPRT
// (match/), course-protocol agents through the course's referee (match/course_match.hpp), and
// `arena match book GAME`: the procedure that makes the books.
#include "match/match.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "match/course_match.hpp"
#include "sandbox/child_process.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

void add_match_book(CLI::App& match, int& exit_code) {
  auto* cmd = match.add_subcommand(
      "book",
      "Makes an opening book: random openings from a seed, kept when a fixed-depth search "
      "scores them near 0 (the procedure of data/books/, see docs/match.md)");
  struct Options {
    std::string game;
    match::BookRecipe recipe;
    std::string out;
    int moves_per_player = 0;
    LimitRule limit_rule = LimitRule::Draw;
  };
  auto o = std::make_shared<Options>();
  add_game_argument(*cmd, o->game);
  cmd->add_option("--positions,-n", o->recipe.positions, "Openings wanted")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--plies", o->recipe.plies, "Random moves (turns) from the start")
      ->capture_default_str()
      ->check(CLI::Range(1, 200));
  cmd->add_option("--depth", o->recipe.depth, "Depth of the search that judges an opening")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  cmd->add_option("--confirm-depth", o->recipe.confirm_depths,
                  "Deeper searches (D1,D2,... each deeper than the one before) that an opening "
                  "which passed --depth must pass too (default: none)")
      ->delimiter(',')
      ->check(CLI::Range(1, 30));
  cmd->add_option("--max-eval", o->recipe.max_eval,
                  "Keep an opening when the search's score is within +-this (engine units)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1'000'000));
  cmd->add_option("--seed", o->recipe.seed, "Seed of the random openings")->capture_default_str();
  cmd->add_option("--attempts", o->recipe.max_attempts,
                  "Random openings tried at most (default: 100 per position wanted)")
      ->check(CLI::Range(1, 100'000'000));
  cmd->add_option("--threads,-j", o->recipe.threads,
                  "Openings judged at once, one search thread each (the book is the same for any "
                  "number)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--out,-o", o->out, "Write the book here (default: standard output)");
  add_rule_options(*cmd, o->moves_per_player, o->limit_rule);
  cmd->callback([o, &exit_code] {
    const GameInfo& g = game_named(o->game);
    const RuleOptions rules = rule_options(o->game, o->moves_per_player, o->limit_rule);
    const auto& r = o->recipe;
    int shallower = r.depth;
    for (const int depth : r.confirm_depths) {
      if (depth <= shallower) {
        fmt::print(stderr,
                   "error: each --confirm-depth must be deeper than the search before it ({} "
                   "after {})\n",
                   depth, shallower);
        exit_code = 2;
        return;
      }
      shallower = depth;
    }
    const bool confirmed = !r.confirm_depths.empty();
    const std::string depth_list = fmt::format("{}", fmt::join(r.confirm_depths, ","));
    std::string text = fmt::format(
        "# arena opening book: {} ({})\n"
        "# made by: arena match book {} --positions {} --plies {} --depth {}{} --max-eval {} "
        "--seed {}{}\n"
        "# each line: {} random moves from the start, kept when the engine at depth {}{} scored "
        "the position within +-{} (score{} for the side to move at the end of the line)\n",
        g.name, g.title, g.name, r.positions, r.plies, r.depth,
        confirmed ? " --confirm-depth " + depth_list : "", r.max_eval, r.seed,
        r.max_attempts > 0 ? fmt::format(" --attempts {}", r.max_attempts) : "", r.plies, r.depth,
        r.confirm_depths.size() == 1 ? " and again at depth " + depth_list
        : confirmed                  ? " and again at each of depths " + depth_list
                                     : "",
        r.max_eval, confirmed ? " of the deepest search" : "");
    const auto entries = match::make_book(g, rules, r, [](const match::BookEntry& e, int attempts) {
      fmt::print(stderr, "kept after {} attempts: {} (score {})\n", attempts,
                 match::join_moves(e.moves), e.eval);
    });
    for (const auto& e : entries)
      text += fmt::format("{}  # {:+}\n", match::join_moves(e.moves), e.eval);
    if (static_cast<int>(entries.size()) < r.positions)
      fmt::print(
          stderr,
          "warning: only {} of {} openings found; try more --attempts or a larger --max-eval\n",
          entries.size(), r.positions);
    if (o->out.empty()) {
      fmt::print("{}", text);
    } else {
      std::ofstream f(o->out, std::ios::binary | std::ios::trunc);
      f << text;
      if (!f.flush()) {
        fmt::print(stderr, "error: cannot write {}\n", o->out);
        exit_code = 1;
        return;
      }
      fmt::print(stderr, "{} openings written to {}\n", entries.size(), o->out);
    }
    if (entries.empty()) exit_code = 1;
  });
}

// Two one-thread built-in engines at a fixed node count or depth play the same two games every
// time an opening comes round, so pairs beyond the book's openings would count the same games
// again. (Threads share a table in an order the scheduler decides, so their games differ.)
bool repeats_games(const match::MatchSettings& s) {
  for (const auto& a : s.agents) {
    if (a.kind != match::AgentSpec::Engine || a.threads > 1) return false;
    if (a.limit.value_or(s.context.limit).kind == match::MoveLimit::Time) return false;
  }
  return true;
}

// What a match with a course-protocol agent cannot take: the referee limits time, from the start.
template <typename Options>
void check_course_options(const Options& o, const CLI::App& cmd) {
  if (o.book != "none")
    throw std::runtime_error(
        "course-protocol agents start from the initial position: add --book none");
  if (o.nodes > 0 || o.depth > 0)
    throw std::runtime_error(
        "--nodes and --depth do not apply to course-protocol games: the referee limits time "
        "(--move-time MS; an engine's own depth=N still works)");
  for (const char* opt : {"--time-margin", "--max-move-time"})
    if (cmd.count(opt) > 0)
      throw std::runtime_error(fmt::format(
          "{} does not apply to course-protocol games: the referee's rules judge time", opt));
}

// Without --pairs, --games or --sprt: each opening once, up to this many pairs.
constexpr int kDefaultPairs = 100;

}  // namespace

void add_match(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "match",
      "Two agents in game pairs (each opening twice, colours swapped) from an opening book: "
      "W/D/L, Elo +- 95 %, and with --sprt the log-likelihood ratio until it decides");
  cmd->footer(
      "Agents A and B:\n"
      "  [NAME:] engine [time=MS | depth=N | nodes=N]   the built-in engine (its own limit)\n"
      "          [threads=N] [level=1..5]      search threads; a strength level (docs/levels.md)\n"
      "          [table=MB]                    transposition table (default 16 MB)\n"
      "  [NAME:] greedy | random | soccer-ref 0|1|2      built-in players\n"
      "  [NAME:] arena=PATH [engine ... | greedy | random]   the same in another arena build,\n"
      "                                        run as 'PATH engine GAME' (engine protocol)\n"
      "  [NAME:] protocol SHELL-COMMAND        any program speaking arena's engine protocol\n"
      "  [NAME:] command SHELL-COMMAND         a course-protocol program ('command' of arena\n"
      "                                        tournament: for Paper Soccer, a referee's bot)\n"
      "An illegal move, a crash or a timeout loses the game.\n"
      "With a 'command' agent every game starts from the initial position (--book none) and is\n"
      "played as in arena tournament: through the course's referee (Paper Soccer: arena\n"
      "soccer-referee -t SECONDS, from --move-time; default: the course's time), in the sandbox\n"
      "(--sandbox...), the other agent being engine [time=|depth=], greedy, random, soccer-ref\n"
      "or command; pairs are the two colours.\n"
      "Elo is from the pentanomial statistics of the pairs (as fastchess), the SPRT a GSPRT on\n"
      "them (model normalized: elo0/elo1 in normalized Elo, fastchess' default; or logistic).\n"
      "See docs/match.md.");
  struct Options {
    std::string game, a, b;
    int move_time_ms = 0;
    std::uint64_t nodes = 0;
    int depth = 0;
    int pairs = 0, games = 0;
    int concurrency = 1;
    std::uint64_t seed = 1;
    std::string book;
    bool book_order = false;
    std::string sprt;
    int time_margin_ms = 0;
    int max_move_ms = 60'000;
    int moves_per_player = 0;
    LimitRule limit_rule = LimitRule::Draw;
    int max_plies = match::MatchSettings{}.max_plies;
    bool verbose = false;
    SandboxOptions sandbox;
    std::string records;
  };
  auto o = std::make_shared<Options>();
  std::vector<std::string> names;
  for (const GameInfo& g : all_games()) names.emplace_back(g.name);
  cmd->add_option("game", o->game, "Game: " + game_names())->check(CLI::IsMember(names));
  cmd->add_option("a", o->a, "Agent A (the one under test; results are from its view)");
  cmd->add_option("b", o->b, "Agent B");
  auto* mt = cmd->add_option("--move-time", o->move_time_ms,
                             "Time per move in ms (with a 'command' agent: the referee's, user "
                             "CPU per turn)")
                 ->check(CLI::Range(1, 3'600'000));
  auto* nodes = cmd->add_option("--nodes", o->nodes, "Engines search this many nodes per move")
                    ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  auto* depth = cmd->add_option("--depth", o->depth, "Engines search to this depth")
                    ->check(CLI::Range(1, 60));
  mt->excludes(nodes)->excludes(depth);
  nodes->excludes(depth);
  auto* pairs = cmd->add_option("--pairs", o->pairs,
                                "Game pairs to play (default: each opening once, at most 100; "
                                "with --sprt until it decides, at most 100000)")
                    ->check(CLI::Range(1, 10'000'000));
  auto* games = cmd->add_option("--games", o->games, "Games to play (rounded up to pairs)")
                    ->check(CLI::Range(1, 20'000'000));
  pairs->excludes(games);
  cmd->add_option("--concurrency,-j", o->concurrency, "Pairs played at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--seed", o->seed, "Fixes the openings' order and the players' seeds")
      ->capture_default_str();
  cmd->add_option("--book", o->book,
                  "Opening book (default: data/books/GAME.txt); 'none': the start position only");
  cmd->add_flag("--book-order", o->book_order, "Play the openings in the file's order");
  cmd->add_option("--sprt", o->sprt,
                  "'elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic]' (alpha, beta "
                  "0.05 and model normalized unless given): stop when it accepts H0 or H1");
  cmd->add_option("--time-margin", o->time_margin_ms,
                  "With --move-time: a move may take this many ms more before it loses on time")
      ->capture_default_str()
      ->check(CLI::Range(0, 3'600'000));
  cmd->add_option("--max-move-time", o->max_move_ms,
                  "With --nodes or --depth: a move taking longer than this (ms) loses on time")
      ->capture_default_str()
      ->check(CLI::Range(1, 86'400'000));
  add_rule_options(*cmd, o->moves_per_player, o->limit_rule);
  cmd->add_option("--max-plies", o->max_plies,
                  "A game still going after this many plies (the opening's included) is a draw "
                  "(ply-limit); for Morris and Paper Soccer, which have no move limit")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_flag("--verbose,-v", o->verbose, "A line per game");
  cmd->add_option("--records", o->records,
                  "Keep every game's record (JSON, docs/records.md) in this folder, as "
                  "NNNN-WHITE-vs-BLACK.json; with a 'command' agent also the referee's transcript "
                  "and the agents' output");
  add_sandbox_options(*cmd, o->sandbox, "--cpus-per-agent");
  add_match_book(*cmd, exit_code);

  cmd->callback([o, cmd, &exit_code] {
    if (cmd->got_subcommand("book")) return;
    try {
      if (o->game.empty() || o->a.empty() || o->b.empty())
        throw std::runtime_error("give the game and two agents: arena match GAME A B");
      const GameInfo& g = game_named(o->game);
      match::MatchSettings s;
      s.context.game = &g;
      s.context.rules = rule_options(o->game, o->moves_per_player, o->limit_rule);
      s.context.seed = o->seed;
      s.context.time_margin_ms = o->time_margin_ms;
      s.context.max_move_ms = o->max_move_ms;
      s.max_plies = o->max_plies;
      bool limit_given = true;
      if (o->nodes > 0)
        s.context.limit = {match::MoveLimit::Nodes, o->nodes};
      else if (o->depth > 0)
        s.context.limit = {match::MoveLimit::Depth, static_cast<std::uint64_t>(o->depth)};
      else if (o->move_time_ms > 0)
        s.context.limit = {match::MoveLimit::Time, static_cast<std::uint64_t>(o->move_time_ms)};
      else
        limit_given = false;
      bool course = false;
      for (const std::string& text : {o->a, o->b}) {
        auto a = match::parse_agent(text);
        course = course || (a && a.value->kind == match::AgentSpec::Course);
      }
      if (course) check_course_options(*o, *cmd);
      for (const char* opt :
           {"--sandbox", "--memory", "--cpus-per-agent", "--max-processes", "--log-limit"})
        if (!course && cmd->count(opt) > 0)
          throw std::runtime_error(fmt::format(
              "{} applies to course-protocol games only (a 'command' agent); the other agents "
              "play in this process or over pipes",
              opt));
      for (std::size_t k = 0; k < 2; ++k) {
        const std::string& text = k == 0 ? o->a : o->b;
        auto a = match::parse_agent(text);
        if (!a) throw std::runtime_error(fmt::format("agent '{}': {}", text, a.error));
        if (!a.value->arena_binary.empty() && !fs::exists(a.value->arena_binary))
          throw std::runtime_error(
              fmt::format("agent '{}': no file {}", text, a.value->arena_binary));
        const bool needs_limit = a.value->kind == match::AgentSpec::Engine ||
                                 a.value->kind == match::AgentSpec::Protocol;
        if (needs_limit && !a.value->limit && !limit_given && !course)
          throw std::runtime_error(fmt::format(
              "agent '{}' has no limit of its own: give --move-time MS, --nodes N or --depth N",
              text));
        s.agents[k] = std::move(*a.value);
      }
      if (s.agents[0].name == s.agents[1].name) {
        s.agents[0].name += ".A";
        s.agents[1].name += ".B";
      }
      std::string book_name = o->book;
      if (o->book == "none") {
        s.openings = {match::Opening{}};
        book_name = "the start position";
      } else {
        fs::path path = o->book.empty() ? match::default_book_path(g.name) : fs::path(o->book);
        if (path.empty())
          throw std::runtime_error(fmt::format(
              "no book for {} found (data/books/{}.txt); give --book FILE, or --book none", g.name,
              g.name));
        auto book = match::read_book(g, s.context.rules, path);
        if (!book) throw std::runtime_error(book.error);
        s.openings = std::move(book.value->openings);
        book_name = path.string();
      }
      s.shuffle = !o->book_order;
      s.concurrency = o->concurrency;
      std::optional<match::CourseGames> course_games;
      if (!course && !o->records.empty()) {
        s.records = fs::absolute(o->records);
        std::error_code ec;
        fs::create_directories(s.records, ec);
        if (ec || !fs::is_directory(s.records))
          throw std::runtime_error(fmt::format("--records: cannot make the folder {}: {}",
                                               s.records.string(), ec.message()));
      }
      if (course) {
        course_games.emplace(
            s, match::CourseMatchOptions{own_binary(), o->move_time_ms, o->sandbox.mode,
                                         o->sandbox.limits, o->records});
        s.player = [&](const match::GameSlot& slot) { return course_games->play(slot); };
      }
      if (!o->sprt.empty()) {
        match::SprtSettings sprt;
        if (const std::string e = match::parse_sprt(o->sprt, sprt); !e.empty())
          throw std::runtime_error("--sprt: " + e);
        s.sprt = sprt;
      }
      s.pairs = o->pairs > 0   ? o->pairs
                : o->games > 0 ? (o->games + 1) / 2
                : s.sprt       ? 100'000
                               : std::min(kDefaultPairs, static_cast<int>(s.openings.size()));
      const bool capped = repeats_games(s) && s.pairs > static_cast<int>(s.openings.size());
      if (capped) s.pairs = static_cast<int>(s.openings.size());
      end_children_on_signals();
      fmt::print("Match {}: A = {} ({}), B = {} ({})\n", g.name, s.agents[0].name, s.agents[0].spec,
                 s.agents[1].name, s.agents[1].spec);
      const std::string per_move = course && !limit_given
                                       ? fmt::format("{} ms", g.default_move_time_ms)
                                   : limit_given ? match::limit_text(s.context.limit)
                                                 : "agents' own limits";
      fmt::print("{} pairs from {} openings ({}), {} a move{}, {} at a time, seed {}\n", s.pairs,
                 s.openings.size(), book_name, per_move,
                 o->time_margin_ms > 0 && s.context.limit.kind == match::MoveLimit::Time
                     ? fmt::format(" (+{} ms margin)", o->time_margin_ms)
                     : "",
                 s.concurrency, o->seed);
      if (course_games) fmt::print("{}\n", course_games->summary());
      if (!s.records.empty()) fmt::print("Records: {}\n", s.records.string());
      if (capped)
        fmt::print(
            "At a fixed number of nodes or depth the engines play the same two games each time an "
            "opening comes round: the match stops after the book's {} openings (a larger book: "
            "arena match book {} --positions N)\n",
            s.openings.size(), g.name);
      if (s.sprt)
        fmt::print(
            "SPRT ({}): elo0 {:.2f}, elo1 {:.2f}, alpha {}, beta {}: LLR bounds ({:.2f}, {:.2f})\n",
            match::sprt_model_name(s.sprt->model), s.sprt->elo0, s.sprt->elo1, s.sprt->alpha,
            s.sprt->beta, s.sprt->lower_bound(), s.sprt->upper_bound());
      std::fflush(stdout);
      match::MatchCallbacks cb;
      if (o->verbose)
        cb.on_game = [&s](const match::GameResult& r) {
          const bool a_white = r.game == 0;
          fmt::print("Game {} (opening {}): {} (White) vs {} (Black): {} after {} plies ({}: {})\n",
                     2 * r.pair + r.game + 1, r.opening + 1, s.agents[a_white ? 0 : 1].name,
                     s.agents[a_white ? 1 : 0].name,
                     r.outcome == Outcome::Draw        ? "draw"
                     : r.outcome == Outcome::WhiteWins ? "White wins"
                                                       : "Black wins",
                     r.plies, r.reason, r.detail);
          std::fflush(stdout);
        };
      cb.on_progress = [&s](const match::MatchProgress& p) {
        fmt::print("{}\n", match::progress_line(s, p));
        std::fflush(stdout);
      };
      const match::MatchOutcome out = match::run_match(s, cb);
      const auto& p = out.progress;
      const auto tri = match::estimate_trinomial(p.counts);
      fmt::print("Finished: {} pairs, {} games; Elo from W/D/L {:+.1f} ± {:.1f}{}\n", p.pairs_done,
                 p.counts.games(), tri.elo, tri.error,
                 out.discarded_pairs > 0
                     ? fmt::format(" ({} pairs finished after the decision are not counted)",
                                   out.discarded_pairs)
                     : "");
      if (s.sprt) {
        const char* verdict = p.decision == match::SprtDecision::AcceptH1   ? "H1 accepted"
                              : p.decision == match::SprtDecision::AcceptH0 ? "H0 accepted"
                                                                            : "no decision";
        fmt::print("SPRT: {} (LLR {:.2f}, bounds {:.2f}, {:.2f}; elo0 {:.2f}, elo1 {:.2f})\n",
                   verdict, p.llr.value_or(0.0), s.sprt->lower_bound(), s.sprt->upper_bound(),
                   s.sprt->elo0, s.sprt->elo1);
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 2;
    }
  });
}

}  // namespace arena::cli
