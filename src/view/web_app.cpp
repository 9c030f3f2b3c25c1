#include "view/web_app.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/text.hpp"
#include "games/registry.hpp"
#include "referee/record.hpp"
#include "view/assets.hpp"
#include "view/game_views.hpp"
#include "view/participant_moves.hpp"
#include "view/safe_path.hpp"
#include "view/time_limit.hpp"

namespace arena::view {
namespace fs = std::filesystem;

namespace {

HttpResponse error_response(int status, std::string_view reason) {
  return {status, "text/plain; charset=utf-8", printable(reason, 300)};
}

HttpResponse json_response(std::string body) {
  return {200, "application/json", std::move(body)};
}

fs::path canonical_folder(const fs::path& root) {
  std::error_code ec;
  fs::path canonical = fs::canonical(root, ec);
  if (ec || !fs::is_directory(canonical, ec))
    throw std::runtime_error(fmt::format("{} is not a folder", root.string()));
  return canonical;
}

}  // namespace

std::string_view content_type_for(std::string_view name) {
  const auto ends = [&](std::string_view ext) { return name.ends_with(ext); };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".json")) return "application/json";
  if (ends(".png")) return "image/png";
  if (ends(".ico")) return "image/x-icon";
  return "application/octet-stream";
}

WebApp::WebApp(const fs::path& root) : root_(canonical_folder(root)), index_(root_) {}

HttpResponse WebApp::handle(const HttpRequest& request) {
  if (request.method != "GET" && request.method != "HEAD")
    return error_response(405, "only GET and HEAD");
  try {
    return route(request);
  } catch (const std::exception& e) {
    return error_response(500, e.what());
  }
}

HttpResponse WebApp::route(const HttpRequest& request) {
  const std::string& p = request.path;
  if (p == "/" || p == "/index.html") return asset("index.html");
  if (p == "/api/list") return list(request);
  if (p == "/api/record") return record(request);
  if (p == "/api/tournament") return tournament(request);
  if (p == "/api/participant") return participant(request);
  if (p == "/api/games") {
    nlohmann::json games = nlohmann::json::array();
    for (const GameInfo& g : all_games())
      games.push_back({{"name", g.name}, {"title", g.title}, {"view", g.view != nullptr}});
    return json_response(games.dump());
  }
  if (p.starts_with("/api/")) return error_response(404, "no such API: " + p);
  return asset(std::string_view(p).substr(1));
}

HttpResponse WebApp::asset(std::string_view name) {
  for (const Asset& a : web_assets()) {
    if (a.name != name) continue;
    HttpResponse r;
    r.content_type = std::string(content_type_for(a.name));
    r.body = std::string(a.body);
    return r;
  }
  return error_response(404, fmt::format("no such page: /{}", name));
}

std::variant<fs::path, HttpResponse> WebApp::target(const HttpRequest& request,
                                                    bool want_directory) {
  const auto it = request.query.find("path");
  const std::string relative = it == request.query.end() ? std::string{} : it->second;
  if (!want_directory && relative.empty()) return error_response(400, "missing ?path=");
  if (!is_clean_relative_path(relative))
    return error_response(400, "path must be relative to the served folder, without '..'");
  const auto resolved = resolve_under(root_, relative);
  if (!resolved) return error_response(404, "not found: " + relative);
  std::error_code ec;
  if (want_directory ? !fs::is_directory(*resolved, ec) : !fs::is_regular_file(*resolved, ec))
    return error_response(
        404, fmt::format("not a {}: {}", want_directory ? "folder" : "file", relative));
  return *resolved;
}

HttpResponse WebApp::list(const HttpRequest& request) {
  auto t = target(request, true);
  if (auto* err = std::get_if<HttpResponse>(&t)) return *err;
  nlohmann::json j = index_.list(std::get<fs::path>(t));
  j["root"] = root_.filename().string();
  return json_response(j.dump());
}

HttpResponse WebApp::record(const HttpRequest& request) {
  auto t = target(request, false);
  if (auto* err = std::get_if<HttpResponse>(&t)) return *err;
  const fs::path& file = std::get<fs::path>(t);
  const std::string version = file_version(file);
  // A viewer polling a game sends the version it has: unchanged files cost one stat().
  if (const auto known = request.query.find("known");
      known != request.query.end() && known->second == version)
    return json_response(nlohmann::json{{"unchanged", true}, {"version", version}}.dump());
  GameRecord r;
  try {
    const auto j = nlohmann::json::parse(read_bounded(file, kMaxRecordBytes), nullptr, false);
    if (j.is_discarded()) return error_response(422, "the file is not valid JSON");
    r = record_from_json(j);
  } catch (const std::exception& e) {
    return error_response(422, e.what());
  }
  nlohmann::json out = record_with_views(r);
  out["path"] = index_.relative_name(file);
  out["version"] = version;
  out["live"] = r.outcome == Outcome::Ongoing && r.reason == kInProgressReason;
  out["limit"] = move_time_limit(r.settings);
  return json_response(out.dump());
}

HttpResponse WebApp::tournament(const HttpRequest& request) {
  auto t = target(request, true);
  if (auto* err = std::get_if<HttpResponse>(&t)) return *err;
  const fs::path& dir = std::get<fs::path>(t);
  // Ordered: the files are served with their keys in the order they were written.
  auto out = nlohmann::ordered_json::parse(index_.list(dir).dump());
  out["path"] = index_.relative_name(dir);
  // results.json as `arena tournament` rewrites it after every game; standings.json as another
  // tool wrote it. Either may be missing (before the first game ends) or half-written.
  for (const char* name : {"results.json", "standings.json"}) {
    const fs::path file = dir / name;
    const std::string key = fs::path(name).stem().string();
    out[key] = nullptr;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) continue;
    try {
      auto j = nlohmann::ordered_json::parse(read_bounded(file, kMaxRecordBytes), nullptr, false);
      if (j.is_discarded())
        out["standings_error"] = std::string(name) + " is not valid JSON (being rewritten?)";
      else
        out[key] = std::move(j);
    } catch (const std::exception& e) {
      out["standings_error"] = std::string(name) + ": " + e.what();
    }
  }
  return json_response(out.dump());
}

HttpResponse WebApp::participant(const HttpRequest& request) {
  auto t = target(request, true);
  if (auto* err = std::get_if<HttpResponse>(&t)) return *err;
  const auto name = request.query.find("name");
  if (name == request.query.end() || name->second.empty())
    return error_response(400, "missing &name=");
  if (name->second.size() > kMaxParticipantName) return error_response(400, "the name is too long");
  nlohmann::json out = participant_moves(index_, std::get<fs::path>(t), name->second);
  out["path"] = index_.relative_name(std::get<fs::path>(t));
  return json_response(out.dump());
}

}  // namespace arena::view
