#pragma once
// The Paper Soccer networks' files (data/nets/soccer-value.net, soccer-policy.net), built into
// the program by a CMake step (cmake/embed_assets.cmake); those the build did not find are missing.
#include <span>

#include "core/embedded_file.hpp"

namespace arena::soccer {

std::span<const EmbeddedFile> builtin_net_files();

}  // namespace arena::soccer
