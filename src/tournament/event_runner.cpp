#include "tournament/event_runner.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <stdexcept>
#include <thread>

#include "games/registry.hpp"
#include "referee/record.hpp"
#include "sandbox/cgroup.hpp"
#include "tournament/agent_check.hpp"
#include "tournament/journal.hpp"
#include "tournament/match_runner.hpp"
#include "tournament/report.hpp"
#include "tournament/schedule.hpp"
#include "tournament/shard.hpp"

namespace arena::tournament {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> stopping{false};

// How often a shard says it is alive (`arena tournament status` calls it dead after minutes).
constexpr std::chrono::seconds kHeartbeatInterval{10};

std::string clock_text(std::chrono::seconds s) {
  const long long t = s.count();
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

const GameInfo& game_of(const EventSettings& s) {
  const GameInfo* g = find_game(s.game);
  if (!g)
    throw std::runtime_error(
        fmt::format("unknown game '{}' (arena knows: {})", s.game, game_names()));
  return *g;
}

// The event being played: shared by the workers, guarded by one mutex.
class Event {
 public:
  Event(const std::filesystem::path& dir, const EventSettings& settings, Journal journal,
        std::vector<GameResult> finished, const RunOptions& options, std::ostream& out,
        std::ostream& progress)
      : dir_(dir),
        settings_(settings),
        game_(game_of(settings)),
        journal_(std::move(journal)),
        schedule_(
            double_round_robin(static_cast<int>(settings.participants.size()), settings.seed)),
        options_(options),
        sandbox_(plan_sandbox(settings.sandbox, agent_channel(game_))),
        cores_(usable_cpus()),
        out_(out),
        progress_(progress),
        tty_(::isatty(STDERR_FILENO) == 1) {
    std::set<int> seen;
    for (auto& r : finished) {
      if (r.index < 0 || r.index >= static_cast<int>(schedule_.size()) ||
          schedule_[static_cast<std::size_t>(r.index)].white != r.white ||
          schedule_[static_cast<std::size_t>(r.index)].black != r.black)
        throw std::runtime_error(
            fmt::format("{}: game {} does not match the event's schedule; a journal was changed",
                        dir.string(), r.index + 1));
      if (seen.insert(r.index).second) results_.push_back(std::move(r));
    }
    for (const Pairing& p : schedule_)
      if (!seen.count(p.index) && (!options_.shard || options_.shard->owns(p.index)))
        pending_.push_back(p);
  }

  int run() {
    std::filesystem::create_directories(dir_ / "games");
    const int total = static_cast<int>(schedule_.size());
    // Groups left by an arena killed with -9 (this event's, before a --resume, or another's).
    if (sandbox_.any()) remove_stale_cgroups();
    std::string scope = fmt::format("{} games", total);
    if (options_.shard) {
      int owned = 0;
      for (const Pairing& p : schedule_) owned += options_.shard->owns(p.index);
      scope = fmt::format("shard {}: {} of the event's {} games", options_.shard->label(), owned,
                          total);
    }
    fmt::print(out_,
               "{} tournament: {} participants, {} ({} to play), {} at once\nEvent folder: {}\n"
               "Sandbox: {}\n",
               game_.title, settings_.participants.size(), scope, pending_.size(),
               std::min<std::size_t>(pending_.size(), static_cast<std::size_t>(concurrency())),
               dir_.string(), sandbox_summary(sandbox_));
    if (const std::string warning = sandbox_warning(sandbox_); !warning.empty())
      fmt::print(progress_, "{}\n", warning);
    if (sandbox_.uses(Protection::Cpu) &&
        concurrency() * cores_per_game() > static_cast<int>(cores_.size()))
      fmt::print(progress_,
                 "warning: {} games at once need {} cores for their agents, and this machine "
                 "gives {}: agents share cores\n",
                 concurrency(), concurrency() * cores_per_game(), cores_.size());
    out_.flush();
    std::optional<ShardHeartbeat> heartbeat;
    if (options_.shard)
      heartbeat.emplace(shard_alive_path(dir_, *options_.shard), kHeartbeatInterval);
    started_ = Clock::now();
    const int workers = std::max(1, std::min(concurrency(), static_cast<int>(pending_.size())));
    std::vector<std::thread> threads;
    for (int i = 0; i < workers && !pending_.empty(); ++i)
      threads.emplace_back([this, i] { work(i); });
    for (auto& t : threads) t.join();
    // A stop signal's handler is killing the agents and ends the process with its own code.
    while (stopping) std::this_thread::sleep_for(std::chrono::seconds(1));
    clear_progress();
    if (!error_.empty()) {
      if (heartbeat) heartbeat->finish("stopped", error_);
      fmt::print(out_, "error: {}\nThe {} finished games are kept; continue with: {}\n", error_,
                 results_.size(), continue_command());
      return 1;
    }
    if (heartbeat) heartbeat->finish("finished", "");
    if (options_.shard) return report_after_shard();
    const EventReport report = make_report(settings_, std::string(game_.title), results_, total);
    write_reports(dir_, report);
    fmt::print(out_,
               "\n{}\nRecords, standings (standings.md, standings.csv, crosstable.csv, games.csv, "
               "results.json) and the journal are in {}\n",
               report_text(report), dir_.string());
    out_.flush();
    return 0;
  }

 private:
  const std::filesystem::path dir_;
  const EventSettings& settings_;
  const GameInfo& game_;
  Journal journal_;
  const std::vector<Pairing> schedule_;
  const RunOptions options_;
  const SandboxPlan sandbox_;
  const std::vector<int> cores_;  // the machine's, shared out among the workers' games
  std::ostream& out_;
  std::ostream& progress_;
  const bool tty_;
  std::mutex mutex_;
  std::vector<Pairing> pending_;
  std::size_t next_ = 0;
  std::vector<GameResult> results_;
  int played_now_ = 0;               // games finished by this run (for the estimate)
  Clock::time_point next_report_{};  // the standings are rewritten no sooner than this
  std::string error_;
  Clock::time_point started_;

  int cores_per_game() const { return tournament::cores_per_game(settings_); }

  // Games on the course's fixed ports cannot run side by side, unless each has a network of its
  // own. By default, as many games as give every agent its own cores.
  int concurrency() const {
    if (settings_.morris_ports == MorrisPorts::Course && !sandbox_.uses(Protection::Network))
      return 1;
    if (options_.concurrency > 0) return options_.concurrency;
    if (!sandbox_.uses(Protection::Cpu)) return static_cast<int>(cores_.size());
    return std::max(1, static_cast<int>(cores_.size()) / cores_per_game());
  }

  void work(int worker) {
    while (true) {
      Pairing p;
      {
        std::lock_guard lock(mutex_);
        if (next_ >= pending_.size() || !error_.empty()) return;
        p = pending_[next_++];
      }
      try {
        GameResult r = play(p, worker);
        if (stopping) return;  // the stop killed its agents: played again when resumed
        journal_.append(r);
        finished(std::move(r));
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        if (error_.empty()) error_ = fmt::format("game {}: {}", p.index + 1, e.what());
      }
    }
  }

  GameResult play(const Pairing& p, int worker) {
    const Participant& white = settings_.participants[static_cast<std::size_t>(p.white)];
    const Participant& black = settings_.participants[static_cast<std::size_t>(p.black)];
    const std::string stem = fmt::format("{:03}-{}-vs-{}", p.index + 1, white.name, black.name);
    MatchRequest req;
    req.game = &game_;
    req.settings = &settings_;
    req.white = &white;
    req.black = &black;
    req.seed = p.seed;
    req.move_time_ms =
        settings_.move_time_ms > 0 ? settings_.move_time_ms : game_.default_move_time_ms;
    req.arena_binary = options_.arena_binary;
    req.stem = dir_ / "games" / stem;
    req.sandbox = &sandbox_;
    req.cores = game_cores(settings_, sandbox_, cores_, worker, white, black);
    req.event_dir = dir_;
    const auto began = Clock::now();
    req.deadline = began + game_time_cap(game_, settings_);
    GameRecord record = match_runner_for(game_)->play(req);
    const auto duration =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - began);
    record.settings["tournament"] = {{"event", dir_.filename().string()},
                                     {"game", p.index + 1},
                                     {"round", p.round},
                                     {"seed", p.seed}};
    const std::string record_path = "games/" + stem + ".json";
    write_record(dir_ / record_path, record);
    GameResult r;
    r.index = p.index;
    r.round = p.round;
    r.white = p.white;
    r.black = p.black;
    r.end = end_kind_of(record.outcome, record.reason);
    r.outcome = record.outcome == Outcome::Ongoing ? Outcome::Draw : record.outcome;
    r.reason = record.reason;
    r.detail = record.detail;
    r.plies = static_cast<int>(record.moves.size());
    r.record = record_path;
    r.duration_ms = duration.count();
    return r;
  }

  void finished(GameResult r) {
    std::lock_guard lock(mutex_);
    ++played_now_;
    const auto& w = settings_.participants[static_cast<std::size_t>(r.white)].name;
    const auto& b = settings_.participants[static_cast<std::size_t>(r.black)].name;
    const std::string result = r.outcome == Outcome::WhiteWins   ? "1-0"
                               : r.outcome == Outcome::BlackWins ? "0-1"
                                                                 : "1/2";
    results_.push_back(std::move(r));
    const GameResult& g = results_.back();
    // The standings so far, so that viewers show an event in progress: at most a tenth of the
    // event's time goes to them, so that a long event does not spend its time rewriting them
    // (each write reads every game so far). A shard knows only its own games: none.
    if (!options_.shard && Clock::now() >= next_report_) {
      const auto began = Clock::now();
      write_reports(dir_,
                    make_report(settings_, std::string(game_.title), results_,
                                static_cast<int>(schedule_.size())),
                    false);
      const auto now = Clock::now();
      next_report_ = now + 9 * (now - began);
    }
    if (!options_.quiet) {
      clear_progress();
      fmt::print(out_, "game {:>3}  round {:>2}  {} - {}  {}  {} ({}), {} plies\n", g.index + 1,
                 g.round, w, b, result, g.reason, g.detail, g.plies);
      out_.flush();
    }
    show_progress();
  }

  std::string continue_command() const {
    if (options_.shard)
      return fmt::format("arena tournament play {} --shard {}", dir_.string(),
                         options_.shard->label());
    return "arena tournament --resume " + dir_.string();
  }

  // A shard's games are in: the standings, if the other shards have finished too.
  int report_after_shard() {
    const EventJournals all = read_event_journals(dir_);
    const int total = static_cast<int>(schedule_.size());
    const int done = static_cast<int>(all.games.size());
    fmt::print(out_, "\nShard {} finished: its games are in {}. The event has {}/{} games.\n",
               options_.shard->label(),
               shard_journal_path(dir_, *options_.shard).lexically_relative(dir_).string(), done,
               total);
    if (done == total) {
      const EventReport report = make_report(settings_, std::string(game_.title), all.games, total);
      write_reports(dir_, report);
      fmt::print(out_, "\n{}\nStandings and records are in {}\n", report_text(report),
                 dir_.string());
    } else {
      fmt::print(out_,
                 "The standings are written by the shard that finishes last, or now with: arena "
                 "tournament report {}\nWatch the others with: arena tournament status {}\n",
                 dir_.string(), dir_.string());
    }
    out_.flush();
    return 0;
  }

  void clear_progress() {
    if (tty_) {
      progress_ << "\r\033[K";
      progress_.flush();
    }
  }

  void show_progress() {
    int total = static_cast<int>(schedule_.size());
    int done = static_cast<int>(results_.size());
    if (options_.shard) {
      total = done = 0;
      for (const Pairing& p : schedule_) total += options_.shard->owns(p.index);
      for (const GameResult& r : results_) done += options_.shard->owns(r.index);
    }
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_);
    const auto left =
        std::chrono::seconds(played_now_ > 0 ? elapsed.count() * (total - done) / played_now_ : 0);
    const std::string where = options_.shard
                                  ? fmt::format("{} shard {}", game_.name, options_.shard->label())
                                  : std::string(game_.name);
    const std::string line = fmt::format("[{}] {}/{} games, elapsed {}, about {} left", where, done,
                                         total, clock_text(elapsed), clock_text(left));
    progress_ << (tty_ ? "\r\033[K" + line : line + "\n");
    progress_.flush();
  }
};

// schedule.csv: the games in the order they are started, for staff to read (arena recomputes
// the schedule from the participants and the seed).
void write_schedule(const std::filesystem::path& dir, const EventSettings& s) {
  std::string csv = "game,round,white,black\n";
  for (const Pairing& p : double_round_robin(static_cast<int>(s.participants.size()), s.seed))
    csv += fmt::format("{},{},{},{}\n", p.index + 1, p.round,
                       s.participants[static_cast<std::size_t>(p.white)].name,
                       s.participants[static_cast<std::size_t>(p.black)].name);
  write_file_atomically(dir / "schedule.csv", csv);
}

void validate(EventSettings& s) {
  const GameInfo& g = game_of(s);
  for (const Participant& p : s.participants) {
    const auto dir = agent_dir(s, p);
    if (!p.dir.empty() && !std::filesystem::is_directory(dir))
      throw std::runtime_error(
          fmt::format("participant '{}': dir={} is not a folder", p.name, dir.string()));
  }
  if (!tournament_supported(g)) match_runner_for(g);  // throws the reason
  check_participants_for(g, s);
  plan_sandbox(s.sandbox, agent_channel(g));  // --sandbox required refuses here, before any file
}

}  // namespace

void request_stop() {
  stopping = true;
}

void plan_event(const std::filesystem::path& dir, EventSettings settings, std::ostream& out) {
  finalize_participants(settings.participants);
  validate(settings);
  { Journal journal = Journal::create(dir, settings); }
  write_schedule(dir, settings);
  const auto schedule =
      double_round_robin(static_cast<int>(settings.participants.size()), settings.seed);
  // The empty standings: viewers and `status` show a planned event before any game.
  write_reports(dir, make_report(settings, std::string(game_of(settings).title), {},
                                 static_cast<int>(schedule.size())));
  fmt::print(out,
             "Planned {}: {} participants, {} games in {} rounds, in {}\n"
             "Play it with: arena tournament play {}   (or in parts: --shard K/N; see "
             "arena tournament slurm)\n",
             game_of(settings).title, settings.participants.size(), schedule.size(),
             schedule.empty() ? 0 : schedule.back().round, dir.string(), dir.string());
}

int start_event(const std::filesystem::path& dir, EventSettings settings, const RunOptions& options,
                std::ostream& out, std::ostream& progress) {
  finalize_participants(settings.participants);
  validate(settings);
  check_agents_can_start(settings, dir, options.arena_binary);  // before the event folder exists
  Journal journal = Journal::create(dir, settings);
  write_schedule(dir, settings);
  Event event(dir, settings, std::move(journal), {}, options, out, progress);
  return event.run();
}

int play_event(const std::filesystem::path& dir, const RunOptions& options, std::ostream& out,
               std::ostream& progress) {
  EventJournals all = read_event_journals(dir);
  validate(all.settings);
  check_agents_can_start(all.settings, dir, options.arena_binary);
  if (options.shard) {
    Journal journal = Journal::open_shard(dir, *options.shard);
    // Read again now that this shard holds its journal: nothing was added in between.
    all = read_event_journals(dir);
    Event event(dir, all.settings, std::move(journal), std::move(all.games), options, out,
                progress);
    return event.run();
  }
  EventSettings settings;
  std::vector<GameResult> own;
  Journal journal = Journal::open(dir, settings, own);
  all = read_event_journals(dir);
  Event event(dir, all.settings, std::move(journal), std::move(all.games), options, out, progress);
  return event.run();
}

int resume_event(const std::filesystem::path& dir, const RunOptions& options, std::ostream& out,
                 std::ostream& progress) {
  RunOptions whole = options;
  whole.shard.reset();
  return play_event(dir, whole, out, progress);
}

int report_event(const std::filesystem::path& dir, std::ostream& out) {
  const EventJournals all = read_event_journals(dir);
  const GameInfo& game = game_of(all.settings);
  const int total = static_cast<int>(
      double_round_robin(static_cast<int>(all.settings.participants.size()), all.settings.seed)
          .size());
  const EventReport report = make_report(all.settings, std::string(game.title), all.games, total);
  write_reports(dir, report);
  fmt::print(out, "{}\n", report_text(report));
  if (static_cast<int>(all.games.size()) < total)
    fmt::print(out, "The event is not finished: {}/{} games; see arena tournament status {}\n",
               all.games.size(), total, dir.string());
  fmt::print(out, "Standings written to {}\n", dir.string());
  return 0;
}

}  // namespace arena::tournament
