#pragma once
// The Morris engine book's file (data/engine/morris-book.txt), built into the program by a CMake
// step (cmake/embed_assets.cmake).
#include <span>

#include "core/embedded_file.hpp"

namespace arena::morris {

std::span<const EmbeddedFile> builtin_engine_book_files();

}  // namespace arena::morris
