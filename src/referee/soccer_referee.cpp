#include "referee/soccer_referee.hpp"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <stdexcept>

#include "core/text.hpp"
#include "core/time_left.hpp"
#include "games/registry.hpp"
#include "protocol/soccer_lines.hpp"
#include "sandbox/process_group.hpp"
#include "sandbox/sandboxed_run.hpp"

namespace arena {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
namespace wire = soccer_wire;

std::string player_name(int p) {
  return fmt::format("player {}", p + 1);
}

double seconds(microseconds us) {
  return static_cast<double>(us.count()) / 1e6;
}
double seconds(milliseconds ms) {
  return static_cast<double>(ms.count()) / 1e3;
}

// A bot's turn arrives in its own frame; player 2 attacks south, so its directions turn round.
wire::Steps to_frame_of(int player, const wire::Steps& referee_frame_steps) {
  return player == 0 ? referee_frame_steps : wire::rotated(referee_frame_steps);
}

std::filesystem::path unique_record_path(const std::filesystem::path& dir) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  std::filesystem::path path = dir / fmt::format("soccer-{}.json", stamp);
  for (int n = 2; std::filesystem::exists(path); ++n)
    path = dir / fmt::format("soccer-{}-{}.json", stamp, n);
  return path;
}

class SoccerGame {
 public:
  SoccerGame(const SoccerRefereeOptions& options,
             const std::function<void(const SoccerTurnEvent&)>& on_turn)
      : o_(options), on_turn_(on_turn) {}

  SoccerGameReport run() {
    const GameInfo* game = find_game("soccer");
    if (!game) throw std::runtime_error("this arena was built without the Paper Soccer rules");
    state_ = game->start({});
    start_record();
    // Trouble with our own files shows before any bot runs.
    std::filesystem::create_directories(o_.records_dir);
    log_.open(o_.viewer_log, std::ios::out | std::ios::trunc);
    if (!log_) throw std::runtime_error("cannot write " + o_.viewer_log.string());
    for (int p = 0; p < 2; ++p) {
      PipedChildOptions child{o_.commands[p], wire::kMaxLineBytes, o_.bot_stderr, o_.bot_logs[p],
                              o_.bots[p].limits.log_bytes};
      child.jail = jail_for(o_.sandbox, o_.bots[p]);  // null when nothing is enforced
      bots_[p] = std::make_unique<ChildProcess>(std::move(child));
    }
    record_path_ = unique_record_path(o_.records_dir);
    save_live_record();

    play();
    finish_bots();

    SoccerGameReport report;
    report.winner = winner_;
    record_.ended_at = utc_now_iso8601();
    // The game has a winner even if its record cannot be written.
    try {
      report.record_path = record_path_;
      write_record(report.record_path, record_);
    } catch (const std::exception& e) {
      report.record_error = e.what();
      report.record_path.clear();
    }
    report.record = std::move(record_);
    return report;
  }

 private:
  const SoccerRefereeOptions& o_;
  const std::function<void(const SoccerTurnEvent&)>& on_turn_;
  std::unique_ptr<AnyState> state_;
  std::array<std::unique_ptr<ChildProcess>, 2> bots_;
  std::array<microseconds, 2> cpu_mark_{};  // each bot's CPU clock at its last answer
  std::ofstream log_;
  GameRecord record_;
  std::filesystem::path record_path_;  // rewritten after every turn while the game is played
  int winner_ = 0;

  // The record so far, for viewers following the game live (`arena web`); never fatal.
  void save_live_record() { write_live_record(record_path_, record_); }

  void start_record() {
    record_.game = "soccer";
    record_.settings = {
        {"cpu_per_turn_ms", o_.cpu_per_turn.count() / 1000},
        {"wall_per_turn_ms", o_.wall_per_turn.count()},
        {"viewer_log", o_.viewer_log.string()},
        {"referee", "arena soccer-referee"},
    };
    if (o_.max_plies > 0) record_.settings["max_plies"] = o_.max_plies;
    if (o_.sandbox.mode != SandboxMode::Off)
      record_.sandbox = sandbox_record(o_.sandbox, o_.bots[0].limits, o_.bots[1].limits);
    record_.white = {"player 1", o_.commands[0]};
    record_.black = {"player 2", o_.commands[1]};
    record_.started_at = utc_now_iso8601();
  }

  // Whether bot `p` has played a turn yet.
  bool moved(int p) const {
    for (const MoveRecord& m : record_.moves)
      if (m.side == (p == 0 ? Side::White : Side::Black)) return true;
    return false;
  }

  // The bot `p` broke a rule of the referee: the other one wins. A bot whose sandbox saw it
  // break a limit lost for that, whatever it looked like from here.
  void lose(int p, std::string reason, std::string detail) {
    if (AgentJail* jail = bots_[p]->jail())
      if (const auto breach = jail->breach()) {
        reason = breach->reason;
        detail = fmt::format("{} {}", player_name(p), breach->detail);
      }
    winner_ = 1 - p;
    record_.outcome = win_for(winner_ == 0 ? Side::White : Side::Black);
    record_.reason = std::move(reason);
    record_.detail = std::move(detail);
  }

  void play() {
    if (!bots_[0]->write(wire::start_line(), o_.wall_per_turn)) {
      bots_[0]->wait_exit(milliseconds(1000));  // a bot that closed its input is ending
      return lose(0, "disconnect",
                  "player 1 did not take the S line (" + bots_[0]->exit_description() + ")");
    }
    while (true) {
      const int p = index(state_->side_to_move());
      const auto read = bots_[p]->read_line({o_.wall_per_turn, o_.cpu_per_turn, cpu_mark_[p]});
      if (read.status != ReadStatus::Line) return lose_for_read(p, read);
      const microseconds cpu = read.cpu - cpu_mark_[p];
      cpu_mark_[p] = read.cpu;

      const auto steps = wire::parse_bot_line(read.line);
      if (!steps && !moved(p))
        return lose(p, "illegal-move",
                    fmt::format("{} sent '{}', a line that is not a move, before its first move "
                                "({}; a bot prints only its turns on stdout, messages go to "
                                "stderr)",
                                player_name(p), printable(read.line), steps.error));
      if (!steps)
        return lose(
            p, "illegal-move",
            fmt::format("{} sent '{}': {}", player_name(p), printable(read.line), steps.error));
      const wire::Steps referee_steps =
          to_frame_of(p, *steps.value);  // rotation is its own inverse
      const std::string turn = wire::turn_text(referee_steps);
      const auto played = state_->play(turn);
      if (!played)
        return lose(p, "illegal-move",
                    fmt::format("{} sent '{}' (in the referee's frame {}): {}", player_name(p),
                                read.line, turn, played.error));
      log_ << p << ' ' << turn << " \n" << std::flush;
      if (!log_) throw std::runtime_error("cannot write " + o_.viewer_log.string());
      record_.moves.push_back({state_->ply(), p == 0 ? Side::White : Side::Black, turn,
                               static_cast<std::int64_t>(read.wall.count()), cpu.count() / 1000});
      if (on_turn_) on_turn_({p, turn, read.line, read.wall, cpu, state_.get()});
      if (!state_->result().over()) save_live_record();

      const Result r = state_->result();
      if (r.over()) {
        winner_ = r.outcome == Outcome::WhiteWins ? 0 : 1;
        record_.outcome = r.outcome;
        record_.reason = std::string(r.reason);
        record_.detail = std::string(r.detail);
        return;
      }
      if (o_.max_plies > 0 && static_cast<int>(record_.moves.size()) >= o_.max_plies) {
        winner_ = -1;
        record_.outcome = Outcome::Draw;
        record_.reason = kPlyLimitReason;
        record_.detail = ply_limit_detail(o_.max_plies);
        return;
      }
      const int q = 1 - p;
      if (!bots_[q]->write(wire::move_line(to_frame_of(q, referee_steps)), o_.wall_per_turn)) {
        bots_[q]->wait_exit(milliseconds(1000));  // a bot that closed its input is ending
        return lose(q, "disconnect",
                    fmt::format("{} no longer reads its input ({})", player_name(q),
                                bots_[q]->exit_description()));
      }
    }
  }

  void lose_for_read(int p, const ReadOutcome& read) {
    const std::string who = player_name(p);
    switch (read.status) {
      case ReadStatus::WallTimeout:
        return lose(p, "timeout",
                    fmt::format("{} did not answer within {} s", who, seconds(o_.wall_per_turn)));
      case ReadStatus::CpuTimeout:
        return lose(p, "timeout",
                    fmt::format("{} used {:.2f} s of CPU time for its turn (limit {} s)", who,
                                seconds(read.cpu - cpu_mark_[p]), seconds(o_.cpu_per_turn)));
      case ReadStatus::TooLong:
        return lose(p, "illegal-move",
                    fmt::format("{} sent a line longer than {} bytes", who, wire::kMaxLineBytes));
      case ReadStatus::Closed:
        bots_[p]->wait_exit(milliseconds(1000));
        return lose(p, "disconnect",
                    fmt::format("{} closed its output without a turn ({})", who,
                                bots_[p]->exit_description()));
      case ReadStatus::LimitBroken:
        return lose(p, "limit", who + " broke a limit of its sandbox");  // lose() says which
      case ReadStatus::Line:
        break;
    }
  }

  // F to both, a moment to exit, then every process of both bots is ended.
  void finish_bots() {
    for (auto& bot : bots_) {
      bot->write(wire::finish_line(), milliseconds(100));
      bot->close_input();
    }
    const auto deadline = std::chrono::steady_clock::now() + o_.exit_grace;
    for (int p = 0; p < 2; ++p) {
      if (!bots_[p]->wait_exit(time_left(deadline)))
        record_.events.push_back(fmt::format("{} was still running {} ms after F; it was killed",
                                             player_name(p), o_.exit_grace.count()));
      record_.events.push_back(fmt::format("{} used {:.2f} s of CPU time", player_name(p),
                                           seconds(bots_[p]->cpu_time())));
    }
    for (auto& bot : bots_) bot->kill_group();
    if (o_.end_adopted_orphans) end_all_children(milliseconds(2000));
    if (o_.sandbox.mode != SandboxMode::Off)
      for (int p = 0; p < 2; ++p)
        if (AgentJail* jail = bots_[p]->jail())
          record_.sandbox[p == 0 ? "white" : "black"] = jail->usage_json();
  }
};

}  // namespace

SoccerGameReport run_soccer_game(const SoccerRefereeOptions& options,
                                 const std::function<void(const SoccerTurnEvent&)>& on_turn) {
  return SoccerGame(options, on_turn).run();
}

std::array<AgentJailSpec, 2> default_bot_jails(const AgentLimits& limits) {
  std::array<AgentJailSpec, 2> jails;
  const std::vector<int> cores = usable_cpus();
  std::error_code ec;
  const auto own_binary = std::filesystem::read_symlink("/proc/self/exe", ec);
  for (int p = 0; p < 2; ++p) {
    AgentJailSpec& j = jails[p];
    j.limits = limits;
    j.own_dir = std::filesystem::current_path();
    if (!ec) j.readable.push_back(own_binary.parent_path());
    j.label = fmt::format("player{}", p + 1);
    // Own cores where the machine has enough for both; otherwise both share all of them.
    const auto k = static_cast<std::size_t>(limits.cpus);
    if (cores.size() >= 2 * k)
      j.cpus.assign(cores.begin() + static_cast<long>(p * k),
                    cores.begin() + static_cast<long>((p + 1) * k));
  }
  return jails;
}

std::string soccer_winner_line(int winner) {
  return fmt::format("Jucatorul {} a castigat jocul.", winner);
}

}  // namespace arena
