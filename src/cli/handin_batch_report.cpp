#include "cli/handin_batch_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>

#include "core/text.hpp"
#include "referee/record.hpp"
#include "tournament/participants.hpp"
#include "tournament/report.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr auto kReplace = json::error_handler_t::replace;

std::string str(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return {};
  return j[key].get<std::string>();
}

// The build's seconds from the check's stages, or "" when there was no build.
std::string build_seconds(const StudentResult& r) {
  if (!r.check.is_object() || !r.check.contains("stages") || !r.check["stages"].is_array())
    return {};
  for (const auto& s : r.check["stages"])
    if (s.is_object() && s.value("stage", "") == "build" && s.contains("seconds") &&
        s["seconds"].is_number())
      return fmt::format("{:.1f}", s["seconds"].get<double>());
  return {};
}

// The grade's fields as text; empty when the check has no grade.
std::map<std::string, std::string> grade_fields(const StudentResult& r) {
  std::map<std::string, std::string> out;
  if (!r.check.is_object() || !r.check.contains("grade") || !r.check["grade"].is_object())
    return out;
  for (const char* key : {"points", "max_points", "highest_level", "summary"}) {
    const json& v = r.check["grade"].contains(key) ? r.check["grade"][key] : json();
    out[key] = v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
  }
  return out;
}

// A CSV field, quoted when it needs to be; a leading = + - @ is defused with a quote, so a
// spreadsheet never reads a student's text as a formula.
std::string csv(std::string s) {
  if (!s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos)
    s = "'" + s;
  return tournament::csv(s);
}

std::string html(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Valid UTF-8 for the page (a check quotes what a build printed): bad bytes become U+FFFD.
std::string utf8(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80           ? 1
                          : (b >> 5) == 0x6  ? 2
                          : (b >> 4) == 0xe  ? 3
                          : (b >> 3) == 0x1e ? 4
                                             : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k)
      ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string report_csv(const BatchReportInput& in) {
  std::string out = "student,file,hash,verdict,reason,how,run,build_s,check_s";
  if (in.grade) out += ",points,max_points,highest_level,grade";
  out += "\n";
  for (const auto& r : in.students) {
    out += fmt::format("{},{},{},{},{},{},{},{},{:.1f}", csv(r.name), csv(r.file), r.hash,
                       r.verdict, csv(r.reason), csv(str(r.check, "how")), csv(str(r.check, "run")),
                       build_seconds(r), r.seconds);
    if (in.grade) {
      auto g = grade_fields(r);
      out += fmt::format(",{},{},{},{}", csv(g["points"]), csv(g["max_points"]),
                         csv(g["highest_level"]), csv(g["summary"]));
    }
    out += "\n";
  }
  return out;
}

json report_json(const BatchReportInput& in, const std::string& when) {
  json students = json::array();
  for (const auto& r : in.students) {
    json s = {{"student", r.name},
              {"file", r.file},
              {"hash", r.hash},
              {"verdict", r.verdict},
              {"reason", r.reason},
              {"how", str(r.check, "how")},
              {"run", str(r.check, "run")},
              {"root", str(r.check, "root")},
              {"check_s", r.seconds},
              {"checked_now", r.fresh},
              {"check", r.check}};
    if (const auto b = build_seconds(r); !b.empty()) s["build_s"] = std::stod(b);
    if (r.check.is_object() && r.check.contains("grade")) s["grade"] = r.check["grade"];
    students.push_back(std::move(s));
  }
  json skipped = json::array();
  for (const auto& [file, why] : in.skipped) skipped.push_back({{"file", file}, {"why", why}});
  return {{"game", in.game},
          {"dir", in.dir.string()},
          {"generated", when},
          {"students", students},
          {"skipped", skipped}};
}

// The page: the tournament viewer's colours and table style (web/style.css), no script.
constexpr const char* kStyle = R"CSS(
:root { --bg: #f4f1ea; --panel: #fffdf8; --ink: #222; --muted: #777; --line: #d8d2c4; }
body { margin: 0; font: 15px/1.4 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
header { padding: .5em 1em; background: #28323c; color: #eee; }
header h1 { margin: 0; font-size: 1.3em; }
main { padding: 1em 1.5em; }
table.standings { border-collapse: collapse; margin: .5em 0 1em; background: var(--panel); }
table.standings th, table.standings td { border: 1px solid var(--line); padding: .25em .6em;
  text-align: left; vertical-align: top; }
table.standings th { background: #eee8da; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.reason { max-width: 40em; }
code { font-family: ui-monospace, monospace; font-size: .9em; }
.verdict { font-weight: bold; }
.accepted { color: #1e7b34; } .rejected { color: #b3261e; } .error { color: #9a5b00; }
.muted { color: var(--muted); }
)CSS";

std::string report_html(const BatchReportInput& in, const std::string& when) {
  std::map<std::string, int> count;
  for (const auto& r : in.students) ++count[r.verdict];
  std::string rows;
  int n = 0;
  for (const auto& r : in.students) {
    std::string links;
    const fs::path folder = in.out / "students" / r.name;
    for (const char* f : {"verdict.json", "build.log", "check.log"})
      if (fs::exists(folder / f))
        links += fmt::format("<a href=\"students/{}/{}\">{}</a> ", html(r.name), f, f);
    std::string grade;
    if (in.grade) {
      auto g = grade_fields(r);
      grade = fmt::format("<td class=\"num\">{}{}</td><td>{}</td>", html(utf8(g["points"])),
                          g["max_points"].empty() ? "" : " / " + html(utf8(g["max_points"])),
                          html(utf8(g["summary"])));
    }
    rows += fmt::format(
        "<tr><td class=\"num\">{}</td><td>{}</td><td><code>{}</code></td>"
        "<td class=\"verdict {}\">{}</td><td class=\"reason\">{}</td><td>{}</td>"
        "<td><code>{}</code></td><td class=\"num\">{}</td>{}<td>{}</td></tr>\n",
        ++n, html(utf8(r.name)), html(utf8(r.file)), html(r.verdict), html(r.verdict),
        html(utf8(r.reason)), html(utf8(str(r.check, "how"))), html(utf8(str(r.check, "run"))),
        build_seconds(r), grade, links);
  }
  std::string skipped;
  for (const auto& [file, why] : in.skipped)
    skipped += fmt::format("<li><code>{}</code>: {}</li>", html(utf8(file)), html(why));
  if (!skipped.empty()) skipped = "<h2>Skipped</h2><ul>" + skipped + "</ul>";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>Hand-ins: {0}</title><style>{1}</style></head><body>\n"
      "<header><h1>Hand-ins: {0}</h1></header><main>\n"
      "<p>{2} hand-ins from <code>{3}</code>: <span class=\"accepted\">{4} accepted</span>, "
      "<span class=\"rejected\">{5} rejected</span>, <span class=\"error\">{6} error(s)</span>. "
      "<span class=\"muted\">{7}</span></p>\n"
      "<p>The accepted agents play each other with <code>arena tournament {0} -f "
      "participants.txt</code>.</p>\n"
      "<table class=\"standings\"><tr><th>#</th><th>student</th><th>file</th><th>verdict</th>"
      "<th>reason</th><th>how</th><th>run</th><th>build s</th>{8}<th>files</th></tr>\n"
      "{9}</table>{10}</main></body></html>\n",
      html(in.game), kStyle, in.students.size(), html(utf8(in.dir.string())), count["accepted"],
      count["rejected"], count["error"], html(when),
      in.grade ? "<th>points</th><th>grade</th>" : "", rows, skipped);
}

std::string now_text() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
  return text;
}

}  // namespace

std::string participant_line(const StudentResult& r) {
  const std::string root = str(r.check, "root"), run = str(r.check, "run");
  if (root.empty() || run.empty())
    return fmt::format("# {}: accepted, but its check gave no root or run command", r.name);
  // The tournament splits a line on spaces and tabs: a folder with either cannot be dir=.
  const bool plain = std::none_of(root.begin(), root.end(), [](char c) {
    return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
  });
  if (!plain)
    return fmt::format(
        "# {}: not listed: its folder's path has a space or control character, which a "
        "participants line cannot hold; rename the hand-in's folder",
        r.name);
  std::string line = fmt::format("{}: dir={} command {}", r.name, root, run);
  if (line.size() > tournament::kMaxSpecBytes)
    return fmt::format("# {}: not listed: its line would be longer than {} bytes", r.name,
                       tournament::kMaxSpecBytes);
  return line;
}

void write_batch_reports(const BatchReportInput& in) {
  const std::string when = now_text();
  write_file_atomically(in.out / "report.csv", report_csv(in), false);
  write_file_atomically(in.out / "report.json",
                        report_json(in, when).dump(2, ' ', false, kReplace) + "\n", false);
  write_file_atomically(in.out / "report.html", report_html(in, when), false);
  std::string participants = fmt::format(
      "# The accepted hand-ins of {} ({}), by arena handin batch.\n"
      "# arena tournament {} -f participants.txt\n",
      printable(in.dir.string(), 200), when, in.game);
  for (const auto& r : in.students)
    if (r.verdict == "accepted") participants += participant_line(r) + "\n";
  write_file_atomically(in.out / "participants.txt", participants, false);
}

}  // namespace arena::cli
