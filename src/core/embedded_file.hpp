#pragma once
// A file built into the program by a CMake step (cmake/embed_assets.cmake): web pages, the
// Paper Soccer network. The program then needs no files beside it.
#include <string_view>

namespace arena {

struct EmbeddedFile {
  std::string_view name;  // the file's name, without its folder: "index.html"
  std::string_view body;
};

}  // namespace arena
