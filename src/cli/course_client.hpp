#pragma once
// The course server's API from the command line (`arena submit`, `arena course status`): the
// server's address, the caller's token, and one request at a time with clear errors.
#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace arena::cli {

class CourseClient {
 public:
  // URL: http(s)://host[:port][/prefix]; throws std::runtime_error for anything else. An empty
  // token is taken from ARENA_TOKEN.
  CourseClient(const std::string& url, std::string token);

  // The JSON answer of a GET; throws std::runtime_error with the server's reason otherwise.
  nlohmann::json get(const std::string& path);
  // Uploads a file as the multipart field "file"; gives the JSON answer.
  nlohmann::json upload(const std::string& path, const std::string& file_name,
                        const std::string& bytes);

  // A POST of a JSON body: the status and the JSON answer (null when there is none). Throws
  // std::runtime_error only when the server cannot be reached.
  struct Answer {
    int status = 0;
    nlohmann::json body;
    std::string error() const;  // the server's reason for an error status
  };
  Answer post(const std::string& path, const nlohmann::json& body);
  // The bytes of a GET (a hand-in's file); throws like get().
  std::string get_bytes(const std::string& path, std::size_t max_bytes);

 private:
  std::unique_ptr<httplib::Client> client_;
  std::string prefix_;
  std::string token_;

  nlohmann::json answer(const httplib::Result& r, const std::string& what);
};

}  // namespace arena::cli
