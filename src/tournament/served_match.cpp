#include "tournament/served_match.hpp"

#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

#include "core/time_left.hpp"
#include "sandbox/child_process.hpp"
#include "sandbox/game_network.hpp"
#include "sandbox/process_group.hpp"
#include "sandbox/sandboxed_run.hpp"
#include "tournament/live_record.hpp"
#include "tournament/start_failure.hpp"

namespace arena::tournament {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How often the runner looks at the agents' sandboxes for a broken limit.
constexpr milliseconds kLimitCheckInterval{50};

// After the game, agents get this long to exit by themselves before their groups are killed.
constexpr milliseconds kExitGrace{2000};
// After a forfeit, this long: an agent that left by dying is still ending when its connection
// closes, and must be seen as crashed.
constexpr milliseconds kForfeitGrace{300};

// What the server's thread tells the runner's thread.
struct SeatWatch {
  std::mutex mutex;
  std::condition_variable changed;
  bool seated[2] = {false, false};
  bool left[2] = {false, false};
  bool server_done = false;
  // A client came on this side's port while the side was seated, on this port.
  std::optional<std::pair<Side, std::uint16_t>> wrong_port;
};

const Participant& participant(const MatchRequest& req, Side side) {
  return side == Side::White ? *req.white : *req.black;
}

// Waits until `side`'s agent is seated. Gives a forfeit record when it is not: its process
// ended (crash), it left again (disconnect), it connected to the other side's port, or it did not
// connect in time (timeout).
std::optional<GameRecord> await_seat(const MatchRequest& req, SeatWatch& watch, Side side,
                                     ChildProcess& agent, std::uint16_t port) {
  const Participant& p = participant(req, side);
  const auto deadline =
      std::min(req.deadline, Clock::now() + milliseconds(req.settings->connect_timeout_ms));
  std::unique_lock lock(watch.mutex);
  while (true) {
    // White leaving while Black connects would hand Black the White seat: that is White's fault.
    for (Side s : {Side::White, Side::Black})
      if (watch.left[index(s)])
        return forfeit_record(req, s, "disconnect",
                              fmt::format("{} ({}) left before the game started", side_name(s),
                                          participant(req, s).name));
    if (watch.seated[index(side)]) return std::nullopt;
    // Nobody else is started: the client on the taken seat's port is this side's agent.
    if (watch.wrong_port && watch.wrong_port->first != side)
      return forfeit_record(
          req, side, "timeout",
          fmt::format("{} ({}) connected to {}'s port {} (it was started as {}: its command must "
                      "connect to the port for its side, {})",
                      side_name(side), p.name, side_name(watch.wrong_port->first),
                      watch.wrong_port->second, side_name(side), port));
    if (agent.ended())
      return forfeit_record(req, side, agent.exited_cleanly() ? "disconnect" : "crash",
                            fmt::format("{} ({}) {} before connecting to the server (port {})",
                                        side_name(side), p.name, agent.exit_description(), port));
    if (Clock::now() >= deadline)
      return forfeit_record(
          req, side, "timeout",
          fmt::format("{} ({}) never connected to the server (port {}) within {:g} s; its process "
                      "was still running: is it connecting to another host or port?",
                      side_name(side), p.name, port, req.settings->connect_timeout_ms / 1000.0));
    watch.changed.wait_for(lock, milliseconds(10));
  }
}

// The course-style log the server wrote goes beside the record as <stem>.log.
void move_course_log(const std::filesystem::path& run_dir, const std::filesystem::path& dir,
                     const std::string& stem) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec))
    if (entry.path().extension() == ".log")
      std::filesystem::rename(entry.path(), dir / (stem + ".log"), ec);
}

}  // namespace

std::vector<std::string> builtin_player_args(const MatchRequest& req, const Participant& p,
                                             std::uint64_t seed) {
  std::vector<std::string> args = {
      "--player",    std::string(agent_kind_name(p.kind)),
      "--seed",      std::to_string(seed),
      "--move-time", std::to_string(p.time_ms > 0 ? p.time_ms : req.move_time_ms)};
  if (p.depth > 0) {
    args.push_back("--depth");
    args.push_back(std::to_string(p.depth));
  }
  if (p.kind == AgentKind::Engine && p.level > 0) {
    args.push_back("--level");
    args.push_back(std::to_string(p.level));
  }
  if (p.threads > 1) {
    args.push_back("--threads");
    args.push_back(std::to_string(p.threads));
  }
  return args;
}

std::string exec_command(const std::vector<std::string>& argv) {
  std::string command = "exec";
  for (const auto& a : argv) {
    command += ' ';
    command += shell_quote(a);
  }
  return command;
}

GameRecord play_served_game(const MatchRequest& req, const ServeGame& serve) {
  // The game's own network: its listening sockets and both agents, nothing else.
  std::optional<GameNetwork> network;
  if (req.sandbox && req.sandbox->uses(Protection::Network)) network.emplace();
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
  // The agents as the server's thread may see them (it reads their CPU clocks).
  std::atomic<ChildProcess*> running[2] = {nullptr, nullptr};
  ServedGameSetup setup;
  setup.cpu_clock = [&running](Side s) -> std::optional<std::chrono::microseconds> {
    ChildProcess* agent = running[index(s)].load();
    if (!agent) return std::nullopt;
    if (AgentJail* jail = agent->jail())
      if (auto cpu = jail->cpu()) return cpu;
    return group_user_cpu(agent->pid());
  };
  setup.records_dir = work;
  setup.transcript = &transcript;
  setup.on_seat = [&watch](Side s, bool seated) {
    std::lock_guard lock(watch.mutex);
    watch.seated[index(s)] = seated;
    if (!seated) watch.left[index(s)] = true;
    watch.changed.notify_all();
  };
  setup.on_wrong_port = [&watch](Side s, std::uint16_t port) {
    std::lock_guard lock(watch.mutex);
    watch.wrong_port = {s, port};
    watch.changed.notify_all();
  };
  const std::unique_ptr<ServedGame> server = serve(req, setup);
  std::thread server_thread([&] {
    server->run();
    std::lock_guard lock(watch.mutex);
    watch.server_done = true;
    watch.changed.notify_all();
  });
  LiveRecordMirror live(req, work);

  std::optional<ChildProcess> agents[2];
  std::optional<GameRecord> forfeit;
  // White first: the line protocol's server seats the first client to connect as White, and the
  // Morris server accepts White before Black.
  for (Side side : {Side::White, Side::Black}) {
    const Participant& p = participant(req, side);
    const std::uint64_t seed = side == Side::White ? req.seed : req.seed ^ 0x5851F42D4C957F2DULL;
    {
      std::lock_guard lock(watch.mutex);
      watch.wrong_port.reset();  // only this agent's connections count while it is awaited
    }
    try {
      AgentLaunch launch = server->agent(p, side, seed);
      agents[index(side)].emplace(DetachedChildOptions{
          std::move(launch.command), agent_dir(*req.settings, p),
          dir / fmt::format("{}.{}.log", stem, side_key(side)), std::move(launch.env),
          limits_of(*req.settings, p).log_bytes, make_agent_jail(req, side)});
      running[index(side)] = &*agents[index(side)];
    } catch (const std::exception& e) {
      forfeit = forfeit_record(
          req, side, "crash",
          fmt::format("{} ({}) could not be started: {}", side_name(side), p.name, e.what()));
      break;
    }
    forfeit = await_seat(req, watch, side, *agents[index(side)], server->port(side));
    if (forfeit) break;
  }
  std::optional<LimitBreach> broken[2];
  if (!forfeit) {
    std::unique_lock lock(watch.mutex);
    while (!watch.server_done) {
      if (Clock::now() >= req.deadline) {
        lock.unlock();
        server->stop();  // the game is recorded as aborted
        break;
      }
      watch.changed.wait_for(lock, std::min(kLimitCheckInterval, time_left(req.deadline)));
      // An agent over a limit is ended at once: the server sees it leave, and it loses.
      for (Side side : {Side::White, Side::Black}) {
        AgentJail* jail = agents[index(side)] ? agents[index(side)]->jail() : nullptr;
        if (jail && !broken[index(side)] && (broken[index(side)] = jail->breach()))
          jail->kill_all();
      }
    }
  } else {
    server->stop();
  }
  server_thread.join();
  live.stop();
  running[0] = running[1] = nullptr;

  std::string status[2];
  bool by_itself[2] = {false, false}, clean[2] = {false, false};
  nlohmann::json usage[2];
  const bool started[2] = {agents[0].has_value(), agents[1].has_value()};
  for (Side side : {Side::White, Side::Black}) {
    auto& a = agents[index(side)];
    if (!a) continue;
    const RunOutcome end = finish_run(*a, forfeit ? kForfeitGrace : kExitGrace);
    by_itself[index(side)] = end.by_itself;
    clean[index(side)] = end.clean;
    status[index(side)] = end.status;
    if (!broken[index(side)]) broken[index(side)] = end.breach;
    usage[index(side)] = end.usage;
    a.reset();  // its log is complete now
  }

  GameRecord record;
  const auto paths = server->record_paths();
  if (forfeit) {
    record = std::move(*forfeit);
  } else if (!paths.empty()) {
    record = read_record(paths.front());
  } else {
    record = forfeit_record(req, Side::White, "aborted", "the referee could not record the game");
    record.outcome = Outcome::Ongoing;
  }
  move_course_log(server->run_directory(), dir, stem);
  std::filesystem::remove_all(work);

  name_players(req, record);
  for (Side side : {Side::White, Side::Black})
    if (started[index(side)])
      record.events.push_back(
          fmt::format("{} agent {}{}", side_name(side), status[index(side)],
                      by_itself[index(side)] ? "" : " (stopped by arena after the game)"));
  // A player that left the game because its process died crashed; one that closed the
  // connection and lived on (or exited cleanly) disconnected.
  const bool decided = record.outcome == Outcome::WhiteWins || record.outcome == Outcome::BlackWins;
  const Side loser = record.outcome == Outcome::WhiteWins ? Side::Black : Side::White;
  if (record.reason == "disconnect" && decided && by_itself[index(loser)] && !clean[index(loser)]) {
    record.reason = "crash";
    record.detail = fmt::format("{} ({}) {} during the game", side_name(loser),
                                record.player(loser).name, status[index(loser)]);
  }
  // A loser that broke a limit of its sandbox lost for that (the kill made it leave or time out).
  if (decided && broken[index(loser)]) {
    record.reason = broken[index(loser)]->reason;
    record.detail = fmt::format("{} ({}) {}", side_name(loser), record.player(loser).name,
                                broken[index(loser)]->detail);
  }
  if (decided)
    explain_start_failure(record, loser, dir / fmt::format("{}.{}.log", stem, side_key(loser)),
                          status[index(loser)]);
  if (req.sandbox && req.sandbox->mode != SandboxMode::Off) {
    record.sandbox = sandbox_block(req);
    for (Side side : {Side::White, Side::Black})
      if (!usage[index(side)].is_null()) record.sandbox[side_key(side)] = usage[index(side)];
  }
  return record;
}

}  // namespace arena::tournament
