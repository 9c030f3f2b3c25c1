#include "match/match.hpp"

#include <fmt/format.h>

#include <cmath>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/rng.hpp"
#include "core/text.hpp"
#include "search/agent_words.hpp"

namespace arena::match {
namespace {

std::string_view fault_reason(Fault f) {
  switch (f) {
    case Fault::IllegalMove:
      return "illegal-move";
    case Fault::Timeout:
      return "timeout";
    case Fault::Crash:
      return "crash";
  }
  return "?";
}

// Each game's players get their own seed: the match seed, the pair, the game and the seat.
std::uint64_t agent_seed(std::uint64_t seed, int pair, int game, int agent) {
  std::uint64_t s = seed ^ (static_cast<std::uint64_t>(pair) << 20) ^
                    (static_cast<std::uint64_t>(game) << 2) ^ static_cast<std::uint64_t>(agent);
  return splitmix64(s);
}

std::string signed_number(double x, int decimals) {
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  if (std::isnan(x)) return "nan";
  return fmt::format("{:+.{}f}", x + 0.0, decimals);  // no "-0.0"
}

// What a record says of the match's settings: the limit of a move for an agent without its own
// (a player's spec, its address in the record, gives its own).
nlohmann::json record_settings(const MatchSettings& settings) {
  return {{"referee", "arena match"}, {"limit", limit_text(settings.context.limit)}};
}

// Game g of a pair from openings[opening], between agents made here.
GameResult play_pair_game(const MatchSettings& settings, int opening, int pair, int g) {
  const Side a_side = g == 0 ? Side::White : Side::Black;
  std::array<std::unique_ptr<MatchAgent>, 2> agents;
  for (int k = 0; k < 2; ++k) {
    AgentContext c = settings.context;
    c.seed = agent_seed(settings.context.seed, pair, g, k);
    agents[static_cast<std::size_t>(k)] =
        make_agent(settings.agents[static_cast<std::size_t>(k)], c);
  }
  MatchAgent& a = *agents[0];
  MatchAgent& b = *agents[1];
  const Opening& moves = settings.openings[static_cast<std::size_t>(opening)];
  GameRecord record;
  GameRecord* keep = settings.records.empty() ? nullptr : &record;
  GameResult r = a_side == Side::White ? play_game(settings, moves, a, b, a_side, keep)
                                       : play_game(settings, moves, b, a, a_side, keep);
  if (keep) {
    record.settings["match"] = {{"pair", pair + 1},
                                {"game", g + 1},
                                {"opening", opening + 1},
                                {"opening_plies", moves.size()}};
    const std::string stem = record_stem(pair, g, record.white.name, record.black.name);
    write_record(settings.records / (stem + ".json"), record);
  }
  return r;
}

}  // namespace

std::string record_stem(int pair, int game, const std::string& white, const std::string& black) {
  auto file_word = [](const std::string& name) {
    std::string out;
    for (char c : name) out += is_name_char(c) ? c : '_';
    return out;
  };
  return fmt::format("{:04}-{}-vs-{}", 2 * pair + game + 1, file_word(white), file_word(black));
}

std::vector<int> opening_order(std::size_t count, std::uint64_t seed, bool shuffle) {
  std::vector<int> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = static_cast<int>(i);
  if (shuffle) {
    Rng rng(seed);
    for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  }
  return order;
}

GameResult play_game(const MatchSettings& settings, const Opening& opening, MatchAgent& white,
                     MatchAgent& black, Side a_side, GameRecord* record) {
  const GameInfo& game = *settings.context.game;
  GameResult r;
  std::vector<Side> opening_sides;
  auto pos = position_after(game, settings.context.rules, opening, &opening_sides);
  if (!pos) throw std::runtime_error("an opening is not legal: " + pos.error);
  std::unique_ptr<AnyState> state = std::move(*pos.value);
  Opening moves = opening;
  if (record) {
    record->game = game.name;
    record->settings = record_settings(settings);
    const AgentSpec& a = settings.agents[0];
    const AgentSpec& b = settings.agents[1];
    const AgentSpec& w = a_side == Side::White ? a : b;
    const AgentSpec& bl = a_side == Side::White ? b : a;
    record->white = {w.name, w.spec};
    record->black = {bl.name, bl.spec};
    record->started_at = utc_now_iso8601();
    // The opening's moves, each with the side the rules say played it.
    for (std::size_t i = 0; i < opening.size(); ++i) {
      MoveRecord mr;
      mr.ply = static_cast<int>(record->moves.size()) + 1;
      mr.side = opening_sides[i];
      mr.move = opening[i];
      record->moves.push_back(mr);
    }
  }
  std::array<MatchAgent*, 2> seat{&white, &black};
  auto lose = [&](Side side, Fault f, std::string detail) {
    r.outcome = win_for(opposite(side));
    r.reason = std::string(fault_reason(f));
    r.detail = fmt::format("{}: {}", side_name(side), detail);
    r.fault = f;
    r.fault_by = side == a_side ? 0 : 1;
  };
  while (!state->result().over() && r.fault == std::nullopt) {
    if (r.plies >= settings.max_plies) {
      r.outcome = Outcome::Draw;
      r.reason = "ply-limit";
      r.detail = fmt::format("still going after {} plies", settings.max_plies);
      break;
    }
    const Side side = state->side_to_move();
    const MoveAnswer a = seat[index(side)]->choose(*state, moves);
    if (a.status == MoveStatus::Timeout) {
      lose(side, Fault::Timeout, a.detail);
      break;
    }
    if (a.status == MoveStatus::Crash) {
      lose(side, Fault::Crash, a.detail);
      break;
    }
    const auto played = state->play(a.move);
    if (!played) {
      lose(side, Fault::IllegalMove, fmt::format("'{}': {}", printable(a.move), played.error));
      break;
    }
    moves.push_back(*played.value);
    ++r.plies;
    if (record) {
      MoveRecord mr;
      mr.ply = static_cast<int>(record->moves.size()) + 1;
      mr.side = side;
      mr.move = *played.value;
      mr.time_ms = a.elapsed.count();
      mr.eval = a.eval;
      mr.depth = a.depth;
      record->moves.push_back(mr);
    }
  }
  white.finish();
  black.finish();
  if (r.outcome == Outcome::Ongoing) {
    const Result end = state->result();
    r.outcome = end.outcome;
    r.reason = std::string(end.reason);
    r.detail = std::string(end.detail);
  }
  r.a_points = r.outcome == Outcome::Draw ? 0.5 : r.outcome == win_for(a_side) ? 1.0 : 0.0;
  if (record) {
    record->outcome = r.outcome;
    record->reason = r.reason;
    record->detail = r.detail;
    record->ended_at = utc_now_iso8601();
  }
  return r;
}

MatchOutcome run_match(const MatchSettings& settings, const MatchCallbacks& callbacks) {
  if (settings.openings.empty()) throw std::runtime_error("no openings to play");
  if (settings.pairs < 1) throw std::runtime_error("at least one pair of games");
  // Check the openings and the agents once, before any thread starts.
  for (const auto& o : settings.openings) {
    auto pos = position_after(*settings.context.game, settings.context.rules, o);
    if (!pos) throw std::runtime_error("an opening is not legal: " + pos.error);
  }
  if (!settings.player)
    for (const auto& spec : settings.agents) (void)make_agent(spec, settings.context);

  const std::vector<int> order =
      opening_order(settings.openings.size(), settings.context.seed, settings.shuffle);
  MatchOutcome out;
  std::mutex mu;
  int next_pair = 0;
  bool stop = false;
  std::exception_ptr failure;

  auto worker = [&](int slot) {
    while (true) {
      int pair;
      {
        std::lock_guard lock(mu);
        if (stop || next_pair >= settings.pairs) return;
        pair = next_pair++;
      }
      const int opening = order[static_cast<std::size_t>(pair) % order.size()];
      std::array<GameResult, 2> games;
      try {
        for (int g = 0; g < 2; ++g) {
          if (settings.player) {
            const GameSlot game{pair, g, opening, slot,
                                agent_seed(settings.context.seed, pair, g, 0)};
            games[static_cast<std::size_t>(g)] = settings.player(game);
          } else {
            games[static_cast<std::size_t>(g)] = play_pair_game(settings, opening, pair, g);
          }
          auto& r = games[static_cast<std::size_t>(g)];
          r.pair = pair;
          r.game = g;
          r.opening = opening;
          std::lock_guard lock(mu);
          if (callbacks.on_game && !stop) callbacks.on_game(r);
        }
      } catch (...) {
        std::lock_guard lock(mu);
        if (!failure) failure = std::current_exception();
        stop = true;
        return;
      }
      std::lock_guard lock(mu);
      if (stop) {
        ++out.discarded_pairs;
        continue;
      }
      MatchProgress& p = out.progress;
      p.counts.add_pair(games[0].a_points, games[1].a_points);
      for (const auto& r : games) {
        if (r.fault_by && r.fault) {
          FaultCounts& f = p.faults[static_cast<std::size_t>(*r.fault_by)];
          if (*r.fault == Fault::IllegalMove) ++f.illegal;
          if (*r.fault == Fault::Timeout) ++f.timeout;
          if (*r.fault == Fault::Crash) ++f.crash;
        }
        out.games.push_back(r);
      }
      ++p.pairs_done;
      if (settings.sprt) {
        p.llr = llr_pentanomial(p.counts, *settings.sprt);
        p.decision = sprt_decision(*p.llr, *settings.sprt);
        if (p.decision != SprtDecision::Continue) stop = true;
      }
      if (callbacks.on_progress) callbacks.on_progress(p);
    }
  };

  const int n = std::max(1, std::min(settings.concurrency, settings.pairs));
  std::vector<std::thread> threads;
  for (int i = 1; i < n; ++i) threads.emplace_back(worker, i);
  worker(0);
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

std::string progress_line(const MatchSettings& settings, const MatchProgress& p) {
  const Counts& c = p.counts;
  const EloEstimate e = c.pairs() > 0 ? estimate_pentanomial(c) : estimate_trinomial(c);
  std::string line = fmt::format(
      "Pairs {}/{} games {}: {} vs {}: W {} D {} L {}  score {:.1f}%  Elo {} ± {}  nElo {} ± {}  "
      "Ptnml(0-2) [{}, {}, {}, {}, {}]",
      p.pairs_done, settings.pairs, c.games(), settings.agents[0].name, settings.agents[1].name,
      c.wins, c.draws, c.losses, 100.0 * c.score(), signed_number(e.elo, 1),
      e.valid ? fmt::format("{:.1f}", e.error) : std::string("n/a"), signed_number(e.nelo, 1),
      e.valid ? fmt::format("{:.1f}", e.nelo_error) : std::string("n/a"), c.penta[0], c.penta[1],
      c.penta[2], c.penta[3], c.penta[4]);
  if (settings.sprt && p.llr)
    line += fmt::format("  LLR {:.2f} ({:.2f}, {:.2f}) [{:.2f}, {:.2f}]", *p.llr,
                        settings.sprt->lower_bound(), settings.sprt->upper_bound(),
                        settings.sprt->elo0, settings.sprt->elo1);
  for (int k = 0; k < 2; ++k) {
    const FaultCounts& f = p.faults[static_cast<std::size_t>(k)];
    if (f.total() > 0)
      line += fmt::format("  {} lost by illegal move {}, timeout {}, crash {}",
                          settings.agents[static_cast<std::size_t>(k)].name, f.illegal, f.timeout,
                          f.crash);
  }
  return line;
}

}  // namespace arena::match
