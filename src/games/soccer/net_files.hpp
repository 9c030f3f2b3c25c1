#pragma once
// The Paper Soccer network's file (data/nets/soccer-value.net), built into the program by a CMake
// step (cmake/embed_assets.cmake); empty when the build found no such file.
#include <span>

#include "core/embedded_file.hpp"

namespace arena::soccer {

std::span<const EmbeddedFile> builtin_net_files();

}  // namespace arena::soccer
