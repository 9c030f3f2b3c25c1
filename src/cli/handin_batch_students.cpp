// Which entries of a cohort's folder are hand-ins, and the student name each gives. Names come
// from untrusted file names: reduced to [A-Za-z0-9._-], and two files giving one name are both
// refused rather than one overwriting the other.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "cli/handin_batch.hpp"
#include "core/text.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxNameBytes = 40;  // a tournament participant's name

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The file name without its hand-in extension, or "" when it has none.
std::string stem_of_archive(const std::string& file) {
  const std::string l = lower(file);
  for (std::string_view ext : {".tar.gz", ".tar.xz", ".tgz", ".tar", ".zip", ".jar"})
    if (l.size() > ext.size() && l.ends_with(ext)) return file.substr(0, file.size() - ext.size());
  return {};
}

std::string student_name(std::string_view stem) {
  std::string name;
  for (char c : stem.substr(0, kMaxNameBytes)) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    name += ok ? c : '_';
  }
  return name;
}

}  // namespace

Listing list_handins(const fs::path& dir, const fs::path& out) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot read {}: {}", dir.string(), ec.message()));
  Listing listing;
  std::map<std::string, std::vector<HandIn>> by_name;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path path = it->path();
    const std::string file = path.filename().string();
    const std::string shown = printable(file, 120);
    if (file.starts_with(".")) {
      listing.skipped.emplace_back(shown, "hidden");
      continue;
    }
    std::error_code same_ec;
    if (fs::equivalent(path, out, same_ec)) continue;  // OUT inside DIR: the batch's own folder
    std::string stem;
    if (fs::is_directory(path, ec)) {
      stem = file;
    } else if (fs::is_regular_file(path, ec)) {
      stem = stem_of_archive(file);
      if (stem.empty()) {
        listing.skipped.emplace_back(
            shown, "not a hand-in (.zip, .tar, .tar.gz, .tgz, .tar.xz, .jar or a folder)");
        continue;
      }
    } else {
      listing.skipped.emplace_back(shown, "neither a file nor a folder");
      continue;
    }
    const bool folder = stem == file;
    by_name[student_name(stem)].push_back(
        HandIn{student_name(stem), folder ? shown + "/" : shown, path, {}});
  }
  if (ec) throw std::runtime_error(fmt::format("cannot read {}: {}", dir.string(), ec.message()));
  for (auto& [name, handins] : by_name) {
    if (handins.size() == 1) {
      listing.handins.push_back(std::move(handins.front()));
      continue;
    }
    // One row for the name, naming every file that gives it.
    std::sort(handins.begin(), handins.end(),
              [](const HandIn& a, const HandIn& b) { return a.file < b.file; });
    std::string files;
    for (const auto& h : handins) files += (files.empty() ? "" : ", ") + h.file;
    listing.handins.push_back(
        HandIn{name,
               files,
               {},
               fmt::format("{} hand-ins give the student name '{}' ({}): none is checked until all "
                           "but one are renamed",
                           handins.size(), name, files)});
  }
  std::sort(listing.skipped.begin(), listing.skipped.end());
  return listing;
}

}  // namespace arena::cli
