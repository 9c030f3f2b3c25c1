#include "sandbox/agent_view.hpp"

#include <algorithm>

#include "sandbox/shell_words.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;

bool within_system_dir(const fs::path& p) {
  for (const char* dir : kSystemDirs)
    if (path_within(p, dir)) return true;
  return false;
}

// Folders the agent must never get from the host: the root, its private folders and their
// parents (a bind there would replace its writable /tmp or scratch), /proc and /dev.
bool is_shared_folder(const fs::path& dir) {
  if (dir == dir.root_path()) return true;
  for (const char* p : kPrivateDirs)
    if (path_within(p, dir)) return true;
  return false;
}

bool is_device_path(const fs::path& p) {
  return path_within(p, "/proc") || path_within(p, "/dev");
}

class ViewBuilder {
 public:
  explicit ViewBuilder(const AgentJailSpec& spec) {
    for (const auto& h : spec.hidden) view_.hidden.push_back(resolved_path(h));
    const fs::path own = resolved_path(spec.own_dir.empty() ? fs::current_path() : spec.own_dir);
    view_.mounts.push_back({own, own});
    for (const auto& r : spec.readable) {
      const fs::path p = resolved_path(r);
      view_.mounts.push_back({p, p});
    }
  }

  // A named file shows with its folder (a program loads what lies beside it: Python modules, the
  // jars of a jar's class path, a bot's data); a named folder shows whole.
  void add_named(const fs::path& as_named) {
    std::error_code ec;
    const fs::path real = resolved_path(as_named);
    if (is_device_path(as_named) || is_device_path(real) || is_hidden(view_, real)) return;
    const bool folder = fs::is_directory(real, ec);
    // As written, so that its path works inside; then where its symlinks lead.
    add_folder_of(as_named, resolved_path(folder ? as_named : as_named.parent_path()), folder);
    add_folder_of(real, folder ? real : real.parent_path(), folder);
  }

  AgentView finish() {
    std::sort(view_.mounts.begin(), view_.mounts.end(),
              [](const ViewMount& a, const ViewMount& b) { return a.target < b.target; });
    // A folder inside one already shown, from the same place, needs no mount of its own.
    std::vector<ViewMount> kept;
    for (auto& m : view_.mounts) {
      bool inside = false;
      for (const auto& k : kept)
        inside =
            inside ||
            (path_within(m.target, k.target) &&
             m.source == (k.source / m.target.lexically_relative(k.target)).lexically_normal());
      if (!inside) kept.push_back(std::move(m));
    }
    view_.mounts = std::move(kept);
    for (const auto& h : view_.hidden) {
      std::error_code ec;
      if (!fs::exists(h, ec)) continue;
      if (within_system_dir(h)) view_.covers.push_back(h);
      for (const auto& m : view_.mounts)
        if (path_within(h, m.source))
          view_.covers.push_back((m.target / h.lexically_relative(m.source)).lexically_normal());
    }
    std::sort(view_.covers.begin(), view_.covers.end());
    view_.covers.erase(std::unique(view_.covers.begin(), view_.covers.end()), view_.covers.end());
    return std::move(view_);
  }

 private:
  AgentView view_;

  // Shows `folder_source` at the folder of `path` (or `path` alone where that folder is shared).
  void add_folder_of(const fs::path& path, const fs::path& folder_source, bool is_folder) {
    fs::path target = is_folder ? path : path.parent_path();
    fs::path source = folder_source;
    if (is_shared_folder(target)) {
      if (is_folder) return;
      target = path;
      source = resolved_path(path);
    }
    if (within_system_dir(target) || is_hidden(view_, source)) return;
    for (const auto& m : view_.mounts)
      if (path_within(target, m.target)) return;
    view_.mounts.push_back({source, target});
  }
};

}  // namespace

bool path_within(const fs::path& inner, const fs::path& outer) {
  const auto rel = inner.lexically_relative(outer);
  return !rel.empty() && *rel.begin() != "..";
}

fs::path resolved_path(const fs::path& p) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).lexically_normal() : out;
}

std::vector<fs::path> named_paths(const std::string& command, const fs::path& cwd) {
  std::vector<fs::path> out;
  for (const ShellWord& w : shell_words(command)) {
    for (const std::string& c : path_candidates(w)) {
      if (c == "-" || c == "--") continue;
      const fs::path p = (fs::path(c).is_absolute() ? fs::path(c) : cwd / c).lexically_normal();
      std::error_code ec;
      if (!fs::exists(p, ec)) continue;
      fs::path clean = p;
      if (clean.has_filename() == false && clean != clean.root_path()) clean = clean.parent_path();
      if (std::find(out.begin(), out.end(), clean) == out.end()) out.push_back(clean);
    }
  }
  return out;
}

AgentView agent_view(const AgentJailSpec& spec, const std::string& command) {
  ViewBuilder b(spec);
  const fs::path cwd = resolved_path(spec.own_dir.empty() ? fs::current_path() : spec.own_dir);
  for (const auto& p : named_paths(command, cwd)) b.add_named(p);
  return b.finish();
}

bool is_hidden(const AgentView& view, const fs::path& path) {
  for (const auto& h : view.hidden)
    if (path_within(path, h)) return true;
  return false;
}

std::optional<fs::path> shown_through(const AgentView& view, const fs::path& path) {
  const fs::path real = resolved_path(path);
  if (is_hidden(view, real)) return std::nullopt;
  for (const char* dir : kSystemDirs)
    if (path_within(real, dir)) return fs::path(dir);
  for (const auto& m : view.mounts)
    if (path_within(real, m.source)) return m.source;
  return std::nullopt;
}

}  // namespace arena
