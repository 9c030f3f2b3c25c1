#pragma once
// A real course server for tests: `arena course init` with alice and bob (students) and prof
// (staff), their API tokens, and `arena course serve --port 0` as a child process, reached with
// cpp-httplib's client. Hand-ins are zips written in the test.
#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/process.hpp"
#include "support/soccer_bot_source.hpp"
#include "support/temp_dir.hpp"
#include "support/test_archive.hpp"

namespace arena::testing {

inline std::string run_arena(const std::vector<std::string>& args, int* exit_code = nullptr) {
  std::vector<std::string> argv = {ARENA_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  Process p(argv);
  const auto code = p.wait(std::chrono::seconds(60));
  if (exit_code) *exit_code = code.value_or(-1);
  std::string out = p.out();
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return exit_code ? out + p.err() : out;
}

// A zip of "student/" with a Paper Soccer bot and its Makefile (`build_extra` runs first in the
// build, e.g. "sleep 5").
inline std::string soccer_zip(const std::filesystem::path& dir,
                              const std::string& build_extra = "") {
  const auto path = dir / ("bot" + std::to_string(std::rand()) + ".zip");
  {
    TestArchive a(path, ArchiveFormat::Zip);
    a.folder("student/");
    a.file("student/bot.cpp", kSoccerBot);
    a.file("student/Makefile", "build:\n" + (build_extra.empty() ? "" : "\t" + build_extra + "\n") +
                                   "\tg++ -std=c++17 -o bot bot.cpp\nclean:\n\trm -f bot\n");
    a.close();
  }
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The server plays no ladder games itself unless `ladder_args` (its ladder options) are given.
// `more_students` adds s01, s02, ... to the roster (with tokens). `check_options` are the checks'
// (their smoke games' move time).
class CourseServer {
 public:
  explicit CourseServer(std::string extra_serve_args = "",
                        std::vector<std::string> ladder_args = {"--local-games=0"},
                        int more_students = 0, std::string check_options = "--move-time 1000")
      : extra_(std::move(extra_serve_args)),
        ladder_(std::move(ladder_args)),
        check_options_(std::move(check_options)) {
    dir_ = tmp_.path() / "course";
    std::vector<std::string> logins = {"alice", "bob", "prof"};
    {
      std::ofstream roster(tmp_.path() / "roster.csv");
      roster << "login,name,role,group\nalice,Alice A,student,1\nbob,Bob B,student,2\nprof,Prof "
                "P,staff,\n";
      for (int i = 1; i <= more_students; ++i) {
        std::string login = i < 10 ? "s0" : "s";
        login += std::to_string(i);
        roster << login << ",Student " << i << ",student,3\n";
        logins.push_back(login);
      }
    }
    int code = 0;
    const auto out = run_arena({"course", "init", dir_.string(), "--game", "soccer", "--roster",
                                (tmp_.path() / "roster.csv").string(), "--title", "Test course"},
                               &code);
    if (code != 0) throw std::runtime_error("course init failed: " + out);
    for (const std::string& login : logins)
      tokens_[login] = run_arena({"course", "token", dir_.string(), login});
    start();
  }
  ~CourseServer() { stop(); }

  void start() {
    std::vector<std::string> argv = {ARENA_BINARY,  "course",          "serve",
                                     dir_.string(), "--port",          "0",
                                     "--no-grade",  "--check-options", check_options_};
    if (!extra_.empty()) argv.push_back(extra_);
    argv.insert(argv.end(), ladder_.begin(), ladder_.end());
    server_ = std::make_unique<Process>(argv);
    for (;;) {
      const auto line = server_->read_stdout_line(std::chrono::seconds(30));
      if (!line) throw std::runtime_error("the course server did not start: " + server_->err());
      const auto at = line->find("http://127.0.0.1:");
      if (at == std::string::npos) continue;
      port_ = std::stoi(line->substr(at + 17));
      break;
    }
  }
  void stop(int signal = SIGTERM) {
    if (!server_) return;
    server_->kill(signal);
    server_->wait(std::chrono::seconds(30));
    server_.reset();
  }

  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(30, 0);
    return c;
  }
  httplib::Headers as(const std::string& login) const {
    if (login.empty()) return {};
    return {{"Authorization", "Bearer " + tokens_.at(login)}};
  }
  httplib::Result get(const std::string& login, const std::string& path) const {
    return client().Get(path.c_str(), as(login));
  }
  httplib::Result post_json(const std::string& login, const std::string& path,
                            const nlohmann::json& body) const {
    return client().Post(path.c_str(), as(login), body.dump(), "application/json");
  }
  httplib::Result upload(const std::string& login, const std::string& bytes,
                         const std::string& name = "bot.zip") const {
    httplib::MultipartFormDataItems items = {{"file", bytes, name, "application/zip"}};
    return client().Post("/api/submissions", as(login), items);
  }
  // Polls a hand-in until it is accepted or rejected; its last answer.
  nlohmann::json wait_verdict(const std::string& login, std::int64_t id,
                              std::chrono::seconds limit = std::chrono::seconds(120)) const {
    const auto until = std::chrono::steady_clock::now() + limit;
    nlohmann::json s;
    while (std::chrono::steady_clock::now() < until) {
      const auto r = get(login, "/api/submissions/" + std::to_string(id));
      if (r && r->status == 200) {
        s = nlohmann::json::parse(r->body);
        if (s["state"] == "accepted" || s["state"] == "rejected") return s;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return s;
  }

  const std::string& token(const std::string& login) const { return tokens_.at(login); }
  const std::filesystem::path& dir() const { return dir_; }
  const std::filesystem::path& tmp() const { return tmp_.path(); }
  int port() const { return port_; }
  Process* process() { return server_.get(); }

 private:
  TempDir tmp_;
  std::filesystem::path dir_;
  std::string extra_;
  std::vector<std::string> ladder_;
  std::string check_options_;
  std::map<std::string, std::string> tokens_;
  std::unique_ptr<Process> server_;
  int port_ = 0;
};

}  // namespace arena::testing
