#pragma once
// The web viewer's page (web/ in the repository), built into the program by a CMake step
// (cmake/embed_assets.cmake), so `arena web` works offline and needs no files beside it.
#include <span>

#include "core/embedded_file.hpp"

namespace arena::view {

using Asset = EmbeddedFile;  // a file under web/: "index.html"

std::span<const Asset> web_assets();

}  // namespace arena::view
