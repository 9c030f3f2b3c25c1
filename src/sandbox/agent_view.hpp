#pragma once
// What an agent sees of the file system in its sandbox: the system read-only, its own folder,
// what it may read (arena's folder), and what its command names (the program's folder, a script
// or jar given as an argument, a relative ../other/bot), with the hidden places (the event
// folder, other participants' folders) covered wherever one of these would show them.
// AgentJail turns the view into bubblewrap's arguments; the pre-game check asks it whether a path
// shows. See docs/sandbox.md.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace arena {

// The host's folders every agent sees read-only (those that exist).
inline constexpr std::array<const char*, 10> kSystemDirs = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/sys"};
// The agent's private writable folders: memory file systems of its own.
inline constexpr const char* kScratchDir = "/home/agent";
inline constexpr std::array<const char*, 3> kPrivateDirs = {"/tmp", "/var/tmp", kScratchDir};
// The agent's PATH.
inline constexpr const char* kAgentPath =
    "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";

// A read-only bind: the host's `source` (symlinks resolved) shown at `target`.
struct ViewMount {
  std::filesystem::path source;
  std::filesystem::path target;
};

struct AgentView {
  std::vector<ViewMount> mounts;              // parents before children
  std::vector<std::filesystem::path> covers;  // empty folders laid over hidden places
  std::vector<std::filesystem::path> hidden;  // the hidden places, symlinks resolved
};

// The view of an agent with `spec` that runs `command` (through /bin/sh, in spec.own_dir).
AgentView agent_view(const AgentJailSpec& spec, const std::string& command);

// The files and folders `command` names: each word (or its value after '=', or a part between
// ':') that exists, relative ones taken from `cwd`; absolute and lexically normal, as written.
std::vector<std::filesystem::path> named_paths(const std::string& command,
                                               const std::filesystem::path& cwd);

// Where the agent finds `path` (symlinks resolved): the host folder through which it shows (a
// mount's source, or a system folder); nullopt when it is hidden or not shown at all.
std::optional<std::filesystem::path> shown_through(const AgentView& view,
                                                   const std::filesystem::path& path);
bool is_hidden(const AgentView& view, const std::filesystem::path& path);

// `inner` is `outer` or lies inside it (both absolute and normal).
bool path_within(const std::filesystem::path& inner, const std::filesystem::path& outer);
// The absolute path with symlinks resolved as far as it exists.
std::filesystem::path resolved_path(const std::filesystem::path& p);

}  // namespace arena
