#pragma once
// The web viewer's page (web/ in the repository), built into the program by a CMake step
// (cmake/embed_assets.cmake), so `arena web` works offline and needs no files beside it.
#include <span>
#include <string_view>

namespace arena::view {

struct Asset {
  std::string_view name;  // file name under web/: "index.html"
  std::string_view body;
};

std::span<const Asset> web_assets();

}  // namespace arena::view
