#include "games/soccer/players.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <istream>
#include <ostream>
#include <stdexcept>

#include "core/memory_limit.hpp"
#include "core/text.hpp"
#include "games/soccer/adapter.hpp"
#include "games/soccer/engine.hpp"
#include "games/soccer/mcts.hpp"

namespace arena::soccer {
namespace {

class RandomTurns final : public Player {
 public:
  explicit RandomTurns(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  std::string choose(const AnyState& state) override {
    return turn_text(random_turn(state_of(state), rng_));
  }

 private:
  Rng rng_;
};

// What both searching players report about a chosen turn: a line for verbose output, and the
// score and depth kept in the game record.
class ReportingTurns : public Player {
 public:
  std::string last_info() const override { return info_; }
  std::optional<SearchSummary> last_search() const override { return summary_; }

 protected:
  std::string report(const TurnChoice& c, std::string_view counted) {
    info_ = fmt::format("depth {} score {} {} {} time {} ms", c.depth, c.score, counted, c.nodes,
                        c.elapsed.count());
    summary_ = {c.score, c.depth};
    return turn_text(c.turn);
  }
  void add_info(std::string_view more) { info_ += more; }
  std::string report_random(Turn turn) {
    info_ = "random turn (level)";
    summary_.reset();
    return turn_text(turn);
  }

 private:
  std::string info_;
  std::optional<SearchSummary> summary_;
};

// The alpha-beta over whole turns; at a strength level (docs/levels.md) it also plays a random
// turn now and then.
class SearchTurns final : public ReportingTurns {
 public:
  SearchTurns(std::string name, SearchLimits limits, int threads = 1, int random_percent = 0,
              std::uint64_t seed = 1)
      : name_(std::move(name)),
        limits_(limits),
        engine_(16, SearchOptions{.threads = std::max(threads, 1)}),
        random_percent_(random_percent),
        rng_(seed) {}
  std::string name() const override { return name_; }
  std::string choose(const AnyState& state) override {
    if (random_percent_ > 0 && rng_.below(100) < static_cast<std::uint64_t>(random_percent_))
      return report_random(random_turn(state_of(state), rng_));
    return report(engine_.choose(state_of(state), limits_), "nodes");
  }

 private:
  std::string name_;
  SearchLimits limits_;
  TurnEngine engine_;
  int random_percent_;
  Rng rng_;
};

// Monte-Carlo tree search over whole turns (mcts.hpp): the engine's default with a move time.
class MctsTurns final : public ReportingTurns {
 public:
  MctsTurns(std::string name, MctsSettings settings) : name_(std::move(name)), mcts_(settings) {}
  std::string name() const override { return name_; }
  std::string choose(const AnyState& state) override {
    std::string turn = report(mcts_.choose(state_of(state)), "iterations");
    if (mcts_.cpu_limited()) add_info(fmt::format(" cpu {} ms", mcts_.last_cpu_time().count()));
    return turn;
  }

 private:
  std::string name_;
  Mcts mcts_;
};

class HumanTurns final : public Player {
 public:
  HumanTurns(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  std::string name() const override { return "human"; }
  std::string choose(const AnyState& state) override {
    const State& start = state_of(state);
    State at = start;
    Turn turn;
    while (!at.over() && at.side_to_move() == start.side_to_move()) {
      fmt::print(out_, "\n{}\n{} ({}) to move, attacking {}; turn {}{}.\nFree steps:", at.render(),
                 side_name(at.side_to_move()),
                 at.side_to_move() == Side::White ? "player 1" : "player 2",
                 at.side_to_move() == Side::White ? "north (up)" : "south (down)", at.ply() + 1,
                 turn.empty() ? "" : fmt::format(", steps so far: {}", turn_text(turn)));
      for (unsigned f = at.free_directions(); f; f &= f - 1) {
        const int d = std::countr_zero(f);
        fmt::print(out_, "  {}={}", d, kDirectionNames[static_cast<std::size_t>(d)]);
      }
      fmt::print(out_, "\nStep(s), 0..7: ");
      out_.flush();
      std::string line;
      if (!std::getline(in_, line))
        throw std::runtime_error("input closed before the turn was finished");
      if (line.size() > 200) {
        fmt::print(out_, "That is too long. Try again.\n");
        continue;
      }
      // Each digit is a step; they are played until one is illegal or the turn ends.
      for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (is_space(c)) continue;
        const int d = c - '0';
        if (d < 0 || d > 7 || !at.is_legal(d)) {
          fmt::print(out_, "'{}' is not a free step here; the rest of the line is ignored.\n",
                     printable(std::string_view(&c, 1)));
          break;
        }
        at.step(d);
        turn.push_back(static_cast<std::uint8_t>(d));
        if (at.over() || at.side_to_move() != start.side_to_move()) {
          if (!trim(std::string_view(line).substr(i + 1)).empty())
            fmt::print(out_, "The turn ended after step {}; the rest of the line is ignored.\n",
                       turn.size());
          break;
        }
      }
    }
    return turn_text(turn);
  }

 private:
  std::istream& in_;
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<Player> make_player(const PlayerSpec& spec) {
  SearchLimits limits;
  switch (spec.kind) {
    case PlayerKind::Random:
      return std::make_unique<RandomTurns>(spec.seed);
    case PlayerKind::Greedy:
      limits.max_depth = 1;
      return std::make_unique<SearchTurns>("greedy", limits);
    case PlayerKind::Engine:
      break;
  }
  limits = engine_limits(spec);
  if (limits.max_depth || limits.max_nodes) {
    std::string name = spec.level > 0   ? fmt::format("engine(level {})", spec.level)
                       : spec.depth > 0 ? fmt::format("engine(depth {})", spec.depth)
                                        : fmt::format("engine(nodes {})", spec.nodes);
    return std::make_unique<SearchTurns>(std::move(name), limits, spec.threads,
                                         engine_level(spec.level).random_percent, spec.seed);
  }
  MctsSettings settings;
  settings.time = limits.time;  // neither depth nor nodes: the move time
  if (spec.cpu_time_limit) {
    // The referee counts user CPU from the bot's start and from each answer, and stops a bot
    // only after twice the time on the wall.
    settings.cpu_time = std::chrono::milliseconds(engine_cpu_budget_ms(spec.move_time_ms));
    settings.cpu_time_from_process_start = true;
    settings.time = std::chrono::milliseconds(engine_cpu_wall_cap_ms(spec.move_time_ms));
  }
  settings.threads = std::max(spec.threads, 1);
  settings.value_net = ValueNet::builtin();
  settings.policy_net = PolicyNet::builtin();
  // Against jdermont it made the short tactical losses rarer (docs/strength.md); self-play for
  // training keeps the search as it was.
  settings.forced_penalty = 0.5;
  // A crowded position the search keeps coming back to gets its longer list: jdermont's turns
  // that decided its wins were often ones the first 128 leave out (docs/strength.md).
  settings.widen_visits = 200;
  settings.widened_turns = 1024;
  settings.process_tree_bytes = trees_within(process_memory_limit());
  return std::make_unique<MctsTurns>("engine", settings);
}

std::unique_ptr<Player> make_human(std::istream& in, std::ostream& out) {
  return std::make_unique<HumanTurns>(in, out);
}

}  // namespace arena::soccer
