#pragma once
// At an event's start: every participant's program must be able to start in its sandbox, or the
// event is refused with the participant, the path and the fix, before any game is played (a
// program that cannot start would only lose all its games).
#include <filesystem>

#include "tournament/event.hpp"

namespace arena::tournament {

// Throws std::runtime_error naming the first participant that cannot start.
void check_agents_can_start(const EventSettings& settings, const std::filesystem::path& event_dir,
                            const std::filesystem::path& arena_binary);

}  // namespace arena::tournament
