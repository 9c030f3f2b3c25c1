#include "tournament/participants.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/text.hpp"
#include "search/agent_words.hpp"
#include "search/player.hpp"

namespace arena::tournament {
namespace {

constexpr std::uintmax_t kMaxFileBytes = 1 << 20;

// The sandbox options that may open a participant's line: dir=PATH memory=MB cpus=N
// processes=N log=MB. Consumes them from `spec`; gives an error or "".
std::string take_sandbox_options(std::string_view& spec, Participant& p) {
  while (true) {
    spec = trim(spec);
    const auto w = words(spec);
    if (w.empty()) return {};
    const auto eq = w[0].find('=');
    if (eq == std::string_view::npos) return {};
    const std::string_view key = w[0].substr(0, eq), value = w[0].substr(eq + 1);
    int n = 0;
    if (key == "dir") {
      if (value.empty()) return "dir= needs a folder";
      p.dir = std::string(value);
    } else if (key == "memory") {
      if (!parse_number(value, 16, 1'048'576, n))
        return fmt::format("'{}': memory is MB, 16 to 1048576", w[0]);
      p.memory_bytes = static_cast<std::uint64_t>(n) * 1024 * 1024;
    } else if (key == "cpus") {
      if (!parse_number(value, 1, 256, n)) return fmt::format("'{}': cpus must be 1 to 256", w[0]);
      p.cpus = n;
    } else if (key == "processes") {
      if (!parse_number(value, 1, 100'000, n))
        return fmt::format("'{}': processes must be 1 to 100000", w[0]);
      p.max_processes = n;
    } else if (key == "log") {
      if (!parse_number(value, 1, 65'536, n))
        return fmt::format("'{}': log is MB, 1 to 65536", w[0]);
      p.log_bytes = static_cast<std::uint64_t>(n) * 1024 * 1024;
    } else {
      return {};  // an agent's own option (engine time=...) or not an option
    }
    spec.remove_prefix(static_cast<std::size_t>(w[0].data() - spec.data()) + w[0].size());
  }
}

Parsed<Participant> parse_spec(std::string_view spec) {
  using P = Parsed<Participant>;
  Participant p;
  p.spec = std::string(spec);
  if (const std::string error = take_sandbox_options(spec, p); !error.empty())
    return P::fail(error);
  const auto w = words(spec);
  if (w.empty()) return P::fail("no agent given (engine, greedy, random, soccer-ref or command)");
  const std::string_view kind = w[0];
  if (kind == "command") {
    const std::string_view rest = trim(spec.substr(spec.find("command") + 7));
    if (rest.empty()) return P::fail("'command' needs the program to run");
    p.kind = AgentKind::Command;
    p.command = std::string(rest);
    return P::ok(std::move(p));
  }
  if (kind == "random" || kind == "greedy") {
    if (w.size() > 1) return P::fail(fmt::format("'{}' takes no arguments", kind));
    p.kind = kind == "random" ? AgentKind::Random : AgentKind::Greedy;
    return P::ok(std::move(p));
  }
  if (kind == "soccer-ref") {
    if (w.size() != 2 || !parse_number(w[1], 0, 2, p.level))
      return P::fail("'soccer-ref' takes one level: 0, 1 or 2");
    p.kind = AgentKind::SoccerRef;
    return P::ok(std::move(p));
  }
  if (kind == "engine") {
    p.kind = AgentKind::Engine;
    EngineWords e;
    if (std::string error = read_engine_words(std::span(w).subspan(1), false, e); !error.empty())
      return P::fail(std::move(error));
    p.time_ms = e.time_ms;
    p.depth = e.depth;
    p.threads = e.threads;
    p.level = e.level;
    return P::ok(std::move(p));
  }
  return P::fail(
      fmt::format("unknown agent kind '{}' (engine, greedy, random, soccer-ref or command)", kind));
}

std::string default_name(const Participant& p) {
  switch (p.kind) {
    case AgentKind::Engine:
      return fmt::format("engine{}{}{}{}", p.depth > 0 ? fmt::format("-d{}", p.depth) : "",
                         p.time_ms > 0 ? fmt::format("-{}ms", p.time_ms) : "",
                         p.level > 0 ? fmt::format("-l{}", p.level) : "",
                         p.threads > 1 ? fmt::format("-t{}", p.threads) : "");
    case AgentKind::Greedy:
      return "greedy";
    case AgentKind::Random:
      return "random";
    case AgentKind::SoccerRef:
      return fmt::format("soccer-ref{}", p.level);
    case AgentKind::Command: {
      // The program's file name, reduced to name characters.
      const auto first = words(p.command).front();
      std::string base(
          first.substr(first.rfind('/') == std::string_view::npos ? 0 : first.rfind('/') + 1));
      std::string out;
      for (char c : base)
        if (is_name_char(c) && out.size() < 24) out += c;
      return out.empty() ? "agent" : out;
    }
  }
  return "agent";
}

}  // namespace

std::string_view agent_kind_name(AgentKind k) {
  switch (k) {
    case AgentKind::Engine:
      return "engine";
    case AgentKind::Greedy:
      return "greedy";
    case AgentKind::Random:
      return "random";
    case AgentKind::SoccerRef:
      return "soccer-ref";
    case AgentKind::Command:
      return "command";
  }
  return "?";
}

Parsed<Participant> parse_participant(std::string_view line) {
  using P = Parsed<Participant>;
  if (line.size() > kMaxSpecBytes)
    return P::fail(fmt::format("longer than {} bytes", kMaxSpecBytes));
  for (char c : line)
    if (c == '\0' || c == '\n') return P::fail("contains a NUL or newline character");
  std::string name = take_leading_name(line);
  if (name.size() > kMaxNameBytes)
    return P::fail(fmt::format("the name '{}' is longer than {} characters", name, kMaxNameBytes));
  auto parsed = parse_spec(line);
  if (parsed) parsed.value->name = std::move(name);
  return parsed;
}

std::vector<Participant> read_participants_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot read {}: {}", path.string(), ec.message()));
  if (size > kMaxFileBytes)
    throw std::runtime_error(
        fmt::format("{} is larger than {} bytes", path.string(), kMaxFileBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  std::vector<Participant> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    auto p = parse_participant(line);
    if (!p) throw std::runtime_error(fmt::format("{}:{}: {}", path.string(), number, p.error));
    out.push_back(std::move(*p.value));
  }
  return out;
}

void finalize_participants(std::vector<Participant>& participants) {
  if (participants.size() < 2)
    throw std::runtime_error(fmt::format("a tournament needs at least two participants ({} given)",
                                         participants.size()));
  if (participants.size() > kMaxParticipants)
    throw std::runtime_error(
        fmt::format("at most {} participants ({} given)", kMaxParticipants, participants.size()));
  std::set<std::string> taken;
  for (const auto& p : participants) {
    if (p.name.empty()) continue;
    if (!taken.insert(p.name).second)
      throw std::runtime_error(fmt::format("two participants are named '{}'", p.name));
  }
  // Unnamed ones: the kind's name, then -2, -3... where it is taken.
  for (auto& p : participants) {
    if (!p.name.empty()) continue;
    const std::string base = default_name(p);
    std::string name = base;
    for (int k = 2; taken.count(name); ++k) name = fmt::format("{}-{}", base, k);
    taken.insert(name);
    p.name = name;
  }
}

}  // namespace arena::tournament
