#pragma once
// A Command participant's command line with arena's seat, server and limits put where the agent
// expects them. A command with placeholders ({side}, {host}, {port}, ... as in
// handin/command_template.hpp) is expanded and run as those words, and the runner adds nothing;
// any other command is left to the runner, which appends the game's own arguments as before.
#include <optional>
#include <string>

#include "handin/command_template.hpp"
#include "tournament/match_runner.hpp"

namespace arena::tournament {

// The values of one agent's placeholders in this game (side, move time; ports are the caller's).
handin::TemplateValues template_values(const MatchRequest& request, Side side, std::uint64_t seed);

// The /bin/sh command for a templated command (each word quoted), or nullopt when the command
// has no placeholder (or is not a template at all: plain shell, braces and all).
std::optional<std::string> expand_agent_command(const std::string& command,
                                                const handin::TemplateValues& values);

}  // namespace arena::tournament
