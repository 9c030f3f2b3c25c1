#pragma once
// What `arena web` answers, without sockets: the embedded page and the JSON API over one folder
// (docs/viewer.md). The socket side is web_server.hpp.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <variant>

#include "view/folder_index.hpp"

namespace arena::view {

// A request as the HTTP server hands it over: path and query already percent-decoded.
struct HttpRequest {
  std::string method;  // GET or HEAD
  std::string path;    // starts with '/'
  std::map<std::string, std::string> query;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;  // from status 400 on: the reason, which the server sends as {"error": reason}
};

class WebApp {
 public:
  // Throws std::runtime_error when `root` is not a readable folder.
  explicit WebApp(const std::filesystem::path& root);

  // One request in, one response out (HEAD gets the GET answer; the server drops its body).
  // Never throws.
  HttpResponse handle(const HttpRequest& request);

  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;  // canonical
  FolderIndex index_;

  HttpResponse route(const HttpRequest& request);
  HttpResponse asset(std::string_view name);
  HttpResponse list(const HttpRequest& request);
  HttpResponse record(const HttpRequest& request);
  HttpResponse tournament(const HttpRequest& request);
  HttpResponse participant(const HttpRequest& request);
  // The file or folder the "path" query parameter names, or the error response to give.
  std::variant<std::filesystem::path, HttpResponse> target(const HttpRequest& request,
                                                           bool want_directory);
};

std::string_view content_type_for(std::string_view file_name);

}  // namespace arena::view
