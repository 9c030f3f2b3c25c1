#include "referee/local_match.hpp"

#include <chrono>
#include <stdexcept>

namespace arena {

GameRecord play_local_match(const GameInfo& game, std::array<Player*, 2> players,
                            const LocalMatchOptions& options) {
  GameRecord record;
  record.game = std::string(game.name);
  record.settings = {
      {"move_time_ms", options.move_time_ms},
      {"moves_per_player", options.rules.moves_per_player.value_or(game.default_moves_per_player)},
      {"limit_rule", limit_rule_key(options.rules.limit_rule)},
      {"referee", "arena local match"},
  };
  record.white = {players[0]->name(), "local"};
  record.black = {players[1]->name(), "local"};
  record.started_at = utc_now_iso8601();
  auto state = game.start(options.rules);
  if (!options.live_record.empty()) write_live_record(options.live_record, record);
  while (!state->result().over()) {
    const Side side = state->side_to_move();
    const auto t0 = std::chrono::steady_clock::now();
    const std::string move = players[index(side)]->choose(*state);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    const auto played = state->play(move);
    if (!played) {
      record.outcome = win_for(opposite(side));
      record.reason = "illegal-move";
      record.detail = std::string(side_name(side)) + " played '" + move + "': " + played.error;
      record.ended_at = utc_now_iso8601();
      return record;
    }
    MoveRecord m{state->ply(), side, *played.value, ms};
    // The built-in engine's view of its move (evaluation and depth) goes into the record.
    if (const auto search = players[index(side)]->last_search()) {
      m.eval = search->eval;
      m.depth = search->depth;
    }
    record.moves.push_back(std::move(m));
    if (options.on_move) options.on_move(*state, record.moves.back());
    if (!options.live_record.empty() && !state->result().over())
      write_live_record(options.live_record, record);
  }
  const Result r = state->result();
  record.outcome = r.outcome;
  record.reason = std::string(r.reason);
  record.detail = std::string(r.detail);
  record.ended_at = utc_now_iso8601();
  return record;
}

}  // namespace arena
