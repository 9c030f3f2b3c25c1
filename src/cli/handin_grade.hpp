#pragma once
// `arena handin grade GAME PATH`: `arena handin check`, then the course's grading games
// (handin_grading.hpp). See docs/handin.md.
#include <CLI/CLI.hpp>

namespace arena::cli {

// Adds `grade` to the `handin` command.
void add_handin_grade(CLI::App& handin, int& exit_code);

}  // namespace arena::cli
