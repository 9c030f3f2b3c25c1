#include "cli/handin_prepare.hpp"

#include <fmt/format.h>

#include <ctime>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/handin_build.hpp"
#include "cli/handin_flags.hpp"
#include "cli/handin_smoke.hpp"
#include "handin/convention.hpp"
#include "handin/unpack.hpp"
#include "sandbox/child_process.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

// handin-<name>-<YYYYmmdd-HHMMSS> in the working directory: "alice.tar.gz" gives "alice".
fs::path default_out(const fs::path& input) {
  std::string name = fs::absolute(input).lexically_normal().filename().string();
  if (name.empty()) name = fs::absolute(input).lexically_normal().parent_path().filename();
  for (const char* ext : {".tar.gz", ".tar.xz", ".tgz", ".tar", ".zip", ".jar"})
    if (name.size() > std::string_view(ext).size() && name.ends_with(ext)) {
      name.resize(name.size() - std::string_view(ext).size());
      break;
    }
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  return fs::current_path() / fmt::format("handin-{}-{}", name, stamp);
}

std::string build_words(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

CheckedHandin check_handin(const GameInfo& game, const CheckOptions& o, HandinReport& report) {
  const fs::path out = fs::absolute(o.out.empty() ? default_out(o.input) : o.out);
  const fs::path dest = out / "agent";
  if (fs::exists(dest))
    throw std::runtime_error(fmt::format("{} exists already: give another --out", dest.string()));
  fs::create_directories(out);
  // A batch stops an overlong check with SIGTERM: its build and agents end with it.
  end_children_on_signals();
  const auto rejected = [&](std::string why) {
    CheckedHandin c;
    c.reason = std::move(why);
    c.out = out;
    return c;
  };

  handin::UnpackResult unpacked = handin::unpack(o.input, dest);
  if (!unpacked.ok) {
    // The verdict says "rejected" already: the reason and the entry, without "refused:".
    const std::string why = unpacked.entry.empty()
                                ? unpacked.reason
                                : fmt::format("{}: '{}'", unpacked.reason, unpacked.entry);
    report.stage("unpack", false, unpacked.message());
    return rejected(why);
  }
  const fs::path root = unpacked.root;
  report.set_root(root.string());
  report.stage(
      "unpack", true,
      fmt::format("{}, {} file(s), {} bytes, in {}", handin::input_kind_name(unpacked.kind),
                  unpacked.files, unpacked.bytes, root.string()));

  const auto recipe = handin::find_recipe(game.name, root);
  if (!recipe) {
    report.stage("recipe", false, recipe.error);
    return rejected(recipe.error);
  }
  report.stage("recipe", true, recipe.value->how);
  report.set_how(recipe.value->how);

  // The Makefile is read before anything runs: a forbidden flag needs no build to be seen.
  if (!o.forbid_flags.empty())
    if (const fs::path makefile = makefile_of(root); !makefile.empty())
      if (auto f = find_forbidden_flag(makefile, o.forbid_flags, false)) {
        const std::string why =
            fmt::format("forbidden flag {} in {}: {}", f->word, f->where, f->line);
        report.stage("flags", false, why);
        return rejected(why);
      }

  std::string build_note = "no build";
  if (recipe.value->build) {
    BuildLimits limits;
    limits.timeout = std::chrono::seconds(o.build_timeout_s);
    limits.cpu_time = std::chrono::seconds(o.build_cpu_s);
    limits.memory_bytes = static_cast<std::uint64_t>(o.build_memory_mb * kMiB);
    limits.max_processes = o.build_processes;
    limits.log_bytes = static_cast<std::uint64_t>(o.log_limit_mb * kMiB);
    const fs::path log = out / "build.log";
    const BuildOutcome built = run_build(*recipe.value->build, root, log, limits, o.sandbox);
    build_note = fmt::format("build {:.1f} s", built.seconds);
    if (!built.ok) {
      report.stage("build", false,
                   fmt::format("{} after {:.1f} s; the log's end ({}):", built.failure,
                               built.seconds, log.string()),
                   built.seconds, built.status);
      report.quote(last_lines(log, 20));
      return rejected(built.failure);
    }
    report.stage("build", true,
                 fmt::format("{} in {:.1f} s (log {})", build_words(*recipe.value->build),
                             built.seconds, log.string()),
                 built.seconds, built.status);
    if (!o.forbid_flags.empty())
      if (auto f = find_forbidden_flag(log, o.forbid_flags, true)) {
        const std::string why =
            fmt::format("forbidden flag {} in {}: {}", f->word, f->where, f->line);
        report.stage("flags", false, why);
        return rejected(why);
      }
  }

  const auto run = handin::choose_run(*recipe.value, root);
  if (!run) {
    report.stage("run", false, run.error);
    return rejected(run.error);
  }
  report.stage("run", true, *run.value);
  report.set_run(*run.value);
  if (o.no_smoke)
    return {true, fmt::format("{} ({}; no smoke games)", *run.value, build_note), out, root,
            *run.value};

  SmokeOptions smoke;
  smoke.command = *run.value;
  smoke.root = root;
  smoke.dir = out / "smoke";
  smoke.move_time_ms = o.move_time_ms;
  smoke.max_plies = o.smoke_plies;
  smoke.sandbox = o.sandbox;
  smoke.arena_binary = own_binary();
  std::string games;
  for (Side side : {Side::White, Side::Black}) {
    const SmokeGame g = play_smoke_game(game, smoke, side);
    report.game(g);
    const std::string stage = fmt::format("game {}", side == Side::White ? 1 : 2);
    if (g.fault) {
      const std::string why = fmt::format("as {} it lost by its own fault: {} ({})",
                                          side_name(side), g.reason, g.detail);
      report.stage(stage, false, why + "; its log's end:");
      report.quote(g.log_tail);
      return rejected(why);
    }
    report.stage(stage, true, g.summary(), g.seconds);
    games += "; " + g.summary();
  }
  return {true, fmt::format("{} ({}{})", *run.value, build_note, games), out, root, *run.value};
}

void add_check_options(CLI::App& cmd, CheckOptions& o, const std::string& games,
                       const std::string& files) {
  add_game_argument(cmd, o.game);
  cmd.add_option("path", o.input, "The hand-in: a zip, tar, tar.gz, tar.xz, jar or folder")
      ->required();
  cmd.add_option("--out", o.out,
                 "Where its files go (default: handin-NAME-YYYYmmdd-HHMMSS here): " + files);
  cmd.add_flag("--json", o.json, "Print one JSON object instead of the report");
  cmd.add_option(
         "--move-time", o.move_time_ms,
         fmt::format("Milliseconds per move in the {} (default: the game's course limit)", games))
      ->check(CLI::Range(1, 3'600'000));
  cmd.add_option("--smoke-plies", o.smoke_plies,
                 "Stop each smoke game after this many plies, a draw (ply-limit); 0: play the "
                 "games to their end")
      ->capture_default_str()
      ->check(CLI::Range(0, 100'000));
  cmd.add_option("--sandbox", o.sandbox,
                 "auto: confine the build and the agent with what this machine allows; "
                 "required: refuse without every protection; off: plain child processes")
      ->transform(one_of<SandboxMode>({{"auto", SandboxMode::Auto},
                                       {"required", SandboxMode::Required},
                                       {"off", SandboxMode::Off}}))
      ->default_str("auto");
  cmd.add_option("--build-timeout", o.build_timeout_s, "Seconds the build may take")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  cmd.add_option("--build-cpu", o.build_cpu_s,
                 "Seconds of CPU time the build may use, all its processes together (needs "
                 "the sandbox's cgroups)")
      ->capture_default_str()
      ->check(CLI::Range(1, 864000));
  cmd.add_option("--build-memory", o.build_memory_mb, "MB of memory the build may use")
      ->capture_default_str()
      ->check(CLI::Range(16.0, 1048576.0));
  cmd.add_option("--build-processes", o.build_processes,
                 "Processes and threads the build may run at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--log-limit", o.log_limit_mb, "MB of the build's output kept (its end)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 65536.0));
  cmd.add_option("--forbid-flags", o.forbid_flags,
                 "Reject a hand-in whose Makefile or compiler lines hold a word matching this "
                 "glob, e.g. '-O*'");
}

}  // namespace arena::cli
