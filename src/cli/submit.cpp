// `arena submit URL FILE` and `arena course status URL`: a student's hand-in and where they stand,
// from the command line, through the course server's API (docs/course-api.md).
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/course_client.hpp"

namespace arena::cli {
namespace {

constexpr std::size_t kMaxSubmitBytes = 1u << 30;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() > kMaxSubmitBytes) throw std::runtime_error(path + " is over 1 GB");
  return bytes;
}

bool finished(const nlohmann::json& s) {
  const std::string state = s.value("state", "");
  return state == "accepted" || state == "rejected";
}

void print_verdict(const nlohmann::json& s) {
  fmt::print("hand-in #{}: {}{}{}\n", s.value("id", 0), s.value("state", "?"),
             s.value("reason", "").empty() ? "" : ": ", s.value("reason", ""));
  if (s.contains("grade") && s["grade"].is_object() && s["grade"].contains("points"))
    fmt::print("grade: {}\n", s["grade"]["points"].dump());
  if (s.value("state", "") == "rejected" && !s.value("build_log", "").empty()) {
    std::string log = s.value("build_log", "");
    if (log.size() > 2000) log = "..." + log.substr(log.size() - 2000);
    fmt::print("build log (end):\n{}\n", log);
  }
}

}  // namespace

void add_submit(CLI::App& app, int& exit_code) {
  struct Options {
    std::string url, file, token;
    bool no_wait = false;
    int timeout_s = 1800;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "submit",
      "Hand in to a course server: upload, then wait for the verdict (exit 0 accepted, "
      "1 rejected or failed, 2 still being checked at --timeout)");
  cmd->add_option("url", o->url, "The course server: http://HOST:PORT")->required();
  cmd->add_option("file", o->file, "The hand-in: a zip, tar, tar.gz, tar.xz or jar")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--token", o->token, "Your API token (default: $ARENA_TOKEN)");
  cmd->add_flag("--no-wait", o->no_wait, "Print the hand-in's id and return at once");
  cmd->add_option("--timeout", o->timeout_s, "Seconds to wait for the verdict")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  cmd->callback([o, &exit_code] {
    try {
      CourseClient client(o->url, o->token);
      const std::string name = std::filesystem::path(o->file).filename().string();
      const auto created = client.upload("/api/submissions", name, read_file(o->file));
      const auto id = created.at("id").get<std::int64_t>();
      fmt::print("uploaded {} as hand-in #{}\n", name, id);
      std::fflush(stdout);
      if (o->no_wait) return;
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(o->timeout_s);
      std::string shown;
      for (;;) {
        const auto s = client.get(fmt::format("/api/submissions/{}", id));
        const std::string now = s.value("state", "") + " " + s.value("stage", "");
        if (finished(s)) {
          print_verdict(s);
          exit_code = s.value("state", "") == "accepted" ? 0 : 1;
          return;
        }
        if (now != shown) {
          fmt::print("{}\n", now);
          std::fflush(stdout);
          shown = now;
        }
        if (std::chrono::steady_clock::now() > until) {
          fmt::print("still {} after {} s: see arena course status\n", s.value("state", ""),
                     o->timeout_s);
          exit_code = 2;
          return;
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

void add_course_status(CLI::App& course, int& exit_code) {
  struct Options {
    std::string url, token;
  };
  auto o = std::make_shared<Options>();
  auto* cmd =
      course.add_subcommand("status", "Your hand-ins and the leaderboard, from a course server");
  cmd->add_option("url", o->url, "The course server: http://HOST:PORT")->required();
  cmd->add_option("--token", o->token, "Your API token (default: $ARENA_TOKEN)");
  cmd->callback([o, &exit_code] {
    try {
      CourseClient client(o->url, o->token);
      const auto me = client.get("/api/me");
      fmt::print("{} ({}) in {}{}\n", me.value("name", ""), me.value("login", ""),
                 me.value("title", ""),
                 me.value("deadline", "").empty() ? "" : ", deadline " + me.value("deadline", ""));
      const auto subs =
          client.get("/api/submissions").value("submissions", nlohmann::json::array());
      fmt::print("\nhand-ins ({}):\n", subs.size());
      int shown = 0;
      for (const auto& s : subs) {
        if (++shown > 10) break;
        fmt::print("  #{:<5} {}  {:<9} {}{}\n", s.value("id", 0), s.value("created", ""),
                   s.value("state", ""),
                   s.value("login", "") == me.value("login", "") ? "" : s.value("login", "") + ": ",
                   s.value("reason", ""));
      }
      const auto rows = client.get("/api/leaderboard").value("rows", nlohmann::json::array());
      fmt::print("\nleaderboard ({}):\n", rows.size());
      for (const auto& r : rows) {
        const std::string rating =
            r["rating"].is_number()
                ? fmt::format("{:.0f} ± {:.0f}", r["rating"].get<double>(), r.value("error", 0.0))
                : "not rated yet";
        fmt::print("{} {:>3}. {:<24} {:<16} {:>4} games  #{}\n",
                   r.value("login", "") == me.value("login", "") ? ">" : " ", r.value("rank", 0),
                   r.value("name", ""), rating, r.value("games", 0), r.value("submission", 0));
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
