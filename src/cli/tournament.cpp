// `arena tournament GAME ...` (plan, play and report in one) and `arena tournament plan`.
#include <fmt/format.h>

#include <ctime>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "tournament/event_runner.hpp"
#include "tournament/match_runner.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

fs::path default_event_dir(const std::string& game) {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const fs::path base = fs::path("tournaments") / fmt::format("{}-{}", game, stamp);
  fs::path dir = base;
  for (int n = 2; fs::exists(dir); ++n) dir = base.string() + fmt::format("-{}", n);
  return dir;
}

// The options that define an event: `arena tournament GAME ...` and `arena tournament plan`.
struct EventOptions {
  std::string game;
  std::string participants_file;
  std::vector<std::string> agents;
  std::string out;
  tournament::EventSettings settings;
  int moves_per_player = 0;
  LimitRule limit_rule = LimitRule::Draw;
  double warmup_s = 1;
  double connect_timeout_s = 10;
  double game_timeout_s = 0;
  SandboxOptions sandbox;
  std::string morris_ports = "env";
};

constexpr const char* kParticipantsHelp =
    "Participants, one per line in --participants FILE or each as --agent SPEC:\n"
    "  [NAME:] engine [time=MS | depth=N]   the built-in engine\n"
    "  [NAME:] greedy | random              built-in players\n"
    "  [NAME:] soccer-ref 0|1|2             a Paper Soccer reference bot\n"
    "  [NAME:] command SHELL-COMMAND        an external agent, run by /bin/sh in its folder\n"
    "                                       (dir=, default: the current directory); arena\n"
    "                                       appends the protocol's arguments (Fission, Murus\n"
    "                                       Gallicus: host and port; Morris: White or Black, see\n"
    "                                       --morris-ports; Paper Soccer: nothing, it is a bot)\n"
    "Any line may start with its agent's sandbox: dir=PATH (its folder, read-only to it)\n"
    "memory=MB cpus=N processes=N log=MB (instead of the event's limits).\n";

// Adds the event's options to `cmd`; gives the options that --resume excludes.
std::vector<CLI::Option*> add_event_options(CLI::App& cmd, EventOptions& o) {
  std::vector<std::string> names;
  for (const GameInfo& g : all_games()) names.emplace_back(g.name);
  cmd.add_option("game", o.game, "Game: " + game_names())->check(CLI::IsMember(names));
  std::vector<CLI::Option*> defining;
  defining.push_back(cmd.add_option("--participants,-f", o.participants_file,
                                    "File with one participant per line (see below)"));
  defining.push_back(cmd.add_option(
      "--agent,-a", o.agents, "A participant, as a line of the participants file (repeatable)"));
  defining.push_back(
      cmd.add_option("--out,-o", o.out, "Event folder (default: tournaments/GAME-DATE-TIME)"));
  defining.push_back(cmd.add_option("--seed", o.settings.seed,
                                    "Fixes the schedule's order and the built-in agents' seeds")
                         ->capture_default_str());
  defining.push_back(cmd.add_option("--move-time", o.settings.move_time_ms,
                                    "Time per move in ms (default: the game's course limit)")
                         ->check(CLI::Range(1, 3'600'000)));
  defining.push_back(cmd.add_option("--warmup", o.warmup_s,
                                    "Seconds between both agents connecting and the first move")
                         ->capture_default_str()
                         ->check(CLI::Range(0.0, 600.0)));
  defining.push_back(cmd.add_option("--connect-timeout", o.connect_timeout_s,
                                    "Seconds an agent has to connect; later, it loses on time")
                         ->capture_default_str()
                         ->check(CLI::Range(0.1, 600.0)));
  defining.push_back(cmd.add_option("--game-timeout", o.game_timeout_s,
                                    "Wall-clock cap per game in seconds; a game cut off there is "
                                    "recorded as aborted, a draw (default: from the move time and "
                                    "move limit, generous)")
                         ->check(CLI::Range(1.0, 864000.0)));
  add_rule_options(cmd, o.moves_per_player, o.limit_rule);
  add_sandbox_options(cmd, o.sandbox, "--cpus-per-agent");
  defining.push_back(
      cmd.add_option("--morris-ports", o.morris_ports,
                     "Morris: how an external agent (run as 'COMMAND White|Black') finds the "
                     "server's free ports: env (ARENA_HOST, ARENA_WHITE_PORT, ARENA_BLACK_PORT "
                     "in its environment), args (also '--white-port P --black-port Q' appended), "
                     "or course (the server on the course's 5800/5801; one game at a time)")
          ->check(CLI::IsMember({"env", "args", "course"}))
          ->capture_default_str());
  return defining;
}

tournament::EventSettings event_settings(const EventOptions& o) {
  if (o.game.empty()) throw std::runtime_error("give a game (" + game_names() + ")");
  tournament::EventSettings s = o.settings;
  s.game = o.game;
  if (!o.participants_file.empty())
    s.participants = tournament::read_participants_file(o.participants_file);
  for (const auto& line : o.agents) {
    auto p = tournament::parse_participant(line);
    if (!p) throw std::runtime_error(fmt::format("--agent '{}': {}", line, p.error));
    s.participants.push_back(std::move(*p.value));
  }
  s.rules = rule_options(o.game, o.moves_per_player, o.limit_rule);
  s.warmup_ms = static_cast<int>(o.warmup_s * 1000);
  s.connect_timeout_ms = static_cast<int>(o.connect_timeout_s * 1000);
  s.game_timeout_ms = static_cast<int>(o.game_timeout_s * 1000);
  s.working_dir = fs::current_path();
  s.sandbox = o.sandbox.mode;
  s.limits = o.sandbox.limits;
  for (auto m : {tournament::MorrisPorts::Env, tournament::MorrisPorts::Args,
                 tournament::MorrisPorts::Course})
    if (o.morris_ports == tournament::morris_ports_key(m)) s.morris_ports = m;
  return s;
}

void add_tournament_plan(CLI::App& tournament, int& exit_code) {
  auto* cmd = tournament.add_subcommand(
      "plan",
      "Writes an event's folder (settings, participants, schedule) and plays nothing: play it "
      "with `arena tournament play DIR`, in shards on several machines if you like");
  cmd->footer(std::string(kParticipantsHelp) + "See docs/cluster.md.");
  auto o = std::make_shared<EventOptions>();
  add_event_options(*cmd, *o);
  cmd->callback([o, &exit_code] {
    try {
      const fs::path dir = o->out.empty() ? default_event_dir(o->game) : fs::path(o->out);
      tournament::plan_event(dir, event_settings(*o), std::cout);
      exit_code = 0;
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace

void add_tournament(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "tournament",
      "Double round-robin between agents through the game's course protocol: standings, "
      "crosstable, ratings, every game's record; resumable after a kill; playable in shards "
      "on a cluster (plan, play --shard, status, slurm)");
  cmd->footer(std::string(kParticipantsHelp) +
              "Files in the event folder: standings.md, standings.csv, crosstable.csv, games.csv,\n"
              "results.json, schedule.csv, journal.jsonl, "
              "games/NNN-WHITE-vs-BLACK.{json,log,server.txt,white.log,black.log}.\n"
              "See docs/tournament.md and docs/cluster.md.");
  struct Options {
    EventOptions event;
    std::string resume;
    bool list_games = false;
    int concurrency = 0;
    bool quiet = false;
  };
  auto o = std::make_shared<Options>();
  const auto defining = add_event_options(*cmd, o->event);
  cmd->add_option("--concurrency,-j", o->concurrency,
                  "Games played at once (default: as many as give every agent its own "
                  "--cpus-per-agent cores; without the CPU protection, one per core)")
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--quiet,-q", o->quiet, "No line per finished game");
  auto* resume = cmd->add_option("--resume", o->resume,
                                 "Continue the event in this folder (after a kill): plays only "
                                 "the missing games, with the settings stored there");
  cmd->add_flag("--list-games", o->list_games,
                "Print the games arena can run tournaments of, one per line");
  for (auto* opt : defining) resume->excludes(opt);
  add_tournament_plan(*cmd, exit_code);
  add_tournament_cluster(*cmd, exit_code);
  add_tournament_report(*cmd, exit_code);

  cmd->callback([o, cmd, &exit_code] {
    if (!cmd->get_subcommands().empty()) return;  // plan, play, status, slurm, report
    if (o->list_games) {
      for (const GameInfo& g : all_games())
        if (tournament::tournament_supported(g)) fmt::print("{}\n", g.name);
      return;
    }
    tournament::RunOptions run;
    run.concurrency = o->concurrency;
    run.quiet = o->quiet;
    try {
      run.arena_binary = own_binary();
      if (!o->resume.empty()) {
        bool settings_given = !o->event.game.empty();
        for (const char* opt : {"--moves-per-player", "--limit-rule", "--sandbox", "--memory",
                                "--cpus-per-agent", "--max-processes", "--log-limit"})
          settings_given = settings_given || cmd->count(opt) > 0;
        if (settings_given)
          throw std::runtime_error(
              "--resume takes every setting from the event folder; give only the folder "
              "(and -j or -q)");
        handle_stop_signals("arena tournament --resume " + o->resume);
        exit_code = tournament::resume_event(o->resume, run, std::cout, std::cerr);
        return;
      }
      if (o->event.game.empty())
        throw std::runtime_error("give a game (" + game_names() + "), or --resume DIR");
      tournament::EventSettings s = event_settings(o->event);
      const fs::path dir =
          o->event.out.empty() ? default_event_dir(o->event.game) : fs::path(o->event.out);
      handle_stop_signals("arena tournament --resume " + dir.string());
      exit_code = tournament::start_event(dir, std::move(s), run, std::cout, std::cerr);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
