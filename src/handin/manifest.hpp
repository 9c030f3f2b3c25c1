#pragma once
// arena.json at the top of a hand-in: how it builds and runs when no course convention says so.
//
//   {"build": "make -C src", "run": "java -jar a.jar {side:-w|-b} -t {move_seconds}"}
//
// "run" (required) is a command template (command_template.hpp); "build" (optional) a shell line
// run by /bin/sh -c in the hand-in's folder, inside the sandbox. Nothing else is accepted, so a
// misspelt key is an error and not a silent default.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"
#include "handin/command_template.hpp"

namespace arena::handin {

inline constexpr std::string_view kManifestName = "arena.json";
inline constexpr std::size_t kMaxManifestBytes = 64 * 1024;
inline constexpr std::size_t kMaxBuildBytes = 4096;

struct Manifest {
  std::optional<std::string> build;
  std::string run;
  CommandTemplate run_template;
};

// Errors name the place in the JSON: "arena.json: /run: must be a string".
Parsed<Manifest> parse_manifest(std::string_view json_text);
Parsed<Manifest> read_manifest(const std::filesystem::path& file);

}  // namespace arena::handin
