#include "view/static_export.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "referee/record.hpp"
#include "view/assets.hpp"
#include "view/folder_index.hpp"
#include "view/safe_path.hpp"
#include "view/web_app.hpp"

namespace arena::view {
namespace fs = std::filesystem;

namespace {

// The first line of an export's data.js: how an earlier export is recognised (and replaced).
constexpr std::string_view kMarker = "// arena tournament report";
// The event's own files a reader may want beside the page (the records are added to them).
constexpr const char* kEventFiles[] = {"results.json", "standings.md", "standings.csv",
                                       "crosstable.csv", "games.csv"};

// JSON as JavaScript (keys in the order the API gives them): ASCII only (so no encoding or U+2028
// trouble), bad UTF-8 replaced.
std::string js(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace);
}

// The key the page looks an answer up by (web/source.js): what, path and name, one a line.
std::string answer_key(std::string_view what, std::string_view path, std::string_view name = {}) {
  return fmt::format("{}\n{}\n{}", what, path, name);
}

void write_text(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// What `arena web` answers to GET /api/WHAT with that query; nullopt when it refuses.
std::optional<nlohmann::ordered_json> ask(WebApp& app, const std::string& what,
                                          std::map<std::string, std::string> query) {
  const HttpResponse r = app.handle(HttpRequest{"GET", "/api/" + what, std::move(query)});
  if (r.status != 200) return std::nullopt;
  return nlohmann::ordered_json::parse(r.body);
}

fs::path checked_event_dir(const fs::path& dir) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(canonical, ec))
    throw std::runtime_error(fmt::format("{} is not a folder", dir.string()));
  if (!is_tournament_folder(canonical))
    throw std::runtime_error(fmt::format(
        "{} is not a tournament folder (it has no results.json, standings.json or journal)",
        dir.string()));
  return canonical;
}

// Makes `out` ready: created, or empty, or an earlier export whose data is removed.
fs::path prepared_out_dir(const fs::path& event, const fs::path& out) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::absolute(out), ec);
  if (ec) throw std::runtime_error(fmt::format("cannot use {}: {}", out.string(), ec.message()));
  if (is_within(event, target))
    throw std::runtime_error(fmt::format(
        "{} is inside the tournament folder; write the report somewhere else", out.string()));
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec))
      throw std::runtime_error(fmt::format("{} exists and is not a folder", out.string()));
    if (!fs::is_empty(target, ec)) {
      std::ifstream data(target / "data.js");
      std::string first;
      std::getline(data, first);
      if (!first.starts_with(kMarker))
        throw std::runtime_error(
            fmt::format("{} is not empty and holds no earlier report; give a new or empty folder",
                        out.string()));
      fs::remove_all(target / "data");
      fs::remove_all(target / "files");
    }
  }
  fs::create_directories(target);
  return target;
}

}  // namespace

StaticExport export_static_site(const fs::path& event_dir, const fs::path& out_dir) {
  const fs::path event = checked_event_dir(event_dir);
  const fs::path out = prepared_out_dir(event, out_dir);
  WebApp app(event);
  StaticExport done;

  // Small answers go into data.js itself; each game and participant gets a script of its own,
  // loaded when the page opens it.
  nlohmann::ordered_json answers = nlohmann::ordered_json::object(),
                         scripts = nlohmann::ordered_json::object();
  const auto list = ask(app, "list", {});
  const auto tournament = ask(app, "tournament", {{"path", ""}});
  if (!list || !tournament) throw std::runtime_error("cannot read " + event.string());
  answers[answer_key("list", "")] = *list;
  answers[answer_key("tournament", "")] = *tournament;

  const auto add_script = [&](const std::string& key, const std::string& file,
                              const nlohmann::ordered_json& answer) {
    write_text(out / file, fmt::format("ARENA_EXPORT.answers[{}] = {};\n", js(key), js(answer)));
    scripts[key] = file;
  };
  for (const auto& game : list->at("games")) {
    const std::string path = game["path"];
    const auto record = ask(app, "record", {{"path", path}});
    if (!record || !is_clean_relative_path(path)) continue;  // rewritten meanwhile: left out
    add_script(answer_key("record", path), fmt::format("data/game-{}.js", ++done.games), *record);
    fs::create_directories((out / "files" / path).parent_path());
    fs::copy_file(event / path, out / "files" / path, fs::copy_options::overwrite_existing);
  }
  std::set<std::string> names;
  if (const auto results = tournament->value("results", nlohmann::ordered_json());
      results.is_object())
    for (const auto& row : results.value("standings", nlohmann::ordered_json::array()))
      if (row.is_object() && row.contains("name") && row["name"].is_string())
        names.insert(row["name"].get<std::string>());
  for (const std::string& name : names) {
    const auto moves = ask(app, "participant", {{"path", ""}, {"name", name}});
    if (!moves) continue;
    add_script(answer_key("participant", "", name),
               fmt::format("data/participant-{}.js", ++done.participants), *moves);
  }
  for (const char* name : kEventFiles) {
    std::error_code ec;
    if (fs::is_regular_file(event / name, ec))
      fs::copy_file(event / name, out / "files" / name, fs::copy_options::overwrite_existing);
  }

  for (const Asset& a : web_assets())
    if (a.name != "data.js") write_text(out / std::string(a.name), std::string(a.body));
  const nlohmann::ordered_json data = {{"title", event.filename().string()},
                                       {"exported_at", utc_now_iso8601()},
                                       {"files", "files/"},
                                       {"answers", std::move(answers)},
                                       {"scripts", std::move(scripts)}};
  write_text(out / "data.js",
             fmt::format("{}: the tournament's data for the page (web/source.js).\n"
                         "window.ARENA_EXPORT = {};\n",
                         kMarker, js(data)));
  return done;
}

}  // namespace arena::view
