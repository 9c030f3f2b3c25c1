#include "tournament/start_failure.hpp"

#include <fmt/format.h>

#include "core/file_tail.hpp"
#include "core/text.hpp"

namespace arena::tournament {
namespace {

// Only the log's end is read: a start failure is the last thing an agent prints.
constexpr std::size_t kTailBytes = 64 * 1024;

// The rest of the line after `at`, without the line break.
std::string_view line_from(std::string_view text, std::size_t at) {
  const std::size_t end = text.find_first_of("\r\n", at);
  return text.substr(at, end == std::string_view::npos ? text.size() - at : end - at);
}

// The whole line that holds position `at`.
std::string_view line_around(std::string_view text, std::size_t at) {
  const std::size_t begin = text.rfind('\n', at);
  return line_from(text, begin == std::string_view::npos ? 0 : begin + 1);
}

bool status_is(std::string_view exit_description, int status) {
  return exit_description == fmt::format("exited with status {}", status);
}

}  // namespace

std::string start_failure(std::string_view out, std::string_view exit_description) {
  const auto has = [&](std::string_view s) { return out.find(s) != std::string_view::npos; };
  if (has("no main manifest attribute"))
    return "the jar has no Main-Class (java: no main manifest attribute)";
  if (const auto at = out.find("Could not find or load main class "); at != out.npos) {
    const auto name =
        line_from(out, at + std::string_view("Could not find or load main class ").size());
    return fmt::format(
        "java could not find or load the main class {} (is it on the class path, with its "
        "package?)",
        printable(name));
  }
  if (has("UnsupportedClassVersionError"))
    return "its classes were compiled for a newer Java than this machine's "
           "(UnsupportedClassVersionError: compile with javac --release for the course's Java)";
  if (has("Unable to access jarfile"))
    return fmt::format("java cannot open the jar ({})",
                       printable(line_around(out, out.find("Unable to access jarfile"))));
  if (has("Exec format error") || has("exec format error"))
    return "the program is not an executable for this machine (exec format error: built for "
           "another system, or a script without a #! line)";
  if (const auto at = out.find("ModuleNotFoundError"); at != out.npos)
    return fmt::format("python: a module is missing ({})", printable(line_around(out, at)));
  if (const auto at = out.find("SyntaxError"); at != out.npos)
    return fmt::format("python: its code does not parse ({})", printable(line_around(out, at)));
  if (status_is(exit_description, 127) || has(": not found") || has("command not found")) {
    const auto at = out.find("not found");
    return at == out.npos
               ? std::string("the command was not found (status 127)")
               : fmt::format("the command was not found ({})", printable(line_around(out, at)));
  }
  if (status_is(exit_description, 126) || has("Permission denied"))
    return "the program may not be run (permission denied: is it executable, and built by the "
           "build?)";
  if (has("Connection refused"))
    return "its connection was refused: nothing listens where it connected (is it connecting to "
           "the host and port it was given?)";
  return {};
}

std::string start_failure_in_log(const std::filesystem::path& log,
                                 std::string_view exit_description) {
  return start_failure(read_tail(log, kTailBytes), exit_description);
}

void explain_start_failure(GameRecord& record, Side side, const std::filesystem::path& log,
                           std::string_view exit_description) {
  if (record.outcome != win_for(opposite(side))) return;
  if (record.reason != "crash" && record.reason != "disconnect" && record.reason != "timeout")
    return;
  for (const MoveRecord& m : record.moves)
    if (m.side == side) return;  // it started: whatever failed later is not its start
  if (const std::string cause = start_failure_in_log(log, exit_description); !cause.empty())
    record.detail += "; " + cause;
}

}  // namespace arena::tournament
