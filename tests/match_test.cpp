// arena match: the statistics against numbers computed independently (a separate Python
// implementation of fastchess' formulas, and the exact multinomial maximum-likelihood ratio they
// approximate), books, agent specs, real matches between built-in agents, over the engine
// protocol and against a course-protocol bot through the course's referee, and the bench
// signature.
#include "match/match.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "games/registry.hpp"
#include "match/agent.hpp"
#include "match/bench.hpp"
#include "match/book.hpp"
#include "match/engine_protocol.hpp"
#include "match/stats.hpp"
#include "sandbox/child_process.hpp"
#include "search/limits.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena::match {
namespace {

using std::chrono::milliseconds;

Counts trinomial(std::uint64_t w, std::uint64_t d, std::uint64_t l) {
  Counts c;
  c.wins = w;
  c.draws = d;
  c.losses = l;
  return c;
}

Counts pentanomial(std::array<std::uint64_t, 5> p) {
  Counts c;
  c.penta = p;
  return c;
}

// --- statistics -------------------------------------------------------------------------------

TEST(MatchStats, EloFromScore) {
  EXPECT_DOUBLE_EQ(elo_from_score(0.5), 0.0);
  EXPECT_NEAR(elo_from_score(0.75), 190.848501887865, 1e-9);  // 400 log10(3)
  EXPECT_NEAR(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
  EXPECT_TRUE(std::isinf(elo_from_score(1.0)));
}

TEST(MatchStats, TrinomialEloAndInterval) {
  // W 60 D 25 L 15: score 0.725.
  const EloEstimate e = estimate_trinomial(trinomial(60, 25, 15));
  ASSERT_TRUE(e.valid);
  EXPECT_NEAR(e.score, 0.725, 1e-12);
  EXPECT_NEAR(e.elo, 168.40212509629237, 1e-9);
  EXPECT_NEAR(e.error, 64.34708455324821, 1e-9);
  EXPECT_NEAR(e.nelo, 211.29769055135975, 1e-9);
  EXPECT_NEAR(e.nelo_error, 68.09612345718845, 1e-9);
  EXPECT_NEAR(e.los, 0.9999999994051896, 1e-12);
}

TEST(MatchStats, PentanomialEloAndInterval) {
  // Pairs scoring 0, 0.5, 1, 1.5, 2 points: 5, 20, 40, 25, 10.
  const EloEstimate e = estimate_pentanomial(pentanomial({5, 20, 40, 25, 10}));
  ASSERT_TRUE(e.valid);
  EXPECT_NEAR(e.score, 0.5375, 1e-12);
  EXPECT_NEAR(e.elo, 26.10669260503662, 1e-9);
  EXPECT_NEAR(e.error, 34.8264253039565, 1e-9);
  EXPECT_NEAR(e.nelo, 36.35462290819022, 1e-9);
  EXPECT_NEAR(e.nelo_error, 48.151230669094275, 1e-9);
  EXPECT_NEAR(e.los, 0.9305354671563948, 1e-12);
}

TEST(MatchStats, NoVarianceGivesNoInterval) {
  const EloEstimate e = estimate_pentanomial(pentanomial({0, 0, 0, 0, 7}));
  EXPECT_FALSE(e.valid);
  EXPECT_TRUE(std::isinf(e.elo));
  EXPECT_EQ(e.los, 1.0);
  EXPECT_FALSE(estimate_trinomial(Counts{}).valid);
}

TEST(MatchStats, PairsAreCountedBothWays) {
  Counts c;
  c.add_pair(1.0, 1.0);
  c.add_pair(1.0, 0.0);
  c.add_pair(0.5, 0.5);
  c.add_pair(0.0, 0.5);
  c.add_pair(0.5, 1.0);
  EXPECT_EQ(c.wins, 4u);
  EXPECT_EQ(c.draws, 4u);
  EXPECT_EQ(c.losses, 2u);
  EXPECT_EQ(c.penta, (std::array<std::uint64_t, 5>{0, 1, 2, 1, 1}));
  EXPECT_EQ(c.games(), 10u);
  EXPECT_EQ(c.pairs(), 5u);
}

TEST(MatchSprt, Bounds) {
  SprtSettings s;
  EXPECT_NEAR(s.lower_bound(), -2.9444389791664403, 1e-12);
  EXPECT_NEAR(s.upper_bound(), 2.9444389791664403, 1e-12);
  s.alpha = 0.1;
  s.beta = 0.2;
  EXPECT_NEAR(s.lower_bound(), -1.504077396776274, 1e-12);
  EXPECT_NEAR(s.upper_bound(), 2.0794415416798357, 1e-12);
}

TEST(MatchSprt, NormalizedPentanomialLlr) {
  SprtSettings s;  // normalized, elo0 0, elo1 5
  const double llr = llr_pentanomial(pentanomial({5, 20, 40, 25, 10}), s);
  EXPECT_NEAR(llr, 0.27520515729553047, 1e-9);
  // The exact multinomial GLR it approximates.
  EXPECT_NEAR(llr, 0.2766655064570883, 0.005);
}

TEST(MatchSprt, LogisticPentanomialLlr) {
  SprtSettings s;
  s.model = SprtModel::Logistic;
  // The exact multinomial GLR (fishtest's LLR_logistic), within 0.005 of fastchess' form.
  const double llr = llr_pentanomial(pentanomial({5, 20, 40, 25, 10}), s);
  EXPECT_NEAR(llr, 0.374955227713038, 1e-9);
  EXPECT_NEAR(llr, 0.37309285257878605, 0.005);
}

// Pairs that all end one win each hardly vary: the second-order form of the GLR said H0 after
// four such pairs (-3.68 for elo1 = 20); the exact ratio takes them for the evidence they are.
TEST(MatchSprt, LogisticLlrOfPairsThatHardlyVary) {
  SprtSettings s;
  s.model = SprtModel::Logistic;
  s.elo1 = 20;
  EXPECT_NEAR(llr_pentanomial(pentanomial({0, 0, 4, 0, 0}), s), -0.23079625325402842, 1e-9);
  EXPECT_EQ(sprt_decision(llr_pentanomial(pentanomial({0, 0, 4, 0, 0}), s), s),
            SprtDecision::Continue);
  EXPECT_NEAR(llr_pentanomial(pentanomial({0, 0, 10, 0, 0}), s), -0.5852001409294618, 1e-9);
  EXPECT_NEAR(llr_pentanomial(pentanomial({0, 0, 200, 0, 0}), s), -11.834107568663393, 1e-6);
  EXPECT_EQ(sprt_decision(llr_pentanomial(pentanomial({0, 0, 200, 0, 0}), s), s),
            SprtDecision::AcceptH0);
}

TEST(MatchSprt, TrinomialLlrBothModels) {
  // W 4307 D 8620 L 4063, [0, 3].
  SprtSettings s;
  s.elo0 = 0;
  s.elo1 = 3;
  s.model = SprtModel::Logistic;
  const Counts c = trinomial(4307, 8620, 4063);
  EXPECT_NEAR(llr_trinomial(c, s), 2.9912888083084854, 1e-9);
  EXPECT_NEAR(llr_trinomial(c, s), 2.99148677993821, 0.005);
  EXPECT_EQ(sprt_decision(llr_trinomial(c, s), s), SprtDecision::AcceptH1);
  s.model = SprtModel::Normalized;
  EXPECT_NEAR(llr_trinomial(c, s), 2.3683210336017093, 1e-9);
  EXPECT_EQ(sprt_decision(llr_trinomial(c, s), s), SprtDecision::Continue);
}

TEST(MatchSprt, DecidesBothWays) {
  SprtSettings s;
  s.elo0 = 0;
  s.elo1 = 10;
  // A much stronger A: H1. A much weaker A: H0.
  EXPECT_NEAR(llr_pentanomial(pentanomial({1, 3, 10, 20, 30}), s), 1.2813238918601617, 1e-9);
  EXPECT_EQ(sprt_decision(llr_pentanomial(pentanomial({1, 3, 10, 20, 30}), s), s),
            SprtDecision::Continue);
  EXPECT_NEAR(llr_pentanomial(pentanomial({5, 15, 50, 100, 150}), s), 6.406619459300808, 1e-9);
  EXPECT_EQ(sprt_decision(llr_pentanomial(pentanomial({5, 15, 50, 100, 150}), s), s),
            SprtDecision::AcceptH1);
  EXPECT_NEAR(llr_pentanomial(pentanomial({150, 100, 50, 15, 5}), s), -6.364944060661003, 1e-9);
  EXPECT_EQ(sprt_decision(llr_pentanomial(pentanomial({150, 100, 50, 15, 5}), s), s),
            SprtDecision::AcceptH0);
  EXPECT_EQ(llr_pentanomial(Counts{}, s), 0.0);
  // One-sided results have no variance; fishtest's 1e-3 for the outcomes never seen still lets
  // the test decide (logistic model: the exact GLR of the regularized distribution).
  s.model = SprtModel::Logistic;
  EXPECT_NEAR(llr_pentanomial(pentanomial({0, 0, 0, 0, 10}), s), 0.28362403322645324, 1e-9);
  EXPECT_EQ(sprt_decision(llr_pentanomial(pentanomial({0, 0, 0, 0, 200}), s), s),
            SprtDecision::AcceptH1);
}

TEST(MatchSprt, ParsesSettings) {
  SprtSettings s;
  EXPECT_EQ(parse_sprt("elo0=-1.5 elo1=3, alpha=0.1 beta=0.2 model=logistic", s), "");
  EXPECT_EQ(s.elo0, -1.5);
  EXPECT_EQ(s.elo1, 3);
  EXPECT_EQ(s.alpha, 0.1);
  EXPECT_EQ(s.beta, 0.2);
  EXPECT_EQ(s.model, SprtModel::Logistic);
  SprtSettings t;
  EXPECT_NE(parse_sprt("elo0=5 elo1=5", t), "");
  EXPECT_NE(parse_sprt("elo0=x", t), "");
  EXPECT_NE(parse_sprt("alpha=0.7", t), "");
  EXPECT_NE(parse_sprt("gamma=1", t), "");
  EXPECT_NE(parse_sprt("model=bayes", t), "");
}

// --- agents and books ---------------------------------------------------------------------------

TEST(MatchAgents, ParsesSpecs) {
  auto e = parse_agent("fast: engine nodes=5000");
  ASSERT_TRUE(e) << e.error;
  EXPECT_EQ(e.value->name, "fast");
  EXPECT_EQ(e.value->kind, AgentSpec::Engine);
  ASSERT_TRUE(e.value->limit);
  EXPECT_EQ(e.value->limit->kind, MoveLimit::Nodes);
  EXPECT_EQ(e.value->limit->value, 5000u);
  auto graded = parse_agent("engine level=2 threads=2 nodes=100");
  ASSERT_TRUE(graded) << graded.error;
  EXPECT_EQ(graded.value->level, 2);
  EXPECT_EQ(graded.value->threads, 2);
  EXPECT_EQ(graded.value->name, "engine-n100-l2-t2");
  auto tabled = parse_agent("engine time=100 table=2");
  ASSERT_TRUE(tabled) << tabled.error;
  EXPECT_EQ(tabled.value->table_mb, 2);
  EXPECT_EQ(tabled.value->name, "engine-100ms-tt2");
  EXPECT_EQ(parse_agent("engine table=0").error, "'table=0': table must be megabytes, 1 to 65536");
  EXPECT_EQ(parse_agent("engine level=9").error, "'level=9': level must be 1 to 5");
  auto old = parse_agent("arena=/opt/old/arena engine depth=3");
  ASSERT_TRUE(old) << old.error;
  EXPECT_EQ(old.value->arena_binary, "/opt/old/arena");
  EXPECT_TRUE(old.value->external());
  EXPECT_EQ(old.value->limit->kind, MoveLimit::Depth);
  EXPECT_EQ(old.value->name, "arena(/opt/old/arena)-engine-d3");
  auto bare = parse_agent("arena=/opt/old/arena");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare.value->kind, AgentSpec::Engine);
  auto p = parse_agent("protocol ./my-engine --fast");
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value->command, "./my-engine --fast");
  EXPECT_EQ(parse_agent("random").value->kind, AgentSpec::Random);
  EXPECT_EQ(parse_agent("soccer-ref 2").value->level, 2);
  // A course-protocol agent: its games are played whole through the course's referee.
  auto course = parse_agent("command ./alice --fast");
  ASSERT_TRUE(course) << course.error;
  EXPECT_EQ(course.value->kind, AgentSpec::Course);
  EXPECT_EQ(course.value->command, "./alice --fast");
  EXPECT_EQ(course.value->name, "alice");
  EXPECT_TRUE(course.value->external());
  EXPECT_FALSE(parse_agent("command"));
  EXPECT_EQ(parse_agent("engine time=100 depth=3").error,
            "engine takes one of time=MS, depth=N or nodes=N");
  EXPECT_EQ(parse_agent("engine speed=3").error,
            "engine option 'speed=3' is not time=MS, depth=N, nodes=N, threads=N, level=N or "
            "table=MB");
  EXPECT_EQ(parse_agent("engine nodes=0").error, "'nodes=0': nodes must be 1 to 10^12");
  EXPECT_EQ(parse_agent("engine time=100 time=200").value->limit->value, 200u);
  EXPECT_FALSE(parse_agent("greedy 3"));
  EXPECT_FALSE(parse_agent("arena= engine"));
  EXPECT_FALSE(parse_agent("wizard"));
}

TEST(MatchBooks, SplitsAndJoinsMoves) {
  EXPECT_EQ(split_moves(" B4,NE ;C5,SW;  "), (Opening{"B4,NE", "C5,SW", ""}));
  EXPECT_EQ(split_moves("3 0 1 7; 2 4 4"), (Opening{"3 0 1 7", "2 4 4"}));
  EXPECT_TRUE(split_moves("  ").empty());
  EXPECT_EQ(join_moves({"a1", "d7"}), "a1; d7");
}

TEST(MatchBooks, ChecksEveryLine) {
  const GameInfo& g = *find_game("morris");
  auto ok = parse_book(g, {}, "# comment\n\na1; d7  # +12\n g7 \n");
  ASSERT_TRUE(ok) << ok.error;
  ASSERT_EQ(ok.value->openings.size(), 2u);
  EXPECT_EQ(ok.value->openings[0], (Opening{"a1", "d7"}));
  EXPECT_EQ(ok.value->openings[1], Opening{"g7"});
  auto bad = parse_book(g, {}, "a1\na1; a1\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error.rfind("line 2: move 2 'a1'", 0), 0u) << bad.error;
  EXPECT_FALSE(parse_book(g, {}, "# nothing\n"));
}

TEST(MatchBooks, TheShippedBooksAreLegalAndDistinct) {
  for (const GameInfo& g : all_games()) {
    const auto path =
        std::filesystem::path(ARENA_SOURCE_DIR) / "data/books" / (std::string(g.name) + ".txt");
    auto book = read_book(g, {}, path);
    ASSERT_TRUE(book) << book.error;
    EXPECT_EQ(book.value->openings.size(), 2000u) << g.name;  // docs/match.md says why
    std::set<std::uint64_t> positions;
    for (const auto& o : book.value->openings)
      positions.insert((*position_after(g, {}, o).value)->hash());
    EXPECT_EQ(positions.size(), book.value->openings.size()) << g.name << ": a position twice";
  }
}

// Paper Soccer's book of openings near the start (docs/soccer-net.md): all 56 of 2 turns and 300
// of 3, legal and distinct.
TEST(MatchBooks, TheEarlySoccerBookIsLegalAndDistinct) {
  const GameInfo& g = *find_game("soccer");
  auto book =
      read_book(g, {}, std::filesystem::path(ARENA_SOURCE_DIR) / "data/books/soccer-early.txt");
  ASSERT_TRUE(book) << book.error;
  ASSERT_EQ(book.value->openings.size(), 356u);
  std::set<std::uint64_t> positions;
  std::size_t two_turns = 0;
  for (const auto& o : book.value->openings) {
    positions.insert((*position_after(g, {}, o).value)->hash());
    two_turns += o.size() == 2;
    EXPECT_TRUE(o.size() == 2 || o.size() == 3);
  }
  EXPECT_EQ(two_turns, 56u);
  EXPECT_EQ(positions.size(), book.value->openings.size());
}

// A book for games against outside engines: `count` legal, distinct openings, every score
// (the deepest judging search's) within +-150.
void expect_balanced_morris_book(const std::string& file, std::size_t count) {
  const GameInfo& g = *find_game("morris");
  const auto path = std::filesystem::path(ARENA_SOURCE_DIR) / "data/books" / file;
  auto book = read_book(g, {}, path);
  ASSERT_TRUE(book) << book.error;
  EXPECT_EQ(book.value->openings.size(), count);
  std::set<std::uint64_t> positions;
  for (const auto& o : book.value->openings)
    positions.insert((*position_after(g, {}, o).value)->hash());
  EXPECT_EQ(positions.size(), book.value->openings.size());
  std::ifstream f(path);
  std::string line;
  std::size_t scored = 0;
  while (std::getline(f, line)) {
    const auto hash = line.find("  # ");
    if (line.starts_with("#") || hash == std::string::npos) continue;
    ++scored;
    EXPECT_LE(std::abs(std::stoi(line.substr(hash + 4))), 150) << line;
  }
  EXPECT_EQ(scored, count);
}

// Judged at depths 5, 11 and 13; the deeper ones at 15 too, and at 15 and 17.
TEST(MatchBooks, TheBalancedMorrisBooksAreLegalDistinctAndNearZero) {
  expect_balanced_morris_book("morris-balanced.txt", 200);
  expect_balanced_morris_book("morris-deep.txt", 40);
  expect_balanced_morris_book("morris-deep17.txt", 30);
}

BookRecipe recipe(int positions, int plies, int depth, int max_eval, std::uint64_t seed) {
  BookRecipe r;
  r.positions = positions;
  r.plies = plies;
  r.depth = depth;
  r.max_eval = max_eval;
  r.seed = seed;
  return r;
}

TEST(MatchBooks, MakingABookIsReproducible) {
  const GameInfo& g = *find_game("fission");
  const BookRecipe r = recipe(3, 2, 2, 1000, 7);
  const auto a = make_book(g, {}, r);
  const auto b = make_book(g, {}, r);
  ASSERT_EQ(a.size(), 3u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].moves, b[i].moves);
    EXPECT_EQ(a[i].moves.size(), 2u);
    EXPECT_LE(std::abs(a[i].eval), 1000);
  }
}

TEST(MatchBooks, ThreadsDoNotChangeTheBook) {
  const GameInfo& g = *find_game("morris");
  BookRecipe r = recipe(6, 6, 3, 800, 5);  // kept: attempts 5, 8, 24, 25, 30 and 37
  std::vector<int> attempts_one, attempts_three;
  const auto one = make_book(g, {}, r, [&](const BookEntry&, int n) { attempts_one.push_back(n); });
  r.threads = 3;
  const auto three =
      make_book(g, {}, r, [&](const BookEntry&, int n) { attempts_three.push_back(n); });
  ASSERT_EQ(one.size(), 6u);
  ASSERT_EQ(three.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].moves, three[i].moves);
    EXPECT_EQ(one[i].eval, three[i].eval);
  }
  EXPECT_EQ(attempts_one, attempts_three);
}

TEST(MatchBooks, AConfirmingSearchKeepsOnlyWhatBothDepthsScoreNearZero) {
  const GameInfo& g = *find_game("morris");
  constexpr int kAttempts = 35;
  BookRecipe r = recipe(12, 6, 3, 150, 7);
  r.max_attempts = kAttempts;
  r.confirm_depths = {7};
  r.threads = 2;
  const auto confirmed = make_book(g, {}, r);
  ASSERT_FALSE(confirmed.empty());
  // Every confirmed opening passed the shallow search too, in the same order of attempts, and
  // the deep search's score is the one kept.
  std::vector<Opening> shallow_lines;
  for (const auto& e : make_book(g, {}, [&] {
         auto all = r;
         all.confirm_depths.clear();
         all.positions = kAttempts;
         return all;
       }()))
    shallow_lines.push_back(e.moves);
  std::size_t from = 0;
  for (const auto& e : confirmed) {
    const auto it = std::find(shallow_lines.begin() + static_cast<std::ptrdiff_t>(from),
                              shallow_lines.end(), e.moves);
    ASSERT_NE(it, shallow_lines.end()) << join_moves(e.moves);
    from = static_cast<std::size_t>(it - shallow_lines.begin()) + 1;
    EXPECT_LE(std::abs(e.eval), 150);
    PlayerSpec deep;
    deep.kind = PlayerKind::Engine;
    deep.depth = 7;
    deep.contempt = false;
    auto engine = g.make_player(deep);
    engine->choose(**position_after(g, {}, e.moves).value);
    EXPECT_EQ(engine->last_search()->eval, e.eval) << join_moves(e.moves);
  }
  // The deeper search turns some of them down (two of this seed's 3).
  EXPECT_LT(confirmed.size(), shallow_lines.size());
}

TEST(MatchOrder, IsAPermutationFixedByTheSeed) {
  const auto a = opening_order(50, 3, true), b = opening_order(50, 3, true);
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::set<int>(a.begin(), a.end()).size(), 50u);
  EXPECT_NE(a, opening_order(50, 4, true));
  EXPECT_EQ(opening_order(3, 3, false), (std::vector<int>{0, 1, 2}));
}

// --- games -------------------------------------------------------------------------------------

// Remembers what it was asked; answers a fixed move text or the first legal move.
class ScriptedAgent final : public MatchAgent {
 public:
  explicit ScriptedAgent(std::string answer = {}) : answer_(std::move(answer)) {}
  MoveAnswer choose(const AnyState& state, const Opening& moves) override {
    if (calls_++ == 0) first_moves = moves;
    MoveAnswer a;
    a.move = answer_.empty() ? state.legal_moves().front() : answer_;
    return a;
  }
  Opening first_moves;

 private:
  std::string answer_;
  int calls_ = 0;
};

MatchSettings fission_settings() {
  MatchSettings s;
  s.context.game = find_game("fission");
  s.context.limit = {MoveLimit::Depth, 2};
  return s;
}

// Three openings of two plies: the k-th legal first move, then Black's first legal reply.
std::vector<Opening> fission_openings() {
  const GameInfo& g = *find_game("fission");
  std::vector<Opening> out;
  for (std::size_t k = 0; k < 3; ++k) {
    auto s = g.start({});
    const std::string first = s->legal_moves().at(k);
    EXPECT_TRUE(s->play(first));
    out.push_back({first, s->legal_moves().front()});
  }
  return out;
}

TEST(MatchGames, StartFromTheOpening) {
  MatchSettings s = fission_settings();
  const Opening opening = fission_openings()[1];
  ScriptedAgent white, black;
  const GameResult r = play_game(s, opening, white, black, Side::White);
  EXPECT_EQ(white.first_moves, opening);  // White moves first after two plies
  ASSERT_GE(black.first_moves.size(), 3u);
  EXPECT_EQ(Opening(black.first_moves.begin(), black.first_moves.begin() + 2), opening);
  EXPECT_NE(r.outcome, Outcome::Ongoing);
  EXPECT_FALSE(r.fault);
}

TEST(MatchGames, AnIllegalMoveLoses) {
  MatchSettings s = fission_settings();
  ScriptedAgent white, black("Z9,N");
  const GameResult r = play_game(s, {}, white, black, Side::Black);  // A is Black
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.reason, "illegal-move");
  ASSERT_TRUE(r.fault_by);
  EXPECT_EQ(*r.fault_by, 0);  // A, who played Black
  EXPECT_EQ(r.a_points, 0.0);
  EXPECT_EQ(r.plies, 1);
}

TEST(MatchGames, ACrashAndATimeoutOfAProgramLose) {
  MatchSettings s = fission_settings();
  s.context.limit = {MoveLimit::Time, 200};
  ScriptedAgent white;
  {
    // Dies at once.
    auto dead = make_agent(*parse_agent("protocol exit 3").value, s.context);
    const GameResult r = play_game(s, {}, *dead, white, Side::White);
    EXPECT_EQ(r.reason, "crash");
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
    EXPECT_NE(r.detail.find("exited with status 3"), std::string::npos) << r.detail;
  }
  {
    // Says uciok, then never answers: lost at the 200 ms deadline (it would sleep 30 s).
    auto mute = make_agent(*parse_agent("protocol read x; echo uciok; sleep 30").value, s.context);
    const GameResult r = play_game(s, {}, *mute, white, Side::White);
    EXPECT_EQ(r.reason, "timeout");
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
  }
}

TEST(MatchRuns, EnginePairsAgainstRandomFromTheBook) {
  MatchSettings s = fission_settings();
  s.agents = {*parse_agent("engine depth=2").value, *parse_agent("random").value};
  s.openings = fission_openings();
  s.pairs = 3;
  s.concurrency = 2;
  std::vector<GameResult> heard;
  int progress_calls = 0;
  MatchCallbacks cb;
  cb.on_game = [&](const GameResult& r) { heard.push_back(r); };
  cb.on_progress = [&](const MatchProgress& p) {
    ++progress_calls;
    EXPECT_EQ(p.pairs_done, progress_calls);
    EXPECT_EQ(p.counts.pairs(), static_cast<std::uint64_t>(progress_calls));
  };
  const MatchOutcome out = run_match(s, cb);
  EXPECT_EQ(progress_calls, 3);
  EXPECT_EQ(out.progress.pairs_done, 3);
  EXPECT_EQ(out.progress.counts.games(), 6u);
  EXPECT_EQ(out.progress.counts.pairs(), 3u);
  ASSERT_EQ(out.games.size(), 6u);
  EXPECT_EQ(heard.size(), 6u);
  // Every pair: both colours, one opening; every opening used once.
  std::set<int> openings;
  for (int pair = 0; pair < 3; ++pair) {
    std::vector<const GameResult*> games;
    for (const auto& g : out.games)
      if (g.pair == pair) games.push_back(&g);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_NE(games[0]->game, games[1]->game);
    EXPECT_EQ(games[0]->opening, games[1]->opening);
    openings.insert(games[0]->opening);
  }
  EXPECT_EQ(openings, (std::set<int>{0, 1, 2}));
  double points = 0;
  for (const auto& g : out.games) {
    EXPECT_FALSE(g.fault) << g.detail;
    points += g.a_points;
  }
  EXPECT_DOUBLE_EQ(points, out.progress.counts.score() * 6);
  EXPECT_EQ(out.progress.faults[0].total() + out.progress.faults[1].total(), 0);
}

TEST(MatchRuns, TheSprtStopsTheMatch) {
  // Greedy against random in Fission from the start: decided long before 200 pairs.
  MatchSettings s = fission_settings();
  s.agents = {*parse_agent("engine depth=1").value, *parse_agent("random").value};
  s.openings = {Opening{}};
  s.pairs = 200;
  SprtSettings sprt;
  sprt.elo0 = 0;
  sprt.elo1 = 50;
  sprt.alpha = 0.2;
  sprt.beta = 0.2;
  sprt.model = SprtModel::Logistic;
  s.sprt = sprt;
  const MatchOutcome out = run_match(s);
  EXPECT_NE(out.progress.decision, SprtDecision::Continue);
  EXPECT_LT(out.progress.pairs_done, 200);
  ASSERT_TRUE(out.progress.llr);
  EXPECT_EQ(*out.progress.llr, llr_pentanomial(out.progress.counts, sprt));
}

TEST(MatchRuns, AnotherArenaBuildPlaysOverTheEngineProtocol) {
  MatchSettings s = fission_settings();
  // table= reaches the other build as --table (an option it refused would fault every game).
  s.agents = {*parse_agent(std::string("arena=") + ARENA_BINARY + " engine depth=1 table=1").value,
              *parse_agent("random").value};
  s.openings = fission_openings();
  s.pairs = 1;
  const MatchOutcome out = run_match(s);
  ASSERT_EQ(out.games.size(), 2u);
  for (const auto& g : out.games) {
    EXPECT_FALSE(g.fault) << g.reason << ": " << g.detail;
    EXPECT_GT(g.plies, 0);
  }
}

// --- the engine protocol ------------------------------------------------------------------------

// Runs `arena engine ...` with `input` on its stdin; everything it printed.
std::string engine_output(const std::vector<std::string>& args, const std::string& input) {
  std::string command = fmt::format("{} engine", shell_quote(ARENA_BINARY));
  for (const auto& a : args) command += fmt::format(" {}", shell_quote(a));
  ChildProcess child(command, 1 << 16, BotStderr::Discard);
  EXPECT_TRUE(child.write(input, milliseconds(5000)));
  child.close_input();
  std::string out;
  while (true) {
    ReadLimits limits;
    limits.wall = milliseconds(30'000);
    const ReadOutcome r = child.read_line(limits);
    if (r.status != ReadStatus::Line) {
      EXPECT_EQ(r.status, ReadStatus::Closed);
      break;
    }
    out += r.line + "\n";
  }
  EXPECT_TRUE(child.wait_exit(milliseconds(5000)));
  EXPECT_TRUE(child.exited_cleanly()) << child.exit_description();
  return out;
}

TEST(EngineProtocol, AnswersThroughPipesByteForByte) {
  const GameInfo& g = *find_game("fission");
  const Opening opening = fission_openings()[2];
  auto pos = std::move(*position_after(g, {}, opening).value);
  // The same players in this process give the expected answers.
  PlayerSpec greedy_spec;
  greedy_spec.kind = PlayerKind::Greedy;
  greedy_spec.seed = 5;
  const std::string greedy_move = g.make_player(greedy_spec)->choose(*pos);
  PlayerSpec engine_spec;
  engine_spec.depth = 2;
  auto engine = g.make_player(engine_spec);
  const std::string engine_move = engine->choose(*pos);
  const SearchSummary summary = *engine->last_search();

  const std::string input = "uci\nisready\nposition startpos moves " + join_moves(opening) +
                            "\ngo\nfrobnicate\nposition startpos moves Z9,N\ngo\nquit\n";
  EXPECT_EQ(engine_output({"fission", "--player", "greedy", "--seed", "5"}, input),
            "id name arena fission greedy\n"
            "uciok\n"
            "readyok\n"
            "bestmove " +
                greedy_move +
                "\n"
                "error unknown command 'frobnicate'\n"
                "error move 1 'Z9,N': " +
                std::string(pos->clone()->play("Z9,N").error) +
                "\n"
                "error go needs a position\n");
  EXPECT_EQ(engine_output({"fission"},
                          "position startpos moves " + join_moves(opening) + "\ngo depth 2\n"),
            fmt::format("info depth {} score {}\nbestmove {}\n", summary.depth, summary.eval,
                        engine_move));
}

TEST(EngineProtocol, PlaysPaperSoccerTurnsWithSpaces) {
  std::istringstream in("position startpos\ngo depth 1\nquit\n");
  std::ostringstream out;
  EngineProtocolOptions o;
  EXPECT_EQ(run_engine_protocol(*find_game("soccer"), o, in, out), 0);
  const std::string text = out.str();
  const auto at = text.find("bestmove ");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string move = text.substr(at + 9, text.find('\n', at) - at - 9);
  auto s = find_game("soccer")->start({});
  EXPECT_TRUE(s->play(move)) << move;
  // The answer, sent back in a position, is accepted.
  std::istringstream in2("position startpos moves " + move + "\ngo depth 1\n");
  std::ostringstream out2;
  run_engine_protocol(*find_game("soccer"), o, in2, out2);
  EXPECT_NE(out2.str().find("bestmove "), std::string::npos) << out2.str();
  EXPECT_EQ(out2.str().find("error"), std::string::npos) << out2.str();
}

// --- the command line ---------------------------------------------------------------------------

std::string run_arena(const std::vector<std::string>& args, int expect_exit = 0) {
  std::vector<std::string> argv{ARENA_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  testing::Process p(argv);
  const auto code = p.wait(milliseconds(120'000));
  EXPECT_EQ(code, expect_exit) << p.err();
  return p.out() + p.err();
}

// A book file of the three fission_openings() in `dir`.
std::filesystem::path write_fission_book(const testing::TempDir& dir) {
  const auto book = dir.path() / "book.txt";
  std::ofstream f(book);
  for (const auto& o : fission_openings()) f << join_moves(o) << "\n";
  return book;
}

TEST(MatchCli, PlaysAShortMatchFromABookFile) {
  testing::TempDir dir;
  const auto book = write_fission_book(dir);
  const std::string out = run_arena({"match", "fission", "engine depth=2", "random", "--book",
                                     book.string(), "--pairs", "2", "--sprt", "elo0=0 elo1=20"});
  EXPECT_NE(out.find("Pairs 1/2 games 2: engine-d2 vs random: "), std::string::npos) << out;
  EXPECT_NE(out.find("Pairs 2/2 games 4: "), std::string::npos) << out;
  EXPECT_NE(out.find("LLR "), std::string::npos) << out;
  EXPECT_NE(out.find("Finished: 2 pairs, 4 games"), std::string::npos) << out;
  EXPECT_NE(out.find("SPRT: "), std::string::npos) << out;
}

// Games played in-process keep records too: every move from the start, the opening's included,
// that replay to the result the match counted.
TEST(MatchCli, KeepsTheRecordOfEveryGame) {
  testing::TempDir dir;
  const auto book = write_fission_book(dir);
  const std::filesystem::path records = dir.path() / "records" / "fission";
  const std::string out =
      run_arena({"match", "fission", "deep: engine depth=2", "random", "--book", book.string(),
                 "--book-order", "--pairs", "2", "-v", "--records", records.string()});
  EXPECT_NE(out.find("Records: " + records.string()), std::string::npos) << out;
  const GameInfo& g = *find_game("fission");
  const auto openings = *read_book(g, {}, book).value;
  const char* names[] = {"0001-deep-vs-random.json", "0002-random-vs-deep.json",
                         "0003-deep-vs-random.json", "0004-random-vs-deep.json"};
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(names[i]);
    const GameRecord r = read_record(records / names[i]);
    EXPECT_EQ(r.game, "fission");
    EXPECT_EQ(r.white.name, i % 2 == 0 ? "deep" : "random");
    EXPECT_EQ(r.white.address, i % 2 == 0 ? "engine depth=2" : "random");
    EXPECT_EQ(r.settings["match"]["pair"], i / 2 + 1);
    EXPECT_EQ(r.settings["match"]["game"], i % 2 + 1);
    const Opening& opening = openings.openings[static_cast<std::size_t>(i / 2)];
    EXPECT_EQ(r.settings["match"]["opening"], i / 2 + 1);
    ASSERT_GT(r.moves.size(), opening.size());
    auto state = g.start({});
    for (std::size_t k = 0; k < r.moves.size(); ++k) {
      if (k < opening.size()) {
        EXPECT_EQ(r.moves[k].move, opening[k]);
        EXPECT_EQ(r.moves[k].time_ms, 0);
      }
      EXPECT_EQ(r.moves[k].side, state->side_to_move());
      ASSERT_TRUE(state->play(r.moves[k].move)) << r.moves[k].move;
    }
    // The engine's moves carry its score; the game ended where the record says.
    for (std::size_t k = opening.size(); k < r.moves.size(); ++k)
      EXPECT_EQ(r.moves[k].depth.has_value(),
                r.moves[k].side == (i % 2 == 0 ? Side::White : Side::Black));
    EXPECT_EQ(state->result().outcome, r.outcome);
    EXPECT_EQ(r.reason, std::string(state->result().reason));
  }
  // A folder that cannot be made is refused before any game.
  const std::string refused =
      run_arena({"match", "fission", "engine depth=1", "random", "--book", book.string(), "--pairs",
                 "1", "--records", (records / names[0] / "x").string()},
                2);
  EXPECT_NE(refused.find("--records: cannot make the folder"), std::string::npos) << refused;
}

// A course-protocol bot (`command ...`: here arena's own soccer-bot run as a program) plays from
// the start position, once with each colour, judged by the course's referee as in tournaments.
TEST(MatchCli, PlaysPaperSoccerAgainstACourseProtocolBot) {
  testing::TempDir dir;
  const std::string bot =
      fmt::format("bot: command {} soccer-bot --player random", shell_quote(ARENA_BINARY));
  const std::string out =
      run_arena({"match", "soccer", "engine level=1", bot, "--book", "none", "--games", "2",
                 "--move-time", "200", "-v", "--records", dir.path().string()});
  EXPECT_NE(out.find("judged by the course's referee, arena soccer-referee -t 0.2 "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Game 1 (opening 1): engine-l1 (White) vs bot (Black): "), std::string::npos)
      << out;
  EXPECT_NE(out.find("Game 2 (opening 1): bot (White) vs engine-l1 (Black): "), std::string::npos)
      << out;
  EXPECT_EQ(out.find("(illegal-move"), std::string::npos) << out;
  EXPECT_NE(out.find("Finished: 1 pairs, 2 games"), std::string::npos) << out;
  const auto wdl = out.find("Pairs 1/1 games 2: engine-l1 vs bot: W ");
  ASSERT_NE(wdl, std::string::npos) << out;
  int w = -1, d = -1, l = -1;
  ASSERT_EQ(std::sscanf(out.c_str() + wdl, "Pairs 1/1 games 2: engine-l1 vs bot: W %d D %d L %d",
                        &w, &d, &l),
            3);
  EXPECT_EQ(w + d + l, 2) << out;
  int records = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    records += e.path().extension() == ".json";
  EXPECT_EQ(records, 2);
  // From a book it cannot start: refused, saying what to do.
  const std::string booked =
      run_arena({"match", "soccer", "engine level=1", bot, "--games", "2"}, 2);
  EXPECT_NE(booked.find("error: course-protocol agents start from the initial position: add "
                        "--book none"),
            std::string::npos)
      << booked;
  const std::string fission =
      run_arena({"match", "fission", "command ./alice", "random", "--depth", "1"}, 2);
  EXPECT_NE(fission.find("add --book none"), std::string::npos) << fission;
}

// Morris and Paper Soccer have no move limit: the limit's options are refused, not ignored (a
// Morris match given --moves-per-player 150 used to play on to its 5,000-ply cap).
TEST(MatchCli, GamesWithoutAMoveLimitRefuseItsOptions) {
  const std::string morris = run_arena(
      {"match", "morris", "random", "random", "--pairs", "1", "--moves-per-player", "150"}, 2);
  EXPECT_NE(morris.find("Nine Men's Morris has no move limit: --moves-per-player and "
                        "--limit-rule do not apply"),
            std::string::npos)
      << morris;
  const std::string soccer =
      run_arena({"play", "soccer", "--white", "random", "--limit-rule", "more-stones"}, 1);
  EXPECT_NE(soccer.find("Paper Soccer has no move limit"), std::string::npos) << soccer;
  const std::string fission =
      run_arena({"play", "fission", "--white", "random", "--moves-per-player", "3", "--limit-rule",
                 "more-stones", "-q"});
  EXPECT_NE(fission.find("after 6 plies (move-limit"), std::string::npos) << fission;
  // What they take instead: a ply cap, after which a game is a draw.
  const std::string capped = run_arena({"match", "morris", "random", "random", "--book", "none",
                                        "--pairs", "1", "--max-plies", "20", "-v"});
  EXPECT_NE(capped.find("draw after 20 plies (ply-limit: still going after 20 plies)"),
            std::string::npos)
      << capped;
}

TEST(MatchCli, AtAFixedDepthStopsWhenTheBookIsPlayed) {
  // Two engines at a fixed depth would replay the same pair for every pass over the book.
  testing::TempDir dir;
  const auto book = write_fission_book(dir);
  const std::string out = run_arena({"match", "fission", "engine depth=1", "engine depth=2",
                                     "--book", book.string(), "--pairs", "5"});
  EXPECT_NE(out.find("3 pairs from 3 openings"), std::string::npos) << out;
  EXPECT_NE(out.find("the match stops after the book's 3 openings"), std::string::npos) << out;
  EXPECT_NE(out.find("Finished: 3 pairs, 6 games"), std::string::npos) << out;
  // At a move time the games differ, and the pairs asked for are played.
  const std::string timed = run_arena({"match", "fission", "engine depth=1", "engine time=20",
                                       "--book", book.string(), "--pairs", "4", "-j", "2"});
  EXPECT_NE(timed.find("Finished: 4 pairs, 8 games"), std::string::npos) << timed;
  EXPECT_EQ(timed.find("the match stops"), std::string::npos) << timed;
  // Two threads share their table in the scheduler's order: their games differ too.
  const std::string threaded =
      run_arena({"match", "fission", "engine depth=1 threads=2", "engine depth=2", "--book",
                 book.string(), "--pairs", "4"});
  EXPECT_NE(threaded.find("Finished: 4 pairs, 8 games"), std::string::npos) << threaded;
  EXPECT_EQ(threaded.find("the match stops"), std::string::npos) << threaded;
}

TEST(MatchCli, ByDefaultPlaysEachOpeningOnceUpToAHundredPairs) {
  testing::TempDir dir;
  const auto book = write_fission_book(dir);
  const std::string small =
      run_arena({"match", "fission", "random", "greedy", "--book", book.string()});
  EXPECT_NE(small.find("3 pairs from 3 openings"), std::string::npos) << small;
  EXPECT_NE(small.find("Finished: 3 pairs, 6 games"), std::string::npos) << small;
  // The shipped book (data/books/murus.txt, found without --book) has 2,000 openings.
  const std::string shipped = run_arena({"match", "murus", "random", "greedy", "-j", "2"});
  EXPECT_NE(shipped.find("100 pairs from 2000 openings"), std::string::npos) << shipped;
  EXPECT_NE(shipped.find("Finished: 100 pairs, 200 games"), std::string::npos) << shipped;
}

// --- the bench signature ------------------------------------------------------------------------

TEST(BenchSignature, IsDeterministicAndPrintedLast) {
  std::vector<BenchSearch> searches;
  const std::uint64_t a = bench_signature([&](const BenchSearch& b) { searches.push_back(b); });
  const std::uint64_t b = bench_signature();
  EXPECT_EQ(a, b);
  std::uint64_t sum = 0;
  std::set<std::string_view> games;
  for (const auto& s : searches) {
    sum += s.nodes;
    games.insert(s.game);
    EXPECT_GT(s.nodes, 0u);
  }
  EXPECT_EQ(sum, a);
  EXPECT_EQ(games.size(), all_games().size());
  std::string out = run_arena({"bench", "--signature"});
  while (!out.empty() && out.back() == '\n') out.pop_back();
  EXPECT_EQ(out.substr(out.rfind('\n') + 1), "Bench: " + std::to_string(a));
}

}  // namespace
}  // namespace arena::match
