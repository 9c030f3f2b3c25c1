#include "match/engine_protocol.hpp"

#include <fmt/format.h>

#include <charconv>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "match/book.hpp"

namespace arena::match {
namespace {

std::string_view kind_name(PlayerKind k) {
  return k == PlayerKind::Greedy ? "greedy" : k == PlayerKind::Random ? "random" : "engine";
}

bool parse_u64(std::string_view text, std::uint64_t lo, std::uint64_t hi, std::uint64_t& out) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < lo || v > hi) return false;
  out = v;
  return true;
}

std::pair<std::string_view, std::string_view> first_word(std::string_view s) {
  s = trim(s);
  const auto sp = s.find_first_of(" \t");
  if (sp == std::string_view::npos) return {s, {}};
  return {s.substr(0, sp), trim(s.substr(sp))};
}

bool same_spec(const PlayerSpec& a, const PlayerSpec& b) {
  return a.kind == b.kind && a.move_time_ms == b.move_time_ms && a.depth == b.depth &&
         a.nodes == b.nodes && a.seed == b.seed && a.threads == b.threads && a.level == b.level &&
         a.table_mb == b.table_mb;
}

}  // namespace

int run_engine_protocol(const GameInfo& game, const EngineProtocolOptions& options,
                        std::istream& in, std::ostream& out) {
  std::unique_ptr<AnyState> position;
  std::unique_ptr<Player> player;
  PlayerSpec player_spec;
  auto say = [&](std::string_view line) {
    out << line << '\n';
    out.flush();
  };
  std::string raw;
  while (std::getline(in, raw)) {
    const auto [command, rest] = first_word(raw);
    if (command.empty()) continue;
    if (command == "quit") return 0;
    if (command == "uci") {
      say(fmt::format("id name arena {} {}", game.name, kind_name(options.kind)));
      say("uciok");
    } else if (command == "isready") {
      say("readyok");
    } else if (command == "ucinewgame" || command == "newgame") {
      player.reset();
    } else if (command == "position") {
      position.reset();
      const auto [what, tail] = first_word(rest);
      if (what != "startpos") {
        say("error position takes 'startpos [moves M1; M2; ...]'");
        continue;
      }
      Opening moves;
      if (!tail.empty()) {
        const auto [kw, list] = first_word(tail);
        if (kw != "moves") {
          say("error position takes 'startpos [moves M1; M2; ...]'");
          continue;
        }
        moves = split_moves(list);
      }
      auto pos = position_after(game, options.rules, moves);
      if (!pos) {
        say("error " + pos.error);
        continue;
      }
      position = std::move(*pos.value);
    } else if (command == "go") {
      PlayerSpec spec;
      spec.kind = options.kind;
      spec.seed = options.seed;
      spec.move_time_ms = options.move_time_ms;
      spec.depth = options.depth;
      spec.nodes = options.nodes;
      spec.threads = options.threads;
      spec.table_mb = options.table_mb;
      spec.level = options.level;
      const auto [kw, value] = first_word(rest);
      if (!kw.empty()) {
        std::uint64_t v = 0;
        spec.depth = 0;
        spec.nodes = 0;
        if (kw == "movetime" && parse_u64(value, 1, 3'600'000, v))
          spec.move_time_ms = static_cast<int>(v);
        else if (kw == "depth" && parse_u64(value, 1, 60, v))
          spec.depth = static_cast<int>(v);
        else if (kw == "nodes" && parse_u64(value, 1, 1'000'000'000'000, v))
          spec.nodes = v;
        else {
          say("error go takes 'movetime MS', 'nodes N' or 'depth N'");
          continue;
        }
      }
      if (!position) {
        say("error go needs a position");
        continue;
      }
      if (position->result().over()) {
        say("error the game is over");
        continue;
      }
      if (!player || !same_spec(spec, player_spec)) {
        player = game.make_player(spec);
        player_spec = spec;
      }
      std::string move;
      try {
        move = player->choose(*position);
      } catch (const std::exception& e) {
        say(fmt::format("error {}", e.what()));
        continue;
      }
      if (const auto s = player->last_search())
        say(fmt::format("info depth {} score {}", s->depth, s->eval));
      say("bestmove " + move);
    } else {
      say(fmt::format("error unknown command '{}'", printable(command)));
    }
  }
  return 0;
}

}  // namespace arena::match
