#pragma once
// Before a game: can an agent's command start in its sandbox? A program that is missing, hidden
// from it, or unreadable to the agents' user (nobody, when arena runs as root) would only make the
// agent lose at its first move; arena refuses such a command instead, naming the path and the fix.
#include <string>

#include "sandbox/sandbox.hpp"

namespace arena {

// Why `command` cannot start for an agent with `spec` under `plan` ("" when nothing is found
// wrong): its folder, the program its first word runs (found as the shell would, on the agent's
// PATH), and every file or folder it names, each with the folders on the way to it. Commands the
// shell decides at run time (builtins, expansions) are checked only for the paths they name.
std::string agent_start_problem(const SandboxPlan& plan, const AgentJailSpec& spec,
                                const std::string& command);

}  // namespace arena
