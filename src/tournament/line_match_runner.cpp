#include "tournament/line_match_runner.hpp"

#include <fmt/format.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

#include "referee/course_server.hpp"
#include "referee/process_runner.hpp"

namespace arena::tournament {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kHost = "127.0.0.1";
// After the game, agents get this long to exit by themselves before their groups are killed.
constexpr milliseconds kExitGrace{2000};

std::string agent_kind_arg(AgentKind k) {
  return std::string(agent_kind_name(k));
}

// The command line of an agent that joins the server at kHost:port.
std::vector<std::string> agent_argv(const MatchRequest& req, const Participant& p,
                                    std::uint64_t seed, std::uint16_t port) {
  const std::string port_text = std::to_string(port);
  if (p.kind == AgentKind::Command)
    return {"/bin/sh", "-c", p.command + " \"$@\"", "sh", kHost, port_text};
  std::vector<std::string> argv = {req.arena_binary.string(),
                                   "connect",
                                   std::string(req.game->name),
                                   kHost,
                                   port_text,
                                   "--player",
                                   agent_kind_arg(p.kind),
                                   "--seed",
                                   std::to_string(seed),
                                   "--move-time",
                                   std::to_string(p.time_ms > 0 ? p.time_ms : req.move_time_ms)};
  if (p.depth > 0) {
    argv.push_back("--depth");
    argv.push_back(std::to_string(p.depth));
  }
  return argv;
}

std::string describe_agent(const Participant& p) {
  return p.kind == AgentKind::Command ? p.command : "built-in " + p.spec;
}

// What the server's thread tells the runner's thread.
struct SeatWatch {
  std::mutex mutex;
  std::condition_variable changed;
  bool seated[2] = {false, false};
  bool left[2] = {false, false};
  bool server_done = false;
};

class LineMatchRunner final : public MatchRunner {
 public:
  GameRecord play(const MatchRequest& req) override {
    const std::filesystem::path dir = req.stem.parent_path();
    const std::string stem = req.stem.filename().string();
    const auto work = dir / (stem + ".tmp");
    std::filesystem::remove_all(work);
    std::filesystem::create_directories(work);
    std::ofstream transcript(dir / (stem + ".server.txt"), std::ios::trunc);
    // A game cut short by a kill is played again from the start: no old agent output either.
    for (Side s : {Side::White, Side::Black})
      std::filesystem::remove(dir / fmt::format("{}.{}.log", stem, side_key(s)));

    SeatWatch watch;
    CourseServerOptions o;
    o.host = kHost;
    o.port = 0;
    o.move_time_ms = req.move_time_ms;
    o.warmup_ms = req.settings->warmup_ms;
    o.games = 1;
    o.rules = req.settings->rules;
    o.records_dir = work;
    o.on_seat = [&watch](Side s, bool seated) {
      std::lock_guard lock(watch.mutex);
      watch.seated[index(s)] = seated;
      if (!seated) watch.left[index(s)] = true;
      watch.changed.notify_all();
    };
    CourseServer server(*req.game, o, transcript);
    const std::uint16_t port = server.listen();
    std::thread server_thread([&] {
      server.run(false);
      std::lock_guard lock(watch.mutex);
      watch.server_done = true;
      watch.changed.notify_all();
    });

    std::optional<RunningProcess> agents[2];
    std::optional<GameRecord> forfeit;
    // White first: the course server seats the first client to connect as White.
    for (Side side : {Side::White, Side::Black}) {
      const Participant& p = side == Side::White ? *req.white : *req.black;
      const std::uint64_t seed = side == Side::White ? req.seed : req.seed ^ 0x5851F42D4C957F2DULL;
      try {
        agents[index(side)].emplace(
            ProcessOptions{agent_argv(req, p, seed, port), req.settings->working_dir,
                           dir / fmt::format("{}.{}.log", stem, side_key(side))});
      } catch (const std::exception& e) {
        forfeit = forfeit_record(
            req, side, "crash",
            fmt::format("{} ({}) could not be started: {}", side_name(side), p.name, e.what()));
        break;
      }
      forfeit = await_seat(req, watch, side, *agents[index(side)]);
      if (forfeit) break;
    }
    if (!forfeit) {
      std::unique_lock lock(watch.mutex);
      if (!watch.changed.wait_until(lock, req.deadline, [&] { return watch.server_done; })) {
        lock.unlock();
        server.stop();  // the game is recorded as aborted
      }
    } else {
      server.stop();
    }
    server_thread.join();

    ExitStatus status[2];
    bool by_itself[2] = {false, false};
    for (Side side : {Side::White, Side::Black}) {
      auto& a = agents[index(side)];
      if (!a) continue;
      a->wait_for(forfeit ? milliseconds(0) : kExitGrace);
      by_itself[index(side)] = a->ended_by_itself();
      status[index(side)] = a->kill_group();
    }

    GameRecord record;
    const auto paths = server.record_paths();
    if (forfeit) {
      record = std::move(*forfeit);
    } else if (!paths.empty()) {
      record = read_record(paths.front());
    } else {
      record = forfeit_record(req, Side::White, "aborted", "the referee could not record the game");
      record.outcome = Outcome::Ongoing;
    }
    move_course_log(server.run_directory(), dir, stem);
    std::filesystem::remove_all(work);

    for (Side side : {Side::White, Side::Black}) {
      const Participant& p = side == Side::White ? *req.white : *req.black;
      record.player(side) = {
          p.name,
          describe_agent(p) +
              (record.player(side).address.empty() ? "" : " @ " + record.player(side).address)};
      if (agents[index(side)])
        record.events.push_back(
            fmt::format("{} agent {}{}", side_name(side), status[index(side)].describe(),
                        by_itself[index(side)] ? "" : " (stopped by arena after the game)"));
    }
    // A player that left the game because its process died crashed; one that closed the
    // connection and lived on (or exited cleanly) disconnected.
    if (record.reason == "disconnect" && record.outcome != Outcome::Draw &&
        record.outcome != Outcome::Ongoing) {
      const Side loser = record.outcome == Outcome::WhiteWins ? Side::Black : Side::White;
      if (by_itself[index(loser)] && !status[index(loser)].clean()) {
        record.reason = "crash";
        record.detail = fmt::format("{} ({}) {} during the game", side_name(loser),
                                    record.player(loser).name, status[index(loser)].describe());
      }
    }
    return record;
  }

 private:
  // Waits until `side`'s agent is seated. Gives a forfeit record when it is not: its process
  // ended (crash), it left again (disconnect), or it did not connect in time (timeout).
  static std::optional<GameRecord> await_seat(const MatchRequest& req, SeatWatch& watch, Side side,
                                              RunningProcess& agent) {
    const Participant& p = side == Side::White ? *req.white : *req.black;
    const auto deadline =
        std::min(req.deadline, Clock::now() + milliseconds(req.settings->connect_timeout_ms));
    std::unique_lock lock(watch.mutex);
    while (true) {
      // White leaving while Black connects would hand Black the White seat: that is White's fault.
      for (Side s : {Side::White, Side::Black})
        if (watch.left[index(s)])
          return forfeit_record(req, s, "disconnect",
                                fmt::format("{} ({}) left before the game started", side_name(s),
                                            (s == Side::White ? req.white : req.black)->name));
      if (watch.seated[index(side)]) return std::nullopt;
      if (const auto st = agent.poll())
        return forfeit_record(
            req, side, st->clean() ? "disconnect" : "crash",
            fmt::format("{} ({}) {} before connecting", side_name(side), p.name, st->describe()));
      if (Clock::now() >= deadline)
        return forfeit_record(req, side, "timeout",
                              fmt::format("{} ({}) did not connect within {} ms", side_name(side),
                                          p.name, req.settings->connect_timeout_ms));
      watch.changed.wait_for(lock, milliseconds(10));
    }
  }

  // The course-style log the server wrote goes beside the record as <stem>.log.
  static void move_course_log(const std::filesystem::path& run_dir,
                              const std::filesystem::path& dir, const std::string& stem) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec))
      if (entry.path().extension() == ".log")
        std::filesystem::rename(entry.path(), dir / (stem + ".log"), ec);
  }
};

}  // namespace

std::unique_ptr<MatchRunner> make_line_match_runner() {
  return std::make_unique<LineMatchRunner>();
}

}  // namespace arena::tournament
