#include "match/agent.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "core/text.hpp"
#include "referee/soccer_levels.hpp"
#include "sandbox/child_process.hpp"
#include "search/agent_words.hpp"
#include "search/player.hpp"

namespace arena::match {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

std::string default_name(const AgentSpec& a) {
  std::string base;
  switch (a.kind) {
    case AgentSpec::Engine:
      base = "engine";
      if (a.limit) {
        if (a.limit->kind == MoveLimit::Time) base += fmt::format("-{}ms", a.limit->value);
        if (a.limit->kind == MoveLimit::Depth) base += fmt::format("-d{}", a.limit->value);
        if (a.limit->kind == MoveLimit::Nodes) base += fmt::format("-n{}", a.limit->value);
      }
      if (a.level > 0) base += fmt::format("-l{}", a.level);
      if (a.threads > 1) base += fmt::format("-t{}", a.threads);
      if (a.table_mb > 0) base += fmt::format("-tt{}", a.table_mb);
      break;
    case AgentSpec::Greedy:
      base = "greedy";
      break;
    case AgentSpec::Random:
      base = "random";
      break;
    case AgentSpec::SoccerRef:
      base = fmt::format("soccer-ref{}", a.level);
      break;
    case AgentSpec::Protocol:
    case AgentSpec::Course: {
      const auto w = words(a.command);
      const std::string_view first = w.empty() ? "program" : w.front();
      base = std::string(
          first.substr(first.rfind('/') == std::string_view::npos ? 0 : first.rfind('/') + 1));
      break;
    }
  }
  if (!a.arena_binary.empty()) base = "arena(" + a.arena_binary + ")-" + base;
  return base;
}

// The built-in player of this arena, in this process.
class BuiltinAgent final : public MatchAgent {
 public:
  BuiltinAgent(std::unique_ptr<Player> player, milliseconds deadline)
      : player_(std::move(player)), deadline_(deadline) {}

  MoveAnswer choose(const AnyState& state, const Opening&) override {
    MoveAnswer a;
    const auto t0 = Clock::now();
    try {
      a.move = player_->choose(state);
    } catch (const std::exception& e) {
      a.status = MoveStatus::Crash;
      a.detail = fmt::format("the player failed: {}", e.what());
    }
    a.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - t0);
    if (a.status == MoveStatus::Ok && a.elapsed > deadline_) {
      a.status = MoveStatus::Timeout;
      a.detail =
          fmt::format("took {} ms, at most {} ms allowed", a.elapsed.count(), deadline_.count());
    }
    if (const auto s = player_->last_search()) {
      a.eval = s->eval;
      a.depth = s->depth;
    }
    return a;
  }

 private:
  std::unique_ptr<Player> player_;
  milliseconds deadline_;
};

std::optional<int> int_after(std::string_view line, std::string_view key) {
  const auto w = words(line);
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == key) {
      int v = 0;
      const auto [end, ec] = std::from_chars(w[i + 1].data(), w[i + 1].data() + w[i + 1].size(), v);
      if (ec == std::errc{}) return v;
    }
  return std::nullopt;
}

// An engine-protocol program over pipes (docs/match.md): started at the first move, told the
// whole game at every move, killed with its process group at the end.
class ProtocolAgent final : public MatchAgent {
 public:
  ProtocolAgent(std::string command, MoveLimit limit, milliseconds deadline)
      : command_(std::move(command)), limit_(limit), deadline_(deadline) {}
  ~ProtocolAgent() override { finish(); }

  MoveAnswer choose(const AnyState&, const Opening& moves) override {
    MoveAnswer a;
    if (!started_) {
      started_ = true;
      start_error_ = start();
    }
    if (!start_error_.empty()) return crash(std::move(a), start_error_);
    std::string go;
    switch (limit_.kind) {
      case MoveLimit::Time:
        go = fmt::format("go movetime {}\n", limit_.value);
        break;
      case MoveLimit::Nodes:
        go = fmt::format("go nodes {}\n", limit_.value);
        break;
      case MoveLimit::Depth:
        go = fmt::format("go depth {}\n", limit_.value);
        break;
    }
    const std::string position = moves.empty()
                                     ? "position startpos\n"
                                     : "position startpos moves " + join_moves(moves) + "\n";
    const auto t0 = Clock::now();
    if (!child_->write(position + go, milliseconds(5000)))
      return crash(std::move(a), "it does not read its input: " + child_->exit_description());
    while (true) {
      const auto used = std::chrono::duration_cast<milliseconds>(Clock::now() - t0);
      const milliseconds left = deadline_ > used ? deadline_ - used : milliseconds(0);
      ReadLimits limits;
      limits.wall = std::max(left, milliseconds(1));
      ReadOutcome r = child_->read_line(limits);
      a.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - t0);
      if (r.status == ReadStatus::WallTimeout) {
        a.status = MoveStatus::Timeout;
        a.detail = fmt::format("no bestmove within {} ms", deadline_.count());
        return a;
      }
      if (r.status != ReadStatus::Line) {
        const bool closed = r.status == ReadStatus::Closed;
        if (closed) child_->wait_exit(milliseconds(200));
        return crash(std::move(a), closed
                                       ? "it closed its output (" + child_->exit_description() + ")"
                                       : "it wrote a line that is too long");
      }
      const std::string_view line = trim(r.line);
      if (line.starts_with("bestmove ")) {
        a.move = std::string(trim(line.substr(9)));
        if (a.elapsed > deadline_) {
          a.status = MoveStatus::Timeout;
          a.detail = fmt::format("took {} ms, at most {} ms allowed", a.elapsed.count(),
                                 deadline_.count());
        }
        return a;
      }
      if (line.starts_with("error")) return crash(std::move(a), "it said: " + printable(line, 200));
      if (line.starts_with("info ")) {
        if (auto s = int_after(line, "score")) a.eval = s;
        if (auto d = int_after(line, "depth")) a.depth = d;
      }
    }
  }

  void finish() override {
    if (!child_) return;
    child_->write("quit\n", milliseconds(100));
    child_->close_input();
    if (!child_->wait_exit(milliseconds(1000))) child_->kill_group();
    child_->kill_group();
    child_.reset();
  }

 private:
  std::string command_;
  MoveLimit limit_;
  milliseconds deadline_;
  std::unique_ptr<ChildProcess> child_;
  bool started_ = false;
  std::string start_error_;

  static MoveAnswer crash(MoveAnswer a, std::string why) {
    a.status = MoveStatus::Crash;
    a.detail = std::move(why);
    return a;
  }

  // Starts the program and waits for "uciok"; gives why it failed, or "".
  std::string start() {
    try {
      child_ = std::make_unique<ChildProcess>(command_, 1 << 16, BotStderr::Discard);
    } catch (const std::exception& e) {
      return fmt::format("cannot start '{}': {}", command_, e.what());
    }
    auto ended = [&](std::string_view what) {
      child_->wait_exit(milliseconds(500));
      return fmt::format("'{}' {} ({})", printable(command_, 200), what,
                         child_->exit_description());
    };
    if (!child_->write("uci\n", milliseconds(5000))) return ended("does not read its input");
    const auto t0 = Clock::now();
    while (true) {
      const auto used = std::chrono::duration_cast<milliseconds>(Clock::now() - t0);
      if (used >= milliseconds(10'000)) return "no 'uciok' within 10 s";
      ReadLimits limits;
      limits.wall = milliseconds(10'000) - used;
      ReadOutcome r = child_->read_line(limits);
      if (r.status == ReadStatus::Line) {
        if (trim(r.line) == "uciok") return {};
        continue;
      }
      if (r.status == ReadStatus::Closed) return ended("ended before 'uciok'");
      return "no 'uciok' within 10 s";
    }
  }
};

PlayerKind player_kind(AgentSpec::Kind k) {
  return k == AgentSpec::Greedy   ? PlayerKind::Greedy
         : k == AgentSpec::Random ? PlayerKind::Random
                                  : PlayerKind::Engine;
}

}  // namespace

std::string limit_text(const MoveLimit& l) {
  switch (l.kind) {
    case MoveLimit::Time:
      return fmt::format("{} ms", l.value);
    case MoveLimit::Nodes:
      return fmt::format("{} nodes", l.value);
    case MoveLimit::Depth:
      return fmt::format("depth {}", l.value);
  }
  return "?";
}

Parsed<AgentSpec> parse_agent(std::string_view text) {
  using P = Parsed<AgentSpec>;
  if (text.size() > 4096) return P::fail("longer than 4096 bytes");
  for (char c : text)
    if (c == '\0' || c == '\n') return P::fail("contains a NUL or newline character");
  text = trim(text);
  AgentSpec a;
  a.name = take_leading_name(text);
  a.spec = std::string(text);
  auto w = words(text);
  if (!w.empty() && w[0].starts_with("arena=")) {
    a.arena_binary = std::string(w[0].substr(6));
    if (a.arena_binary.empty()) return P::fail("arena= needs the path of an arena binary");
    text = trim(text.substr(static_cast<std::size_t>(w[0].data() - text.data()) + w[0].size()));
    w.erase(w.begin());
    if (w.empty()) w.push_back("engine");
  }
  if (w.empty())
    return P::fail(
        "no agent given (engine, greedy, random, soccer-ref, arena=PATH, protocol or command)");
  const std::string_view kind = w[0];
  if (kind == "protocol" || kind == "command") {
    if (!a.arena_binary.empty()) return P::fail("arena=PATH takes engine, greedy or random");
    const std::string_view rest = trim(text.substr(text.find(kind) + kind.size()));
    if (rest.empty()) return P::fail(fmt::format("'{}' needs the program to run", kind));
    a.kind = kind == "protocol" ? AgentSpec::Protocol : AgentSpec::Course;
    a.command = std::string(rest);
  } else if (kind == "random" || kind == "greedy") {
    if (w.size() > 1) return P::fail(fmt::format("'{}' takes no arguments", kind));
    a.kind = kind == "random" ? AgentSpec::Random : AgentSpec::Greedy;
  } else if (kind == "soccer-ref") {
    if (!a.arena_binary.empty()) return P::fail("arena=PATH takes engine, greedy or random");
    if (w.size() != 2 || !parse_number(w[1], 0, 2, a.level))
      return P::fail("'soccer-ref' takes one level: 0, 1 or 2");
    a.kind = AgentSpec::SoccerRef;
  } else if (kind == "engine") {
    a.kind = AgentSpec::Engine;
    EngineWords e;
    if (std::string error = read_engine_words(std::span(w).subspan(1), true, e); !error.empty())
      return P::fail(std::move(error));
    a.threads = e.threads;
    a.level = e.level;
    a.table_mb = e.table_mb;
    if (e.time_ms > 0) a.limit = MoveLimit{MoveLimit::Time, static_cast<std::uint64_t>(e.time_ms)};
    if (e.depth > 0) a.limit = MoveLimit{MoveLimit::Depth, static_cast<std::uint64_t>(e.depth)};
    if (e.nodes > 0) a.limit = MoveLimit{MoveLimit::Nodes, e.nodes};
  } else {
    return P::fail(fmt::format(
        "unknown agent kind '{}' (engine, greedy, random, soccer-ref, arena=PATH, protocol or "
        "command)",
        printable(kind)));
  }
  if (a.name.empty()) a.name = default_name(a);
  return P::ok(std::move(a));
}

MoveLimit effective_limit(const AgentSpec& spec, const AgentContext& context) {
  return spec.limit ? *spec.limit : context.limit;
}

milliseconds move_deadline(const MoveLimit& limit, const AgentContext& context) {
  if (limit.kind == MoveLimit::Time)
    return milliseconds(static_cast<std::int64_t>(limit.value) + context.time_margin_ms);
  return milliseconds(context.max_move_ms);
}

std::unique_ptr<MatchAgent> make_agent(const AgentSpec& spec, const AgentContext& context) {
  const GameInfo& game = *context.game;
  const MoveLimit limit = effective_limit(spec, context);
  const milliseconds deadline = move_deadline(limit, context);
  if (spec.kind == AgentSpec::Course)
    throw std::runtime_error(
        "a course-protocol agent plays only whole games through the course's referee");
  if (spec.kind == AgentSpec::Protocol)
    return std::make_unique<ProtocolAgent>(spec.command, limit, deadline);
  if (!spec.arena_binary.empty()) {
    std::string command = fmt::format("{} engine {} --player {} --seed {} --limit-rule {}",
                                      shell_quote(spec.arena_binary), game.name,
                                      spec.kind == AgentSpec::Greedy   ? "greedy"
                                      : spec.kind == AgentSpec::Random ? "random"
                                                                       : "engine",
                                      context.seed, limit_rule_key(context.rules.limit_rule));
    if (context.rules.moves_per_player)
      command += fmt::format(" --moves-per-player {}", *context.rules.moves_per_player);
    // Only when asked: builds from before these options refuse them.
    if (spec.threads > 1) command += fmt::format(" --threads {}", spec.threads);
    if (spec.table_mb > 0) command += fmt::format(" --table {}", spec.table_mb);
    if (spec.kind == AgentSpec::Engine && spec.level > 0)
      command += fmt::format(" --level {}", spec.level);
    return std::make_unique<ProtocolAgent>(command, limit, deadline);
  }
  if (spec.kind == AgentSpec::SoccerRef) {
    if (game.name != "soccer") throw std::runtime_error("soccer-ref plays only Paper Soccer");
    return std::make_unique<BuiltinAgent>(make_soccer_level_player(spec.level, context.seed),
                                          deadline);
  }
  PlayerSpec ps;
  ps.kind = player_kind(spec.kind);
  ps.seed = context.seed;
  ps.move_time_ms = limit.kind == MoveLimit::Time ? static_cast<int>(limit.value) : 1000;
  if (limit.kind == MoveLimit::Depth) ps.depth = static_cast<int>(limit.value);
  if (limit.kind == MoveLimit::Nodes) ps.nodes = limit.value;
  ps.threads = spec.threads;
  ps.table_mb = spec.table_mb;
  ps.level = spec.level;
  return std::make_unique<BuiltinAgent>(game.make_player(ps), deadline);
}

}  // namespace arena::match
