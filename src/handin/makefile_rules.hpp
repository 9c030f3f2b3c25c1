#pragma once
// The rules a Makefile defines, read as make would for plain rules ("build clean: deps"), without
// running make: enough to check a course's required rules.
#include <set>
#include <string>
#include <string_view>

namespace arena::handin {

// The targets of the Makefile's rules: not special targets (.PHONY), not variable assignments.
std::set<std::string> makefile_targets(std::string_view makefile);

}  // namespace arena::handin
