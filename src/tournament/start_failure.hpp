#pragma once
// Why an agent failed at its start, in its own terms: the well-known messages a JVM, a shell or
// Python prints when a program cannot run (a jar without Main-Class, a class compiled for a newer
// Java, a missing command, a script that is not executable, a missing module), read from the end
// of the agent's output. A record's detail then names the cause, not just "exited with status 1".
#include <filesystem>
#include <string>
#include <string_view>

#include "core/side.hpp"
#include "referee/record.hpp"

namespace arena::tournament {

// The cause, e.g. "the jar has no Main-Class (java: no main manifest attribute)", from the
// agent's output and its exit description ("exited with status 127"); empty when none is known.
std::string start_failure(std::string_view output, std::string_view exit_description);

// The same from the agent's log file (its last 64 KB).
std::string start_failure_in_log(const std::filesystem::path& log,
                                 std::string_view exit_description);

// When `side` lost the game by a crash, disconnect or timeout before its first move and its log
// names a cause, adds it to the record's detail ("...; the jar has no Main-Class (...)").
void explain_start_failure(GameRecord& record, Side side, const std::filesystem::path& log,
                           std::string_view exit_description);

}  // namespace arena::tournament
