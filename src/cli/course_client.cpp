#include "cli/course_client.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <regex>
#include <stdexcept>

namespace arena::cli {

CourseClient::CourseClient(const std::string& url, std::string token) : token_(std::move(token)) {
  static const std::regex form(R"((https?://[^/\s]+)(/[^\s]*)?)");
  std::smatch m;
  if (!std::regex_match(url, m, form))
    throw std::runtime_error(
        fmt::format("'{}' is not a server address like http://course.example.org:8080", url));
  prefix_ = m[2].matched ? m[2].str() : "";
  while (prefix_.ends_with('/')) prefix_.pop_back();
  if (token_.empty())
    if (const char* env = std::getenv("ARENA_TOKEN")) token_ = env;
  if (token_.empty())
    throw std::runtime_error(
        "give your API token with --token or ARENA_TOKEN (staff print it with "
        "arena course token)");
  client_ = std::make_unique<httplib::Client>(m[1].str());
  client_->set_connection_timeout(10, 0);
  client_->set_read_timeout(60, 0);
  client_->set_write_timeout(60, 0);
  client_->set_bearer_token_auth(token_);
}

nlohmann::json CourseClient::answer(const httplib::Result& r, const std::string& what) {
  if (!r)
    throw std::runtime_error(
        fmt::format("{}: cannot reach the server ({})", what, httplib::to_string(r.error())));
  auto j = nlohmann::json::parse(r->body, nullptr, false);
  if (r->status >= 200 && r->status < 300) {
    if (j.is_discarded()) throw std::runtime_error(what + ": the server's answer is not JSON");
    return j;
  }
  const std::string why = !j.is_discarded() && j.is_object() && j.contains("error")
                              ? j["error"].get<std::string>()
                              : r->body.substr(0, 200);
  throw std::runtime_error(fmt::format("{}: {} ({})", what, why, r->status));
}

nlohmann::json CourseClient::get(const std::string& path) {
  return answer(client_->Get(prefix_ + path), "GET " + path);
}

std::string CourseClient::Answer::error() const {
  if (body.is_object() && body.contains("error") && body["error"].is_string())
    return body["error"].get<std::string>();
  return fmt::format("status {}", status);
}

CourseClient::Answer CourseClient::post(const std::string& path, const nlohmann::json& body) {
  const auto r = client_->Post(prefix_ + path, body.dump(), "application/json");
  if (!r)
    throw std::runtime_error(
        fmt::format("POST {}: cannot reach the server ({})", path, httplib::to_string(r.error())));
  Answer a;
  a.status = r->status;
  a.body = nlohmann::json::parse(r->body, nullptr, false);
  if (a.body.is_discarded()) a.body = nullptr;
  return a;
}

std::string CourseClient::get_bytes(const std::string& path, std::size_t max_bytes) {
  std::string bytes;
  bool too_large = false;
  const auto r = client_->Get(prefix_ + path, [&](const char* data, std::size_t length) {
    if (bytes.size() + length > max_bytes) {
      too_large = true;
      return false;
    }
    bytes.append(data, length);
    return true;
  });
  if (too_large) throw std::runtime_error(fmt::format("GET {}: larger than expected", path));
  if (!r)
    throw std::runtime_error(
        fmt::format("GET {}: cannot reach the server ({})", path, httplib::to_string(r.error())));
  if (r->status != 200) throw std::runtime_error(fmt::format("GET {}: status {}", path, r->status));
  return bytes;
}

nlohmann::json CourseClient::upload(const std::string& path, const std::string& file_name,
                                    const std::string& bytes) {
  httplib::MultipartFormDataItems items = {{"file", bytes, file_name, "application/octet-stream"}};
  return answer(client_->Post(prefix_ + path, items), "upload");
}

}  // namespace arena::cli
