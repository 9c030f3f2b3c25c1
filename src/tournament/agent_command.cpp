#include "tournament/agent_command.hpp"

#include <algorithm>

#include "tournament/served_match.hpp"

namespace arena::tournament {

handin::TemplateValues template_values(const MatchRequest& request, Side side, std::uint64_t seed) {
  handin::TemplateValues v;
  v.side = side;
  const auto [first, second] = handin::side_words(request.game->name);
  v.first_word = first;
  v.second_word = second;
  v.host = kAgentHost;
  v.move_ms = request.move_time_ms;
  v.seed = seed;
  return v;
}

std::optional<std::string> expand_agent_command(const std::string& command,
                                                const handin::TemplateValues& values) {
  // Only a command that reads as a template with at least one placeholder is one: a shell line
  // that happens to hold braces ("for i in {1..3}") stays a shell line.
  if (command.find('{') == std::string::npos) return std::nullopt;
  auto parsed = handin::parse_command_template(command);
  if (!parsed) return std::nullopt;
  const auto& words = parsed.value->words;
  const bool templated = std::any_of(words.begin(), words.end(), [](const auto& pieces) {
    return std::any_of(pieces.begin(), pieces.end(), [](const auto& p) { return !p.literal; });
  });
  if (!templated) return std::nullopt;
  return exec_command(handin::expand(*parsed.value, values));
}

}  // namespace arena::tournament
