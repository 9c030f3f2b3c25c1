// How a tournament scales to a cohort: a 60-agent double round-robin (7,080 games). Measures
// planning the event, building its standings from 7,080 finished games (from a synthetic
// journal), and what rewriting the standings after every game would cost over the whole event,
// against the event runner's rule (at most a tenth of the event's time). Prints figures; asserts
// nothing (docs/cluster.md quotes them).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "core/rng.hpp"
#include "tournament/event_runner.hpp"
#include "tournament/journal.hpp"
#include "tournament/report.hpp"
#include "tournament/schedule.hpp"

namespace {

using namespace arena;
using namespace arena::tournament;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

EventSettings cohort(int agents) {
  EventSettings s;
  s.game = "fission";
  s.seed = 2026;
  s.sandbox = SandboxMode::Off;
  for (int i = 0; i < agents; ++i) {
    auto p = parse_participant(fmt::format("student{:02}: random", i + 1));
    s.participants.push_back(*p.value);
  }
  return s;
}

// The schedule's games with made-up results, as the journal would hold them.
std::vector<GameResult> synthetic_results(const EventSettings& s) {
  Rng rng(7);
  std::vector<GameResult> out;
  for (const Pairing& p : double_round_robin(static_cast<int>(s.participants.size()), s.seed)) {
    GameResult r;
    r.index = p.index;
    r.round = p.round;
    r.white = p.white;
    r.black = p.black;
    const auto roll = rng.below(10);
    r.outcome = roll < 4 ? Outcome::WhiteWins : roll < 8 ? Outcome::BlackWins : Outcome::Draw;
    r.end = r.outcome == Outcome::Draw ? EndKind::Draw : EndKind::Win;
    r.reason = r.outcome == Outcome::Draw ? "move-limit" : "no-stones";
    r.plies = 20 + static_cast<int>(rng.below(80));
    r.record = fmt::format("games/{:04}.json", p.index + 1);
    r.duration_ms = 1000 + static_cast<std::int64_t>(rng.below(60'000));
    out.push_back(r);
  }
  return out;
}

int run(int agents) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("arena-scale-{}", ::getpid());
  fs::remove_all(dir);
  const EventSettings settings = cohort(agents);
  std::ostringstream quiet;

  auto t = Clock::now();
  plan_event(dir, settings, quiet);
  const double plan_ms = ms_since(t);
  const auto results = synthetic_results(settings);
  const int total = static_cast<int>(results.size());
  fmt::print("{} agents, {} games\n", agents, total);
  fmt::print("plan (schedule, journal, schedule.csv, empty standings): {:.1f} ms\n", plan_ms);

  // The journal as the event leaves it: every game appended (and synced) as it ended.
  t = Clock::now();
  {
    EventSettings read_back;
    std::vector<GameResult> none;
    Journal journal = Journal::open(dir, read_back, none);
    for (const auto& r : results) journal.append(r);
  }
  fmt::print("journal: {} games appended, each synced: {:.0f} ms ({:.2f} ms a game)\n", total,
             ms_since(t), ms_since(t) / total);

  t = Clock::now();
  const EventJournals all = read_event_journals(dir);
  const double read_ms = ms_since(t);
  t = Clock::now();
  const EventReport report = make_report(all.settings, "Fission", all.games, total);
  const double build_ms = ms_since(t);
  t = Clock::now();
  write_reports(dir, report);
  const double write_ms = ms_since(t);
  fmt::print(
      "standings from {} finished games: read journals {:.1f} ms, build {:.1f} ms, write "
      "{:.1f} ms: {:.1f} ms in all\n",
      all.games.size(), read_ms, build_ms, write_ms, read_ms + build_ms + write_ms);

  // Rewriting the standings after every game costs the build and write of game n at game n:
  // quadratic in all. Measured at a few sizes, summed over the event by the straight line
  // through them.
  double cost_at[5] = {};
  const int sizes[5] = {total / 5, 2 * total / 5, 3 * total / 5, 4 * total / 5, total};
  for (int k = 0; k < 5; ++k) {
    std::vector<GameResult> part(results.begin(), results.begin() + sizes[k]);
    t = Clock::now();
    write_reports(dir, make_report(settings, "Fission", part, total), false);  // as the runner
    cost_at[k] = ms_since(t);
  }
  const double per_game_slope = (cost_at[4] - cost_at[0]) / (sizes[4] - sizes[0]);
  const double every_game_ms = 0.5 * per_game_slope * total * total + cost_at[0] * total / 5.0;
  fmt::print(
      "one standings write at {} / {} / {} / {} / {} games: {:.1f} / {:.1f} / {:.1f} / "
      "{:.1f} / {:.1f} ms\n",
      sizes[0], sizes[1], sizes[2], sizes[3], sizes[4], cost_at[0], cost_at[1], cost_at[2],
      cost_at[3], cost_at[4]);
  fmt::print("writing after every game would take about {:.0f} s over the event (quadratic)\n",
             every_game_ms / 1000);
  // The runner's rule: after a write that took c, none for the next 9c, so the writes take at
  // most a tenth of the event's time whatever its length. Simulated with the measured costs,
  // for games ending one every `gap` (many at once on a big machine end often).
  const auto cost = [&](int n) { return cost_at[0] + per_game_slope * (n - sizes[0]); };
  for (double gap_ms : {1000.0, 100.0}) {
    double now = 0, next = 0, spent = 0;
    int writes = 0;
    for (int n = 1; n <= total; ++n) {
      now += gap_ms;
      if (now < next) continue;
      const double c = cost(n);
      ++writes;
      spent += c;
      now += c;
      next = now + 9 * c;
    }
    fmt::print(
        "with the runner's rule, a game ending every {:.1f} s: {} writes, {:.0f} s in all, "
        "{:.1f}% of the event's {:.0f} s\n",
        gap_ms / 1000, writes, spent / 1000, 100 * spent / now, now / 1000);
  }
  fs::remove_all(dir);
  return 0;
}

}  // namespace

// Default: 60 agents (3,540 games: each pair twice) and 85 agents (7,140 games).
int main(int argc, char** argv) {
  if (argc > 1) return run(std::atoi(argv[1]));
  run(60);
  fmt::print("\n");
  return run(85);
}
