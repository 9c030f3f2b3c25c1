#include "handin/manifest.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/text.hpp"

namespace arena::handin {
namespace {

using Result = Parsed<Manifest>;

Result fail(std::string_view where, std::string_view why) {
  return Result::fail(fmt::format("{}: {}: {}", kManifestName, where, why));
}

// A string member's value, or the reason it is not one.
Parsed<std::string> string_member(const nlohmann::json& j, std::string_view key,
                                  std::size_t max_bytes) {
  const std::string where = fmt::format("/{}", key);
  if (!j.is_string())
    return Parsed<std::string>::fail(fmt::format("{}: {}: must be a string", kManifestName, where));
  const auto& s = j.get_ref<const std::string&>();
  if (trim(s).empty())
    return Parsed<std::string>::fail(fmt::format("{}: {}: is empty", kManifestName, where));
  if (s.size() > max_bytes)
    return Parsed<std::string>::fail(
        fmt::format("{}: {}: is longer than {} bytes", kManifestName, where, max_bytes));
  if (s.find('\0') != std::string::npos)
    return Parsed<std::string>::fail(
        fmt::format("{}: {}: holds a NUL character", kManifestName, where));
  return Parsed<std::string>::ok(s);
}

}  // namespace

Result parse_manifest(std::string_view text) {
  if (text.size() > kMaxManifestBytes)
    return Result::fail(
        fmt::format("{}: is larger than {} bytes", kManifestName, kMaxManifestBytes));
  // A key given twice would otherwise be taken silently from its last place.
  std::string twice;
  std::set<std::string> seen;
  const nlohmann::json::parser_callback_t on_key = [&](int depth, nlohmann::json::parse_event_t e,
                                                       nlohmann::json& parsed) {
    if (e == nlohmann::json::parse_event_t::key && depth == 1 && parsed.is_string() &&
        !seen.insert(parsed.get<std::string>()).second && twice.empty())
      twice = parsed.get<std::string>();
    return true;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end(), on_key);
  } catch (const nlohmann::json::parse_error& e) {
    return Result::fail(fmt::format("{}: not valid JSON at byte {}", kManifestName, e.byte));
  }
  if (!j.is_object())
    return fail("/", "must be an object such as {\"run\": \"./bot {side} {seed}\"}");
  if (!twice.empty()) return fail(fmt::format("/{}", printable(twice, 40)), "is given twice");
  for (const auto& [key, value] : j.items())
    if (key != "build" && key != "run")
      return fail(fmt::format("/{}", printable(key, 40)), "unknown key (known: build, run)");
  Manifest m;
  if (!j.contains("run")) return fail("/", "has no \"run\": the command that starts the agent");
  auto run = string_member(j.at("run"), "run", kMaxTemplateBytes);
  if (!run) return Result::fail(run.error);
  auto parsed = parse_command_template(*run.value);
  if (!parsed) return fail("/run", parsed.error);
  m.run = std::move(*run.value);
  m.run_template = std::move(*parsed.value);
  if (j.contains("build")) {
    auto build = string_member(j.at("build"), "build", kMaxBuildBytes);
    if (!build) return Result::fail(build.error);
    m.build = std::move(*build.value);
  }
  return Result::ok(std::move(m));
}

Result read_manifest(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Result::fail(fmt::format("{}: cannot be read", kManifestName));
  std::string text(kMaxManifestBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_manifest(text);
}

}  // namespace arena::handin
