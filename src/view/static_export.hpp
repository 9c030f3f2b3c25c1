#pragma once
// `arena tournament report DIR --html OUT`: the web viewer's page with the answers `arena web`
// would give about the tournament in DIR, written out as a folder that opens from file:// (no
// server, nothing fetched) and can be published as it is. See docs/viewer.md.
#include <filesystem>
#include <string>

namespace arena::view {

struct StaticExport {
  int games = 0;         // game records written (each playable on the page)
  int participants = 0;  // participant pages
};

// Throws std::runtime_error with a clear reason when `event_dir` is not a tournament folder,
// when `out_dir` lies inside it, or when `out_dir` holds anything but an earlier export (which is
// replaced).
StaticExport export_static_site(const std::filesystem::path& event_dir,
                                const std::filesystem::path& out_dir);

}  // namespace arena::view
