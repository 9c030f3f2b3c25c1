#pragma once
// The course server's pages (web/course/ in the repository), built into the program.
#include <span>

#include "view/assets.hpp"

namespace arena::course {

std::span<const view::Asset> course_assets();

}  // namespace arena::course
