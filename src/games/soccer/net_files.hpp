#pragma once
// The Paper Soccer networks' files (data/nets/soccer-value.net, soccer-policy.net), built into
// the program by a CMake step (cmake/embed_assets.cmake); those the build did not find are missing.
#include <optional>
#include <span>
#include <string_view>

#include "core/embedded_file.hpp"

namespace arena::soccer {

std::span<const EmbeddedFile> builtin_net_files();
// The body of the built-in file of that name, if there is one.
std::optional<std::string_view> builtin_net_file(std::string_view name);

}  // namespace arena::soccer
