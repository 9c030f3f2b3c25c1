#include "tournament/single_game.hpp"

#include <stdexcept>

namespace arena::tournament {

GameRecord play_single_game(const GameInfo& game, const SingleGame& single,
                            const SandboxPlan& plan) {
  const EventSettings& s = single.settings;
  if (s.participants.size() != 2) throw std::runtime_error("a single game takes two participants");
  check_participants_for(game, s);
  MatchRequest req;
  req.game = &game;
  req.settings = &s;
  req.white = &s.participants[0];
  req.black = &s.participants[1];
  req.seed = single.seed;
  req.move_time_ms = s.move_time_ms > 0 ? s.move_time_ms : game.default_move_time_ms;
  req.arena_binary = single.arena_binary;
  req.stem = single.stem;
  req.sandbox = &plan;
  req.cores = single.cores;
  req.event_dir = single.stem.parent_path();  // hidden from the agents
  req.max_plies = single.max_plies;
  req.deadline = std::chrono::steady_clock::now() + game_time_cap(game, s);
  return match_runner_for(game)->play(req);
}

}  // namespace arena::tournament
