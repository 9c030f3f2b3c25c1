#include "match/course_match.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <stdexcept>

#include "search/agent_words.hpp"
#include "tournament/agent_check.hpp"
#include "tournament/match_runner.hpp"
#include "tournament/single_game.hpp"

namespace arena::match {
namespace {

namespace fs = std::filesystem;
using tournament::AgentKind;
using tournament::EndKind;
using tournament::Participant;

// The agent as a tournament participant: what the course's referee can run.
Participant participant_of(const AgentSpec& a) {
  Participant p;
  p.name = a.name;
  p.spec = a.spec;
  if (a.kind == AgentSpec::Protocol || !a.arena_binary.empty())
    throw std::runtime_error(fmt::format(
        "agent '{}' speaks arena's engine protocol; beside a course-protocol agent every game is "
        "played through the course's referee, whose agents are course-protocol programs "
        "(command ...) or arena's own (engine, greedy, random, soccer-ref)",
        a.name));
  switch (a.kind) {
    case AgentSpec::Engine:
      p.kind = AgentKind::Engine;
      p.threads = a.threads;
      p.level = a.level;
      if (a.limit && a.limit->kind == MoveLimit::Nodes)
        throw std::runtime_error(fmt::format(
            "agent '{}': nodes= does not apply beside a course-protocol agent: the referee limits "
            "time (give the engine time=MS or depth=N, or nothing: --move-time)",
            a.name));
      if (a.limit && a.limit->kind == MoveLimit::Time) p.time_ms = static_cast<int>(a.limit->value);
      if (a.limit && a.limit->kind == MoveLimit::Depth) p.depth = static_cast<int>(a.limit->value);
      break;
    case AgentSpec::Greedy:
      p.kind = AgentKind::Greedy;
      break;
    case AgentSpec::Random:
      p.kind = AgentKind::Random;
      break;
    case AgentSpec::SoccerRef:
      p.kind = AgentKind::SoccerRef;
      p.level = a.level;
      break;
    case AgentSpec::Course:
      p.kind = AgentKind::Command;
      p.command = a.command;
      break;
    case AgentSpec::Protocol:
      break;  // refused above
  }
  return p;
}

fs::path temporary_folder() {
  std::string path = (fs::temp_directory_path() / "arena-match-XXXXXX").string();
  if (!::mkdtemp(path.data())) throw std::runtime_error("cannot make a folder in " + path);
  return path;
}

// The match's view of a game the referee judged: its fault codes as the match counts them.
GameResult result_of(const GameRecord& record, Side a_side) {
  GameResult r;
  r.outcome = record.outcome == Outcome::Ongoing ? Outcome::Draw : record.outcome;
  r.reason = record.reason;
  r.detail = record.detail;
  r.plies = static_cast<int>(record.moves.size());
  r.a_points = r.outcome == Outcome::Draw ? 0.5 : r.outcome == win_for(a_side) ? 1.0 : 0.0;
  std::optional<Fault> fault;
  switch (tournament::end_kind_of(record.outcome, record.reason)) {
    case EndKind::Timeout:
      fault = Fault::Timeout;
      break;
    case EndKind::IllegalMove:
      fault = Fault::IllegalMove;
      break;
    case EndKind::Crash:
    case EndKind::Disconnect:
    case EndKind::Limit:
      fault = Fault::Crash;
      break;
    case EndKind::Win:
    case EndKind::Draw:
    case EndKind::Aborted:
      break;
  }
  if (fault && r.outcome != Outcome::Draw) {
    const Side loser = r.outcome == Outcome::WhiteWins ? Side::Black : Side::White;
    r.fault = fault;
    r.fault_by = loser == a_side ? 0 : 1;
  }
  return r;
}

}  // namespace

CourseGames::CourseGames(const MatchSettings& settings, CourseMatchOptions options)
    : game_(*settings.context.game), options_(std::move(options)), max_plies_(settings.max_plies) {
  if (settings.openings.size() != 1 || !settings.openings.front().empty())
    throw std::runtime_error(
        "course-protocol agents start from the initial position: add --book none");
  if (!tournament::tournament_supported(game_))
    throw std::runtime_error(fmt::format(
        "arena has no course referee for {}: course-protocol agents cannot play it", game_.title));
  event_.game = std::string(game_.name);
  event_.participants = {participant_of(settings.agents[0]), participant_of(settings.agents[1])};
  event_.move_time_ms = options_.move_time_ms;
  event_.rules = settings.context.rules;
  event_.working_dir = fs::current_path();
  event_.sandbox = options_.sandbox;
  event_.limits = options_.limits;
  tournament::check_participants_for(game_, event_);
  plan_ = plan_sandbox(event_.sandbox, tournament::agent_channel(game_));
  cores_ = usable_cpus();
  if (options_.records.empty()) {
    dir_ = temporary_folder();
  } else {
    dir_ = fs::absolute(options_.records);
    fs::create_directories(dir_);
  }
  try {
    tournament::check_agents_can_start(event_, dir_, options_.arena_binary);
  } catch (...) {
    if (options_.records.empty()) fs::remove_all(dir_);
    throw;
  }
}

CourseGames::~CourseGames() {
  std::error_code ec;
  if (options_.records.empty()) fs::remove_all(dir_, ec);
}

GameResult CourseGames::play(const GameSlot& slot) const {
  const Side a_side = slot.game == 0 ? Side::White : Side::Black;
  tournament::SingleGame single;
  single.settings = event_;
  if (a_side == Side::Black)
    std::swap(single.settings.participants[0], single.settings.participants[1]);
  const Participant& white = single.settings.participants[0];
  const Participant& black = single.settings.participants[1];
  const std::string stem = record_stem(slot.pair, slot.game, white.name, black.name);
  // Not kept: each game in a folder of its own, gone with it.
  const fs::path folder = options_.records.empty() ? dir_ / stem : dir_;
  fs::create_directories(folder);
  single.stem = folder / stem;
  single.seed = slot.seed;
  single.arena_binary = options_.arena_binary;
  single.cores = tournament::game_cores(single.settings, plan_, cores_, slot.worker, white, black);
  single.max_plies = max_plies_;
  GameRecord record = tournament::play_single_game(game_, single, plan_);
  if (options_.records.empty()) {
    std::error_code ec;
    fs::remove_all(folder, ec);
  } else {
    record.settings["match"] = {{"pair", slot.pair + 1}, {"game", slot.game + 1}};
    write_record(fs::path(single.stem) += ".json", record);
  }
  return result_of(record, a_side);
}

std::string CourseGames::summary() const {
  const int move_ms = event_.move_time_ms > 0 ? event_.move_time_ms : game_.default_move_time_ms;
  std::string judge =
      tournament::tournament_protocol(game_) == tournament::TournamentProtocol::SoccerReferee
          ? fmt::format(
                "the course's referee, arena soccer-referee -t {} (user-CPU seconds a turn; the "
                "wall clock twice that)",
                move_ms / 1000.0)
          : fmt::format("arena's course server, as in arena tournament ({} ms a move)", move_ms);
  std::string text = fmt::format(
      "Course protocol: every game from the start position, judged by {}; a crash, an illegal "
      "move or a timeout loses\nSandbox: {}",
      judge, sandbox_summary(plan_));
  if (!options_.records.empty()) text += fmt::format("\nRecords and logs: {}", dir_.string());
  if (const std::string warning = sandbox_warning(plan_); !warning.empty()) text += "\n" + warning;
  return text;
}

}  // namespace arena::match
