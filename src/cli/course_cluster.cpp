// Placeholder: `arena course slurm` is being written.
#include "cli/commands.hpp"

namespace arena::cli {
void add_course_cluster(CLI::App&, int&) {}
}  // namespace arena::cli
