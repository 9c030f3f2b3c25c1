// The tournament's pure parts: schedule, participants, standings, ratings (exact values worked
// out by hand), journal (torn last line after a kill).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <set>

#include "support/temp_dir.hpp"
#include "tournament/journal.hpp"
#include "tournament/participants.hpp"
#include "tournament/ratings.hpp"
#include "tournament/schedule.hpp"
#include "tournament/served_match.hpp"
#include "tournament/standings.hpp"

namespace arena::tournament {
namespace {

using testing::TempDir;

GameResult game(int index, int white, int black, Outcome o, EndKind end = EndKind::Win,
                std::string reason = "no-stones") {
  GameResult g;
  g.index = index;
  g.white = white;
  g.black = black;
  g.outcome = o;
  g.end = o == Outcome::Draw && end == EndKind::Win ? EndKind::Draw : end;
  g.reason = std::move(reason);
  return g;
}

// Elo difference for an expected score p: 400 log10(p / (1 - p)).
double elo_for(double p) {
  return 400 * std::log10(p / (1 - p));
}
// The 95% half-width, in Elo, of a rating whose variance (natural-log scale) is v.
double error_for(double v) {
  return 1.959963984540054 * std::sqrt(v) * 400 / std::numbers::ln10;
}

// ---- schedule

TEST(TournamentSchedule, EveryOrderedPairExactlyOnceInTwoLegs) {
  for (int n = 2; n <= 9; ++n) {
    const auto s = double_round_robin(n, 42);
    ASSERT_EQ(static_cast<int>(s.size()), n * (n - 1)) << n;
    std::set<std::pair<int, int>> seen;
    std::map<int, std::set<int>> playing_in_round;
    const int rounds_per_leg = n % 2 == 0 ? n - 1 : n;
    for (std::size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(s[i].index, static_cast<int>(i));
      EXPECT_NE(s[i].white, s[i].black);
      EXPECT_TRUE(seen.insert({s[i].white, s[i].black}).second) << "pair played twice, n=" << n;
      // Nobody plays twice in a round.
      EXPECT_TRUE(playing_in_round[s[i].round].insert(s[i].white).second);
      EXPECT_TRUE(playing_in_round[s[i].round].insert(s[i].black).second);
      EXPECT_GE(s[i].round, 1);
      EXPECT_LE(s[i].round, 2 * rounds_per_leg);
      if (i > 0) {
        EXPECT_GE(s[i].round, s[i - 1].round);
      }
    }
    // The second leg is the first with colours swapped, in the same order.
    const std::size_t half = s.size() / 2;
    for (std::size_t i = 0; i < half; ++i) {
      EXPECT_EQ(s[i].white, s[half + i].black);
      EXPECT_EQ(s[i].black, s[half + i].white);
      EXPECT_EQ(s[half + i].round, s[i].round + rounds_per_leg);
    }
  }
}

TEST(TournamentSchedule, TheSeedFixesOrderAndGameSeeds) {
  const auto a = double_round_robin(6, 7), b = double_round_robin(6, 7),
             c = double_round_robin(6, 8);
  ASSERT_EQ(a.size(), b.size());
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].white, b[i].white);
    EXPECT_EQ(a[i].black, b[i].black);
    EXPECT_EQ(a[i].seed, b[i].seed);
    differs |= a[i].white != c[i].white || a[i].black != c[i].black;
  }
  EXPECT_TRUE(differs);
  std::set<std::uint64_t> seeds;
  for (const auto& p : a) seeds.insert(p.seed);
  EXPECT_EQ(seeds.size(), a.size());
}

TEST(TournamentSchedule, ColoursAreBalancedInTheFirstLeg) {
  const auto s = double_round_robin(6, 3);
  std::map<int, int> whites;
  for (std::size_t i = 0; i < s.size() / 2; ++i) ++whites[s[i].white];
  for (const auto& [player, count] : whites) {
    EXPECT_GE(count, 2) << player;
    EXPECT_LE(count, 3) << player;
  }
}

// ---- participants

TEST(TournamentParticipants, ParsesEveryKind) {
  auto p = parse_participant("deep: engine depth=4");
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(p.value->name, "deep");
  EXPECT_EQ(p.value->kind, AgentKind::Engine);
  EXPECT_EQ(p.value->depth, 4);
  EXPECT_EQ(p.value->spec, "engine depth=4");
  p = parse_participant("  quick:\tengine time=200 ");
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(p.value->time_ms, 200);
  p = parse_participant("random");
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value->name, "");
  EXPECT_EQ(p.value->kind, AgentKind::Random);
  p = parse_participant("ref: soccer-ref 2");
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value->level, 2);
  p = parse_participant("alice: command ./alice --x=1 'a b:c'");
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value->kind, AgentKind::Command);
  EXPECT_EQ(p.value->command, "./alice --x=1 'a b:c'");
  // A colon inside a command is not a name.
  p = parse_participant("command java -cp a:b Main");
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value->name, "");
  EXPECT_EQ(p.value->command, "java -cp a:b Main");
}

TEST(TournamentParticipants, EngineLevelAndThreadsReachTheAgentsCommandLine) {
  const auto p = parse_participant("engine level=3 threads=2");
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value->level, 3);
  EXPECT_EQ(p.value->threads, 2);
  std::vector<Participant> named{*p.value, *p.value};
  finalize_participants(named);
  EXPECT_EQ(named[0].name, "engine-l3-t2");
  MatchRequest req;
  req.move_time_ms = 700;
  EXPECT_EQ(builtin_player_args(req, *p.value, 9),
            (std::vector<std::string>{"--player", "engine", "--seed", "9", "--move-time", "700",
                                      "--level", "3", "--threads", "2"}));
}

TEST(TournamentParticipants, RejectsBadLinesWithTheReason) {
  EXPECT_EQ(parse_participant("x: wizard").error,
            "unknown agent kind 'wizard' (engine, greedy, random, soccer-ref or command)");
  EXPECT_EQ(parse_participant("x: engine depth=0").error, "'depth=0': depth must be 1 to 60");
  EXPECT_EQ(parse_participant("x: engine time=abc").error,
            "'time=abc': time must be milliseconds, 1 to 3600000");
  EXPECT_EQ(parse_participant("x: engine speed=3").error,
            "engine option 'speed=3' is not time=MS, depth=N, threads=N or level=N");
  EXPECT_EQ(parse_participant("x: engine time=5 depth=3").error,
            "engine takes time=MS or depth=N, not both");
  EXPECT_EQ(parse_participant("x: engine nodes=100").error,
            "engine option 'nodes=100' is not time=MS, depth=N, threads=N or level=N");
  EXPECT_EQ(parse_participant("x: engine table=64").error,
            "engine option 'table=64' is not time=MS, depth=N, threads=N or level=N");
  // A limit given twice counts once (the last), as saved events may hold it.
  EXPECT_EQ(parse_participant("x: engine time=100 time=200").value->time_ms, 200);
  EXPECT_EQ(parse_participant("x: engine level=6").error, "'level=6': level must be 1 to 5");
  EXPECT_EQ(parse_participant("x: engine threads=0").error, "'threads=0': threads must be 1 to 64");
  EXPECT_EQ(parse_participant("x: random 3").error, "'random' takes no arguments");
  EXPECT_EQ(parse_participant("x: soccer-ref 3").error, "'soccer-ref' takes one level: 0, 1 or 2");
  EXPECT_EQ(parse_participant("x: command").error, "'command' needs the program to run");
  EXPECT_EQ(parse_participant("x:").error,
            "no agent given (engine, greedy, random, soccer-ref or command)");
  EXPECT_FALSE(parse_participant(std::string(5000, 'a')));
  EXPECT_FALSE(parse_participant(std::string("random\0x", 8)));
}

TEST(TournamentParticipants, FileErrorsNameTheLine) {
  TempDir dir;
  const auto path = dir.path() / "players.txt";
  std::ofstream(path) << "# our course\n\nalice: random\n  \nbob: engine depth=x\n";
  try {
    read_participants_file(path);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ":5: 'depth=x': depth must be 1 to 60");
  }
  std::ofstream(path) << "# our course\r\nalice: random\r\n\r\ngreedy\r\n";
  const auto ps = read_participants_file(path);
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].name, "alice");
  EXPECT_EQ(ps[1].kind, AgentKind::Greedy);
  EXPECT_THROW(read_participants_file(dir.path() / "missing.txt"), std::runtime_error);
}

TEST(TournamentParticipants, NamesAreMadeUniqueAndChecked) {
  std::vector<Participant> ps;
  for (const char* line : {"random", "random", "engine time=300", "engine depth=2",
                           "command /opt/agents/crAIzy.sh --fast", "random-2: greedy"})
    ps.push_back(*parse_participant(line).value);
  finalize_participants(ps);
  std::vector<std::string> names;
  for (const auto& p : ps) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"random", "random-3", "engine-300ms", "engine-d2",
                                             "crAIzy.sh", "random-2"}));
  std::vector<Participant> dup = {*parse_participant("a: random").value,
                                  *parse_participant("a: greedy").value};
  EXPECT_THROW(finalize_participants(dup), std::runtime_error);
  std::vector<Participant> one = {*parse_participant("a: random").value};
  EXPECT_THROW(finalize_participants(one), std::runtime_error);
}

// ---- standings

TEST(TournamentStandings, PointsColoursCrosstableAndOrder) {
  std::vector<Participant> ps(3);
  ps[0].name = "ann";
  ps[1].name = "bob";
  ps[2].name = "cy";
  const std::vector<GameResult> games = {
      game(0, 0, 1, Outcome::WhiteWins),  // ann beats bob with White
      game(1, 1, 2, Outcome::Draw),       // bob - cy draw
      game(2, 2, 0, Outcome::WhiteWins, EndKind::Timeout,
           "timeout"),                                             // cy beats ann: ann timed out
      game(3, 1, 0, Outcome::BlackWins),                           // ann beats bob with Black
      game(4, 2, 1, Outcome::BlackWins, EndKind::Crash, "crash"),  // bob beats cy: cy crashed
      game(5, 0, 2, Outcome::Draw),                                // ann - cy draw
  };
  const auto rows = compute_standings(ps, games);
  ASSERT_EQ(rows.size(), 3u);
  // ann: W W L D = 3+3+0+1 = 7; bob: L D L W = 0+1+0+3 = 4; cy: D W L D = 1+3+0+1 = 5.
  EXPECT_EQ(rows[0].participant, 0);
  EXPECT_EQ(rows[0].points, 7);
  EXPECT_EQ(rows[0].total.wins, 2);
  EXPECT_EQ(rows[0].total.draws, 1);
  EXPECT_EQ(rows[0].total.losses, 1);
  EXPECT_EQ(rows[0].as_white.wins, 1);
  EXPECT_EQ(rows[0].as_white.draws, 1);
  EXPECT_EQ(rows[0].as_black.wins, 1);
  EXPECT_EQ(rows[0].as_black.losses, 1);
  EXPECT_EQ(rows[0].fault_losses, 1);  // the timeout
  EXPECT_EQ(rows[1].participant, 2);
  EXPECT_EQ(rows[1].points, 5);
  EXPECT_EQ(rows[1].fault_losses, 1);  // the crash
  EXPECT_EQ(rows[2].participant, 1);
  EXPECT_EQ(rows[2].points, 4);
  EXPECT_EQ(rows[2].fault_losses, 0);
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[2].rank, 3);
  // Sonneborn-Berger of ann: 6 points against bob (4) + 1 against cy (5) = 29.
  EXPECT_DOUBLE_EQ(rows[0].sonneborn_berger, 6 * 4 + 1 * 5);
  const auto t = compute_crosstable(3, games);
  EXPECT_EQ(t[0][1].as_white, 'W');
  EXPECT_EQ(t[0][1].as_black, 'W');
  EXPECT_EQ(t[0][1].points, 6);
  EXPECT_EQ(t[0][2].as_white, 'D');
  EXPECT_EQ(t[0][2].as_black, 'L');
  EXPECT_EQ(t[2][0].as_white, 'W');
  EXPECT_EQ(t[2][0].as_black, 'D');
  EXPECT_EQ(t[1][2].as_black, 'W');
  EXPECT_EQ(t[0][0].as_white, 0);
}

TEST(TournamentStandings, FullTiesShareTheRank) {
  std::vector<Participant> ps(2);
  ps[0].name = "zed";
  ps[1].name = "amy";
  const auto rows =
      compute_standings(ps, {game(0, 0, 1, Outcome::Draw), game(1, 1, 0, Outcome::Draw)});
  EXPECT_EQ(rows[0].participant, 1);  // by name
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[1].rank, 1);
  EXPECT_EQ(rows[0].points, 2);
}

// ---- ratings

TEST(TournamentRatings, TwoPlayersThreeToOne) {
  // p = 3/4: the difference is 400 log10 3, split around the mean. The information about the
  // difference is N p (1 - p) = 4 * 3/16 = 3/4; each centred rating has a quarter of the
  // difference's variance: (4/3) / 4 = 1/3.
  const auto r =
      compute_ratings(2, {game(0, 0, 1, Outcome::WhiteWins), game(1, 1, 0, Outcome::BlackWins),
                          game(2, 0, 1, Outcome::WhiteWins), game(3, 1, 0, Outcome::WhiteWins)});
  EXPECT_FALSE(r.regularised);
  EXPECT_NEAR(r.players[0].elo, elo_for(0.75) / 2, 1e-9);
  EXPECT_NEAR(r.players[1].elo, -elo_for(0.75) / 2, 1e-9);
  EXPECT_NEAR(r.players[0].elo, 95.424250943932, 1e-9);
  EXPECT_NEAR(r.players[0].error95, error_for(1.0 / 3), 1e-9);
  EXPECT_NEAR(r.players[0].error95, 196.58, 0.01);
}

TEST(TournamentRatings, DrawsAreHalfWins) {
  const auto r =
      compute_ratings(2, {game(0, 0, 1, Outcome::WhiteWins), game(1, 1, 0, Outcome::Draw),
                          game(2, 0, 1, Outcome::Draw), game(3, 1, 0, Outcome::WhiteWins)});
  EXPECT_NEAR(r.players[0].elo, 0, 1e-9);
  EXPECT_NEAR(r.players[1].elo, 0, 1e-9);
  // p = 1/2: information 4/4 = 1, centred variance 1/4.
  EXPECT_NEAR(r.players[0].error95, error_for(0.25), 1e-9);
}

TEST(TournamentRatings, ConsistentThreePlayerResultsGiveTheExactStrengths) {
  // A scores 3/4 against B, B 3/4 against C, A 9/10 against C: exactly the Bradley-Terry model
  // with strengths 9 : 3 : 1, so the fit reproduces them: 400 log10 3 apart, B in the middle.
  std::vector<GameResult> g;
  const auto add = [&](int a, int b, int wins, int losses) {
    for (int i = 0; i < wins; ++i)
      g.push_back(game(static_cast<int>(g.size()), a, b, Outcome::WhiteWins));
    for (int i = 0; i < losses; ++i)
      g.push_back(game(static_cast<int>(g.size()), b, a, Outcome::WhiteWins));
  };
  add(0, 1, 3, 1);
  add(1, 2, 3, 1);
  add(0, 2, 9, 1);
  const auto r = compute_ratings(3, g);
  EXPECT_FALSE(r.regularised);
  const double step = 400 * std::log10(3.0);
  EXPECT_NEAR(r.players[0].elo, step, 1e-7);
  EXPECT_NEAR(r.players[1].elo, 0, 1e-7);
  EXPECT_NEAR(r.players[2].elo, -step, 1e-7);
  // The information is a triangle graph with weights n p (1 - p): AB 4 * 3/16 = 3/4, BC 3/4,
  // AC 10 * 9/100 = 9/10. The covariance of mean-0 ratings is its pseudo-inverse, whose diagonal
  // is, by the effective-resistance identity, Var_i = (1/n) sum_j R_ij - (1/n^2) sum_{j<k} R_jk,
  // with R_ab = (w_ac + w_bc) / (w_ab w_bc + w_bc w_ac + w_ac w_ab) in a triangle.
  const double ab = 0.75, bc = 0.75, ac = 0.9;
  const double det = ab * bc + bc * ac + ac * ab;
  const double r_ab = (ac + bc) / det, r_bc = (ab + ac) / det, r_ac = (ab + bc) / det;
  const double total = (r_ab + r_bc + r_ac) / 9;
  EXPECT_NEAR(r.players[0].error95, error_for((r_ab + r_ac) / 3 - total), 1e-9);
  EXPECT_NEAR(r.players[1].error95, error_for((r_ab + r_bc) / 3 - total), 1e-9);
  EXPECT_NEAR(r.players[2].error95, error_for((r_ac + r_bc) / 3 - total), 1e-9);
}

TEST(TournamentRatings, AClosedCycleIsAllEqual) {
  const auto r =
      compute_ratings(3, {game(0, 0, 1, Outcome::WhiteWins), game(1, 1, 0, Outcome::BlackWins),
                          game(2, 1, 2, Outcome::WhiteWins), game(3, 2, 1, Outcome::BlackWins),
                          game(4, 2, 0, Outcome::WhiteWins), game(5, 0, 2, Outcome::BlackWins)});
  EXPECT_FALSE(r.regularised);
  for (const auto& p : r.players) EXPECT_NEAR(p.elo, 0, 1e-9);
  EXPECT_NEAR(r.players[0].error95, r.players[1].error95, 1e-9);
}

TEST(TournamentRatings, AllWinsUsesOneVirtualDrawPerPair) {
  // A won both games: no finite maximum. With one virtual draw: 2.5 points out of 3, p = 5/6,
  // difference 400 log10 5; information 3 * 5/36 = 5/12, centred variance (12/5) / 4 = 3/5.
  const auto r =
      compute_ratings(2, {game(0, 0, 1, Outcome::WhiteWins), game(1, 1, 0, Outcome::BlackWins)});
  EXPECT_TRUE(r.regularised);
  EXPECT_NEAR(r.players[0].elo, 400 * std::log10(5.0) / 2, 1e-9);
  EXPECT_NEAR(r.players[1].elo, -400 * std::log10(5.0) / 2, 1e-9);
  EXPECT_NEAR(r.players[0].error95, error_for(0.6), 1e-9);
}

TEST(TournamentRatings, ADominantGroupStaysFiniteAndOrdered) {
  // Players 0 and 1 beat 2 and 3 every time; inside each group they split.
  std::vector<GameResult> g;
  for (int a : {0, 1})
    for (int b : {2, 3}) {
      g.push_back(game(static_cast<int>(g.size()), a, b, Outcome::WhiteWins));
      g.push_back(game(static_cast<int>(g.size()), b, a, Outcome::BlackWins));
    }
  g.push_back(game(static_cast<int>(g.size()), 0, 1, Outcome::WhiteWins));
  g.push_back(game(static_cast<int>(g.size()), 1, 0, Outcome::WhiteWins));
  g.push_back(game(static_cast<int>(g.size()), 2, 3, Outcome::WhiteWins));
  g.push_back(game(static_cast<int>(g.size()), 3, 2, Outcome::WhiteWins));
  const auto r = compute_ratings(4, g);
  EXPECT_TRUE(r.regularised);
  for (const auto& p : r.players) {
    EXPECT_TRUE(std::isfinite(p.elo));
    EXPECT_TRUE(std::isfinite(p.error95));
  }
  EXPECT_NEAR(r.players[0].elo, r.players[1].elo, 1e-9);
  EXPECT_NEAR(r.players[2].elo, r.players[3].elo, 1e-9);
  EXPECT_GT(r.players[0].elo, r.players[2].elo + 100);
  EXPECT_NEAR(r.players[0].elo + r.players[2].elo, 0, 1e-9);
}

// ---- journal

EventSettings small_settings() {
  EventSettings s;
  s.game = "fission";
  s.participants = {*parse_participant("a: random").value,
                    *parse_participant("b: engine time=100").value};
  s.participants[0].name = "a";
  s.participants[1].name = "b";
  s.seed = 99;
  s.rules.moves_per_player = 7;
  s.working_dir = "/tmp";
  return s;
}

TEST(TournamentJournal, RoundTripsSettingsAndGames) {
  TempDir dir;
  const auto ev = dir.path() / "event";
  {
    auto j = Journal::create(ev, small_settings());
    j.append(game(1, 1, 0, Outcome::BlackWins, EndKind::IllegalMove, "illegal-move"));
  }
  EXPECT_THROW(Journal::create(ev, small_settings()), std::runtime_error);
  EventSettings s;
  std::vector<GameResult> done;
  auto j = Journal::open(ev, s, done);
  EXPECT_EQ(s.game, "fission");
  EXPECT_EQ(s.seed, 99u);
  EXPECT_EQ(s.rules.moves_per_player, 7);
  ASSERT_EQ(s.participants.size(), 2u);
  EXPECT_EQ(s.participants[1].name, "b");
  EXPECT_EQ(s.participants[1].time_ms, 100);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].index, 1);
  EXPECT_EQ(done[0].outcome, Outcome::BlackWins);
  EXPECT_EQ(done[0].end, EndKind::IllegalMove);
}

TEST(TournamentJournal, ATornLastLineIsIgnoredAndRemoved) {
  TempDir dir;
  const auto ev = dir.path() / "event";
  {
    auto j = Journal::create(ev, small_settings());
    j.append(game(0, 0, 1, Outcome::WhiteWins));
  }
  std::ofstream(ev / kJournalFile, std::ios::app) << R"({"type":"game","game":1,"rou)";
  {
    EventSettings s;
    std::vector<GameResult> done;
    auto j = Journal::open(ev, s, done);
    ASSERT_EQ(done.size(), 1u);
    j.append(game(1, 1, 0, Outcome::Draw));
  }
  EventSettings s;
  std::vector<GameResult> done;
  Journal::open(ev, s, done);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[1].index, 1);
  EXPECT_EQ(done[1].outcome, Outcome::Draw);
}

TEST(TournamentJournal, DamageBeforeTheEndIsAnErrorNamingTheLine) {
  TempDir dir;
  const auto ev = dir.path() / "event";
  { auto j = Journal::create(ev, small_settings()); }
  std::ofstream(ev / kJournalFile, std::ios::app) << "garbage\n"
                                                  << R"({"type":"game"})"
                                                  << "\n";
  EventSettings s;
  std::vector<GameResult> done;
  try {
    Journal::open(ev, s, done);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("journal.jsonl:2: not a JSON object"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(Journal::open(dir.path() / "nothing", s, done), std::runtime_error);
}

}  // namespace
}  // namespace arena::tournament
