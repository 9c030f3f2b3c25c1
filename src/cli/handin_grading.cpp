#include "cli/handin_grading.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "handin/command_template.hpp"
#include "tournament/agent_command.hpp"
#include "tournament/served_match.hpp"

namespace arena::cli {
namespace {

using tournament::AgentKind;
using tournament::Participant;

std::string seat_word(const GameInfo& game, Side side) {
  if (game.name == "soccer") return side == Side::White ? "player 1" : "player 2";
  return std::string(side_name(side));
}

// The course's reference bot: "soccer-ref silent LEVEL 42", its seed given here rather than
// derived from the game's, since the course gave both bots 42.
Participant reference_bot(const SmokeOptions& o, int difficulty) {
  Participant p;
  p.name = fmt::format("reference-{}", difficulty);
  p.kind = AgentKind::Command;
  p.command =
      tournament::exec_command({o.arena_binary.string(), "soccer-ref", "silent",
                                std::to_string(difficulty), std::to_string(kBucharestSeed)});
  p.spec = fmt::format("soccer-ref {}", difficulty);
  return p;
}

// The hand-in's command with its placeholders filled in for `side` and seed 42 (a command
// without placeholders is run as it is).
std::string seeded_command(const GameInfo& game, const SmokeOptions& o, Side side) {
  handin::TemplateValues v;
  v.side = side;
  const auto [first, second] = handin::side_words(game.name);
  v.first_word = first;
  v.second_word = second;
  v.move_ms = o.move_time_ms > 0 ? o.move_time_ms : game.default_move_time_ms;
  v.seed = kBucharestSeed;
  return tournament::expand_agent_command(o.command, v).value_or(o.command);
}

Participant engine_at(int level) {
  auto parsed = tournament::parse_participant(fmt::format("engine level={}", level));
  if (!parsed) throw std::logic_error(parsed.error);
  Participant p = *parsed.value;
  p.name = fmt::format("engine-level{}", level);
  return p;
}

// A fault of the hand-in's own, or a game cut off, is a loss here (the check has passed).
void count_faults_as_losses(SmokeGame& g) {
  if (g.fault) g.result = "lost";
}

bool parse_int(std::string_view s, int& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Parsed<std::vector<int>> parse_levels(std::string_view text) {
  using P = Parsed<std::vector<int>>;
  if (text == "none") return P::ok({});
  std::vector<int> levels;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t dash = item.find('-');
    int from = 0, to = 0;
    const bool ok = dash == std::string_view::npos ? parse_int(item, from) && parse_int(item, to)
                                                   : parse_int(item.substr(0, dash), from) &&
                                                         parse_int(item.substr(dash + 1), to);
    if (!ok || from < 1 || to > kMaxEngineLevel || from > to)
      return P::fail(fmt::format("'{}' is not a level or a range of levels within 1-{}",
                                 std::string(item.substr(0, 40)), kMaxEngineLevel));
    for (int l = from; l <= to; ++l) levels.push_back(l);
  }
  if (levels.empty()) return P::fail("no levels given (e.g. 1-5, 1,3 or none)");
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  return P::ok(std::move(levels));
}

std::string GradedGame::line() const {
  std::string s = fmt::format("{}, {}", opponent, game.summary());
  if (bucharest) s += fmt::format(", {}", points > 0 ? fmt::format("+{}", points) : "0 points");
  return s;
}

std::string Grade::summary() const {
  std::string s = bucharest ? fmt::format("points {}/{}", points, kBucharestMaxPoints) : "";
  if (!levels.empty()) {
    if (!s.empty()) s += "; ";
    s += highest_level > 0 ? fmt::format("beats or draws up to level {}", highest_level)
                           : "beats or draws no level";
  }
  return s;
}

std::string Grade::table() const {
  std::string t;
  if (bucharest) {
    t += fmt::format("{:<11} {:<14} {:<14} {}\n", "difficulty", "as " + first_seat,
                     "as " + second_seat, "points");
    for (int d = 0; d <= 2; ++d) {
      std::string cells[2];
      int sum = 0;
      for (const GradedGame& g : games)
        if (g.bucharest && g.level == d) {
          cells[index(g.game.side)] =
              g.points > 0 ? fmt::format("{} +{}", g.game.result, g.points) : g.game.result;
          sum += g.points;
        }
      t += fmt::format("{:<11} {:<14} {:<14} {}\n", d, cells[0], cells[1], sum);
    }
    t += fmt::format("{:<11} {:<14} {:<14} {}/{}\n", "total", "", "", points, kBucharestMaxPoints);
  }
  if (!levels.empty()) {
    t += fmt::format("{:<11} {:<14} {}\n", "level", "as " + first_seat, "as " + second_seat);
    for (const LevelRow& r : levels)
      t += fmt::format("{:<11} {:<14} {}\n", r.level, r.white, r.black);
    t += highest_level > 0
             ? fmt::format("highest level won or drawn in both colours: {}\n", highest_level)
             : "no level won or drawn in both colours\n";
  }
  return t;
}

nlohmann::json Grade::to_json() const {
  nlohmann::json j = {{"scheme", bucharest ? "bucharest" : "levels"}, {"summary", summary()}};
  if (bucharest) {
    j["points"] = points;
    j["max_points"] = kBucharestMaxPoints;
  }
  j["games"] = nlohmann::json::array();
  for (const GradedGame& g : games) {
    nlohmann::json o = {
        {"opponent", g.opponent},  {"level", g.level},          {"side", side_key(g.game.side)},
        {"result", g.game.result}, {"reason", g.game.reason},   {"detail", g.game.detail},
        {"plies", g.game.plies},   {"seconds", g.game.seconds}, {"record", g.game.record.string()}};
    if (g.bucharest) o["points"] = g.points;
    j["games"].push_back(std::move(o));
  }
  j["levels"] = nlohmann::json::array();
  for (const LevelRow& r : levels)
    j["levels"].push_back({{"level", r.level}, {"white", r.white}, {"black", r.black}});
  j["highest_level"] = highest_level;
  return j;
}

Grade grade_handin(const GameInfo& game, const SmokeOptions& o, const GradePlan& plan,
                   const std::function<void(const GradedGame&)>& on_game) {
  Grade grade;
  grade.bucharest = plan.bucharest;
  grade.first_seat = seat_word(game, Side::White);
  grade.second_seat = seat_word(game, Side::Black);
  const auto play = [&](GradedGame g, const Participant& opponent, const SmokeOptions& options,
                        Side side, std::uint64_t seed, const std::string& name) {
    HandinGameSpec spec;
    spec.opponent = opponent;
    spec.side = side;
    spec.seed = seed;
    spec.name = name;
    g.game = play_handin_game(game, options, spec);
    count_faults_as_losses(g.game);
    if (g.bucharest && g.game.result == "won") g.points = g.worth;
    grade.points += g.points;
    on_game(g);
    grade.games.push_back(std::move(g));
    return grade.games.back().game.result;
  };

  if (plan.bucharest)
    for (int d = 0; d <= 2; ++d)
      for (Side side : {Side::White, Side::Black}) {
        GradedGame g;
        g.opponent = fmt::format("reference difficulty {}", d);
        g.level = d;
        g.bucharest = true;
        g.worth = 10 + 5 * d;
        SmokeOptions seeded = o;
        seeded.command = seeded_command(game, o, side);
        play(std::move(g), reference_bot(o, d), seeded, side, kBucharestSeed,
             fmt::format("difficulty{}-handin-as-player{}", d, side == Side::White ? 1 : 2));
      }

  for (int level : plan.levels) {
    LevelRow row;
    row.level = level;
    const Participant engine = engine_at(level);
    for (Side side : {Side::White, Side::Black}) {
      GradedGame g;
      g.opponent = fmt::format("engine level={}", level);
      g.level = level;
      // Seeds differ by level and colour so that no two games repeat each other's random moves.
      const std::string result = play(std::move(g), engine, o, side,
                                      100 + 2 * static_cast<std::uint64_t>(level) + index(side),
                                      fmt::format("level{}-handin-as-{}", level, side_key(side)));
      (side == Side::White ? row.white : row.black) = result;
    }
    if (row.beaten_or_drawn()) grade.highest_level = level;
    grade.levels.push_back(std::move(row));
  }
  return grade;
}

}  // namespace arena::cli
