#pragma once
// The options of an "engine" agent as people write them in agent specs (arena match, tournament
// participants): "engine time=MS depth=N nodes=N threads=N level=N table=MB".
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace arena {

struct EngineWords {
  int time_ms = 0;          // time=: answer within this (0: not given)
  int depth = 0;            // depth=: fixed search depth (0: not given)
  std::uint64_t nodes = 0;  // nodes=: fixed node count (0: not given)
  int threads = 1;          // threads=: search threads
  int level = 0;            // level=: 1..kEngineLevels (0: full strength)
  int table_mb = 0;         // table=: transposition table in MB (0: not given)
};

// Reads the options after "engine", at most one of the limits time=, depth= and (only where
// `with_nodes`, arena match's agents) nodes=; table= also only there. Gives the error for
// people, or "" when every word was read.
std::string read_engine_words(std::span<const std::string_view> words, bool with_nodes,
                              EngineWords& out);

// Characters of an agent's name ("NAME: SPEC"): letters, digits and _ - . +
constexpr bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == '+';
}

// A spec's leading "NAME:" (a run of name characters ending in ':' before a space or the end):
// gives the name ("" if none) and leaves the rest, trimmed, in `spec`.
std::string take_leading_name(std::string_view& spec);

}  // namespace arena
