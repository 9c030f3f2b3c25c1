#include "course/json_views.hpp"

namespace arena::course {

nlohmann::json public_verdict(const std::string& verdict_text) {
  auto v = nlohmann::json::parse(verdict_text, nullptr, false);
  if (v.is_discarded() || !v.is_object()) return nullptr;
  for (const char* key : {"out", "root"}) v.erase(key);
  if (v.contains("games") && v["games"].is_array())
    for (auto& g : v["games"])
      if (g.is_object()) g.erase("record");
  return v;
}

nlohmann::json submission_json(const Submission& s, bool private_parts) {
  nlohmann::json j = {{"id", s.id},           {"login", s.login},    {"name", s.name},
                      {"state", s.state},     {"stage", s.stage},    {"reason", s.reason},
                      {"created", s.created}, {"checked", nullptr},  {"file_name", s.file_name},
                      {"size", s.size},       {"hash", s.file_hash}, {"excluded", s.excluded}};
  if (s.checked) j["checked"] = *s.checked;
  j["grade"] = s.grade ? nlohmann::json::parse(*s.grade, nullptr, false) : nullptr;
  if (j["grade"].is_discarded()) j["grade"] = nullptr;
  if (private_parts) {
    j["verdict"] = s.verdict ? public_verdict(*s.verdict) : nullptr;
    j["build_log"] = s.build_log;
  }
  return j;
}

nlohmann::json game_json(const GameRow& g) {
  return {{"id", g.id},
          {"kind", g.kind},
          {"white", g.white},
          {"black", g.black},
          {"white_submission", g.white_submission ? nlohmann::json(*g.white_submission) : nullptr},
          {"black_submission", g.black_submission ? nlohmann::json(*g.black_submission) : nullptr},
          {"result", g.result},
          {"reason", g.reason},
          {"plies", g.plies},
          {"rated", g.rated},
          {"created", g.created}};
}

}  // namespace arena::course
