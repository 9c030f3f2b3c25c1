#pragma once
// The names inside a hand-in, checked before anything is made from them: relative, no "..",
// within the depth and length limits. A name is never used as one string but as its parts, each
// opened under the one before it.
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"
#include "handin/unpack.hpp"

namespace arena::handin {

struct EntryPath {
  std::vector<std::string> parts;  // "./alice//src/" -> {"alice", "src"}; empty: the top itself
  std::string text() const;        // "alice/src"
};

// The parts of an archive entry's name; an error is a reason for the refusal ("absolute path").
Parsed<EntryPath> clean_entry_path(std::string_view name, const UnpackLimits& limits);

// Whether a symbolic link at `link` pointing to `target` stays inside the top folder when read
// as written (relative, and its ".." never climb above the top); the reason when it does not.
// Links through other links are checked again once all exist (Extractor::finish).
std::string link_target_error(const EntryPath& link, std::string_view target);

}  // namespace arena::handin
