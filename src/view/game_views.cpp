#include "view/game_views.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "games/registry.hpp"

namespace arena::view {
namespace {

// The rules a record was played under, from its settings (ignored when absent or out of range).
RuleOptions rules_of(const GameRecord& r) {
  RuleOptions rules;
  const auto& s = r.settings;
  if (!s.is_object()) return rules;
  if (const auto it = s.find("moves_per_player"); it != s.end() && it->is_number_integer()) {
    const auto n = it->get<long long>();
    if (n >= 1 && n <= 100000) rules.moves_per_player = static_cast<int>(n);
  }
  if (const auto it = s.find("limit_rule"); it != s.end() && it->is_string())
    if (it->get<std::string>() == limit_rule_key(LimitRule::MoreStones))
      rules.limit_rule = LimitRule::MoreStones;
  return rules;
}

}  // namespace

nlohmann::json describe(const AnyState& s) {
  const GameInfo* g = find_game(s.game());
  if (g && g->view) return g->view(s);
  return {{"kind", "text"}, {"text", s.render()}, {"toMove", side_key(s.side_to_move())}};
}

GameViews replay_views(const GameRecord& record) {
  GameViews out;
  const GameInfo* g = find_game(record.game);
  if (!g) {
    out.error = fmt::format("unknown game '{}' (known: {})", printable(record.game), game_names());
    return out;
  }
  auto state = g->start(rules_of(record));
  out.positions.push_back(describe(*state));
  for (const MoveRecord& m : record.moves) {
    const auto played = state->play(m.move);
    if (!played) {
      out.error = fmt::format("ply {}: '{}' cannot be replayed: {}", m.ply, printable(m.move),
                              played.error);
      break;
    }
    out.positions.push_back(describe(*state));
  }
  return out;
}

nlohmann::json record_with_views(const GameRecord& record) {
  nlohmann::json j = to_json(record);
  GameViews v = replay_views(record);
  j["views"] = std::move(v.positions);
  if (!v.error.empty()) j["replay_error"] = v.error;
  return j;
}

}  // namespace arena::view
