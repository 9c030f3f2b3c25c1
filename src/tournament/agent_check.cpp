#include "tournament/agent_check.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "games/registry.hpp"
#include "sandbox/agent_start_check.hpp"
#include "sandbox/child_process.hpp"
#include "tournament/match_runner.hpp"

namespace arena::tournament {

void check_agents_can_start(const EventSettings& settings, const std::filesystem::path& event_dir,
                            const std::filesystem::path& arena_binary) {
  const GameInfo* game = find_game(settings.game);
  if (!game || settings.participants.empty()) return;
  const SandboxPlan plan = plan_sandbox(settings.sandbox, agent_channel(*game));
  for (const Participant& p : settings.participants) {
    // The participant as White of a game; its jail is the same in every game but for its cores.
    MatchRequest req;
    req.game = game;
    req.settings = &settings;
    req.white = &p;
    req.black = &p;
    req.arena_binary = arena_binary;
    req.sandbox = &plan;
    req.event_dir = event_dir;
    const AgentJailSpec spec = agent_jail_spec(req, Side::White);
    // The built-in agents are arena itself.
    const std::string command =
        p.kind == AgentKind::Command ? p.command : shell_quote(arena_binary.string());
    if (p.kind != AgentKind::Command && arena_binary.empty()) continue;
    if (const std::string why = agent_start_problem(plan, spec, command); !why.empty())
      throw std::runtime_error(
          fmt::format("participant '{}' cannot start: {} (its command: {})", p.name, why, command));
  }
}

}  // namespace arena::tournament
