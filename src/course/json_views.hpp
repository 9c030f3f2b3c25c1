#pragma once
// How hand-ins and games look in the API: what everyone may see, and what only their owner and
// staff may (the verdict, the build log, the grade).
#include <nlohmann/json.hpp>

#include "course/store.hpp"

namespace arena::course {

nlohmann::json submission_json(const Submission& s, bool private_parts);
nlohmann::json game_json(const GameRow& g);
// A verdict.json without the server's own paths.
nlohmann::json public_verdict(const std::string& verdict_text);

}  // namespace arena::course
