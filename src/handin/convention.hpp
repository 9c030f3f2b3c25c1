#pragma once
// How a hand-in builds and runs: its arena.json when it has one, else the course's convention
// for the game (docs/handin.md):
//   soccer   a Makefile with `build` (and `clean`) that makes ./bot or Bot.class (Bucharest 2013);
//            run `./bot A|B SEED` or `java Bot A|B SEED`
//   morris   a runnable jar or a program, given White|Black (Bologna 2016/17)
//   fission, murus  a runnable jar or a program, given the server's host and port (Calabria)
//   any      Java sources (javac, then the one class with a main), or a Python main.py
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace arena::handin {

enum class RecipeKind { Manifest, Makefile, Jar, Program, JavaSources, Python };

std::string_view recipe_kind_name(RecipeKind k);  // "manifest", "makefile", "jar", ...

// One way to start the agent: its command template (command_template.hpp), usable once the
// file `needs` (relative to the root; "" = nothing) exists after the build.
struct RunChoice {
  std::string needs;
  std::string command;
};

struct Recipe {
  RecipeKind kind = RecipeKind::Manifest;
  std::string how;  // "Makefile with 'build' (Paper Soccer convention)"
  // The build's program and arguments, run in the root inside the sandbox; a shell line is
  // {"/bin/sh", "-c", LINE}. None: nothing to build.
  std::optional<std::vector<std::string>> build;
  std::vector<RunChoice> run;      // in order of preference
  std::vector<std::string> notes;  // what the course asked for and is missing, other candidates
};

// The games hand-ins are checked for: "fission, murus, morris, soccer".
std::string handin_game_names();

// How the hand-in unpacked at `root` builds and runs for `game`; the error says what was looked
// for and what was found.
Parsed<Recipe> find_recipe(std::string_view game, const std::filesystem::path& root);

// After the build: the command of the first choice whose file exists, or why none can run
// ("the build made neither bot nor Bot.class").
Parsed<std::string> choose_run(const Recipe& recipe, const std::filesystem::path& root);

}  // namespace arena::handin
