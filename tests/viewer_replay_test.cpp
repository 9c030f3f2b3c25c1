// `arena replay` on a pipe (the whole game as text) and the terminal drawing of every kind of
// view. Expected boards are written out here by hand from the rules, not taken from the program.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "view/terminal_board.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

// A Fission board as `arena replay` prints it without colour, from the lists of stones.
std::string board(const std::vector<std::string>& white, const std::vector<std::string>& black) {
  std::string out = "  1 2 3 4 5 6 7 8\n";
  for (char r = 'A'; r <= 'H'; ++r) {
    std::string line(1, r);
    for (char c = '1'; c <= '8'; ++c) {
      const std::string cell = {r, c};
      const bool w = std::count(white.begin(), white.end(), cell) > 0;
      const bool b = std::count(black.begin(), black.end(), cell) > 0;
      line += w ? " ○" : b ? " ●" : " ·";
    }
    out += line + "\n";
  }
  out += "Stones: White " + std::to_string(white.size()) + ", Black " +
         std::to_string(black.size()) + "\n";
  return out;
}

GameRecord four_plies() {
  GameRecord r;
  r.game = "fission";
  r.white = {"Group 0", "127.0.0.1:1"};
  r.black = {"Group 1", "127.0.0.1:2"};
  r.started_at = "2026-01-02T03:04:05Z";
  r.moves = {{1, Side::White, "B4,N", 12},
             {2, Side::Black, "C6,NE", 7},
             {3, Side::White, "D6,NE", 30},
             {4, Side::Black, "D5,NE", 5}};
  r.outcome = Outcome::Ongoing;
  r.reason = "aborted";
  r.detail = "the server was stopped";
  return r;
}

TEST(Replay, OnAPipePrintsTheWholeGame) {
  TempDir dir;
  const auto file = dir.path() / "game.json";
  write_record(file, four_plies());
  Process p({ARENA_BINARY, "replay", file.string()});
  ASSERT_EQ(p.wait(20s), 0) << p.err();
  // The start position of shared/spec/fission.md, then each move by hand:
  std::vector<std::string> w = {"B4", "C3", "C5", "D2", "D4", "D6",
                                "E3", "E5", "E7", "F4", "F6", "G5"};
  std::vector<std::string> b = {"B5", "C4", "C6", "D3", "D5", "D7",
                                "E2", "E4", "E6", "F3", "F5", "G4"};
  const auto move = [](std::vector<std::string>& v, const std::string& from,
                       const std::string& to) { *std::find(v.begin(), v.end(), from) = to; };
  const auto remove = [](std::vector<std::string>& v, const std::string& cell) {
    v.erase(std::find(v.begin(), v.end(), cell));
  };
  std::string expected =
      "Fission: Group 0 (White) vs Group 1 (Black)\n"
      "Started 2026-01-02T03:04:05Z\n"
      "\nStart position (4 plies)\n" +
      board(w, b);
  move(w, "B4", "A4");  // slides north to the edge: nothing else happens
  expected += "\nPly 1/4: White B4,N (12 ms)\n" + board(w, b);
  move(b, "C6", "A8");  // over B7 to the corner
  expected += "\nPly 2/4: Black C6,NE (7 ms)\n" + board(w, b);
  move(w, "D6", "B8");  // over C7 to the edge
  expected += "\nPly 3/4: White D6,NE (30 ms)\n" + board(w, b);
  // D5 slides over C6 to B7 and hits A8: B7's stone and its neighbours A8 (Black), B8 (White) go.
  remove(b, "D5");
  remove(b, "A8");
  remove(w, "B8");
  expected += "\nPly 4/4: Black D5,NE (5 ms)\n" + board(w, b);
  expected += "\nResult: Not finished (aborted: the server was stopped)\n";
  EXPECT_EQ(p.out(), expected);
}

TEST(Replay, AMoveThatCannotBeReplayedIsReported) {
  TempDir dir;
  auto r = four_plies();
  r.moves[2].move = "A1,N";  // no stone there
  write_record(dir.path() / "bad.json", r);
  Process p({ARENA_BINARY, "replay", (dir.path() / "bad.json").string()});
  EXPECT_EQ(p.wait(20s), 1);
  EXPECT_NE(p.out().find("\nerror: ply 3: 'A1,N' cannot be replayed: "), std::string::npos)
      << p.out();
  EXPECT_NE(p.out().find("Ply 2/4: Black C6,NE"), std::string::npos);
  EXPECT_EQ(p.out().find("Ply 3/4"), std::string::npos);
}

TEST(Replay, UnreadableFilesGiveAClearError) {
  TempDir dir;
  Process missing({ARENA_BINARY, "replay", (dir.path() / "none.json").string()});
  EXPECT_EQ(missing.wait(20s), 1);
  EXPECT_NE(missing.err().find("error: cannot open"), std::string::npos) << missing.err();
  write_record(dir.path() / "x.json", four_plies());
  std::filesystem::resize_file(dir.path() / "x.json", 40);  // cut in half
  Process cut({ARENA_BINARY, "replay", (dir.path() / "x.json").string()});
  EXPECT_EQ(cut.wait(20s), 1);
  EXPECT_NE(cut.err().find("is not valid JSON"), std::string::npos) << cut.err();
}

// ---- the drawing of each kind of view (what Murus, Morris and Soccer will give) -------------

TEST(TerminalBoard, GridStacksAreTowers) {
  const auto v = nlohmann::json::parse(R"({"kind":"grid","rows":2,"cols":3,
      "rowLabels":["A","B"],"colLabels":["1","2","3"],"cells":["WW","B","","","BB","W"]})");
  EXPECT_EQ(view::draw_terminal(v, nullptr, false),
            "  1 2 3\n"
            "A ◎ ● ·\n"
            "B · ◉ ○\n");
}

TEST(TerminalBoard, ColourMarksPiecesAndWhatChanged) {
  const auto before =
      nlohmann::json::parse(R"({"kind":"grid","rows":1,"cols":2,"cells":["W",""]})");
  const auto after = nlohmann::json::parse(R"({"kind":"grid","rows":1,"cols":2,"cells":["","W"]})");
  const std::string s = view::draw_terminal(after, &before, true);
  EXPECT_NE(s.find("\x1b[43m\x1b[2m·\x1b[0m\x1b[0m"), std::string::npos) << s;  // emptied: marked
  EXPECT_NE(s.find("\x1b[43m\x1b[1;97m○\x1b[0m\x1b[0m"), std::string::npos) << s;  // arrived
  EXPECT_EQ(view::draw_terminal(after, &before, false), "  1 2\n1 · ○\n");
}

TEST(TerminalBoard, MorrisIsTheCourseServersPrintout) {
  const auto v = nlohmann::json::parse(
      R"({"kind":"morris","points":{"a1":"W","d1":"W","g7":"B","d5":"B"},"inHand":{"white":7,"black":7}})");
  EXPECT_EQ(view::draw_terminal(v, nullptr, false),
            "7 ·────────·────────●\n"
            "6 │──·─────·─────·──│\n"
            "5 │──│──·──●──·──│──│\n"
            "4 ·──·──·     ·──·──·\n"
            "3 │──│──·──·──·──│──│\n"
            "2 │──·─────·─────·──│\n"
            "1 ○────────○────────·\n"
            "  a  b  c  d  e  f  g\n"
            "In hand: White 7, Black 7\n");
}

TEST(TerminalBoard, SoccerShowsTheWholePathOfTheBall) {
  // A small field (x -2..2, y -1..1) with goals of three points; White went north-east, Black
  // came back west: the ball's whole path, the border, the goals and the ball.
  const auto v = nlohmann::json::parse(R"({"kind":"soccer","xMin":-2,"xMax":2,"yMin":-1,"yMax":1,
      "goalWidth":1,"ball":[0,1],"turns":[{"side":"white","points":[[0,0],[1,1]]},
      {"side":"black","points":[[1,1],[0,1]]}]})");
  EXPECT_EQ(view::draw_terminal(v, nullptr, false),
            "    ·───·───·\n"
            "    │       │\n"
            "·───·   ●───·───·\n"
            "│         ╱     │\n"
            "·   ·   ·   ·   ·\n"
            "│               │\n"
            "·───·   ·   ·───·\n"
            "    │       │\n"
            "    ·───·───·\n");
}

TEST(TerminalBoard, UnknownKindsAndBadInputDoNotCrash) {
  EXPECT_EQ(
      view::draw_terminal(nlohmann::json::parse(R"({"kind":"text","text":"abc"})"), nullptr, false),
      "abc\n");
  EXPECT_NE(view::draw_terminal(nlohmann::json::parse(R"({"kind":"hex"})"), nullptr, false)
                .find("no drawing"),
            std::string::npos);
  EXPECT_NO_THROW(
      view::draw_terminal(nlohmann::json::parse(R"({"kind":"grid","rows":"x"})"), nullptr, true));
  EXPECT_NO_THROW(view::draw_terminal(
      nlohmann::json::parse(R"({"kind":"grid","rows":100,"cols":100,"cells":[1]})"), nullptr,
      false));
  EXPECT_NO_THROW(view::draw_terminal(
      nlohmann::json::parse(
          R"({"kind":"soccer","turns":[{"points":[[0],[99,99],"x"]}],"ball":"x"})"),
      nullptr, true));
  EXPECT_NO_THROW(view::draw_terminal(nlohmann::json::parse(R"({"kind":"morris","points":[1,2]})"),
                                      nullptr, true));
  EXPECT_NO_THROW(view::draw_terminal(nlohmann::json::parse("[1,2]"), nullptr, true));
  EXPECT_NO_THROW(view::draw_terminal(nlohmann::json::parse(R"({"kind":"grid"})"), nullptr, true));
  EXPECT_NO_THROW(view::draw_terminal(
      nlohmann::json::parse(
          R"({"kind":"soccer","xMin":1e300,"yMax":18446744073709551615,"ball":[99999999999,1]})"),
      nullptr, true));
  const auto grid = nlohmann::json::parse(R"({"kind":"grid","rows":1,"cols":1,"cells":["W"]})");
  const auto odd_prev = nlohmann::json::parse(R"({"kind":5})");
  EXPECT_NO_THROW(view::draw_terminal(grid, &odd_prev, true));
}

}  // namespace
}  // namespace arena

// ---- on a terminal: the course viewer's keys (a real pseudo-terminal) --------------------------

namespace arena {
namespace {

// `arena replay` on a pseudo-terminal, fed keys; every wait has a deadline.
class Terminal {
 public:
  explicit Terminal(const std::string& record) {
    pid_ = ::forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      ::setenv("NO_COLOR", "1", 1);
      ::execl(ARENA_BINARY, ARENA_BINARY, "replay", record.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) ::close(fd_);
  }
  bool started() const { return pid_ > 0; }
  void press(std::string_view keys) {
    EXPECT_EQ(::write(fd_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }
  // Reads until `text` has appeared after the last call (true), or the deadline / end (false).
  bool await(const std::string& text, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (screen_.find(text, mark_) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
      char buf[4096];
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) return false;
      screen_.append(buf, static_cast<std::size_t>(n));
    }
    mark_ = screen_.find(text, mark_) + text.size();
    return true;
  }
  std::optional<int> wait_exit() {
    for (int i = 0; i < 1000; ++i) {  // 10 s
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        while (await("\x01", 200ms)) {  // what it wrote last is still in the terminal
        }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      if (!await("\x01", 10ms))  // keep the terminal drained; once it is closed, just wait
        std::this_thread::sleep_for(10ms);
    }
    return std::nullopt;
  }
  const std::string& screen() const { return screen_; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  std::string screen_;
  std::size_t mark_ = 0;
};

TEST(Replay, OnATerminalTheCourseViewerKeysStepThroughTheGame) {
  TempDir dir;
  const auto file = dir.path() / "game.json";
  write_record(file, four_plies());
  Terminal t(file.string());
  ASSERT_TRUE(t.started());
  ASSERT_TRUE(t.await("Start position (4 plies)")) << t.screen();
  t.press("d");
  ASSERT_TRUE(t.await("Ply 1/4: White B4,N (12 ms)")) << t.screen();
  t.press("D");
  ASSERT_TRUE(t.await("Ply 2/4: Black C6,NE (7 ms)")) << t.screen();
  t.press("a");
  ASSERT_TRUE(t.await("Ply 1/4: White B4,N")) << t.screen();
  t.press("\x1b[C");  // right arrow
  ASSERT_TRUE(t.await("Ply 2/4")) << t.screen();
  t.press("\x1b[F");  // End: the last ply shows the result
  ASSERT_TRUE(t.await("Ply 4/4: Black D5,NE (5 ms)")) << t.screen();
  ASSERT_TRUE(t.await("Result: Not finished (aborted: the server was stopped)")) << t.screen();
  t.press("d");       // nothing after the end
  t.press("\x1b[D");  // left arrow
  ASSERT_TRUE(t.await("Ply 3/4: White D6,NE")) << t.screen();
  t.press("\x1b[H");  // Home
  ASSERT_TRUE(t.await("Start position")) << t.screen();
  t.press("\x1b");  // Esc alone quits, as in the course viewer
  EXPECT_EQ(t.wait_exit(), 0) << t.screen();
  EXPECT_NE(t.screen().find("\x1b[?1049l"), std::string::npos);  // the screen is given back
}

TEST(Replay, OnATerminalAGameInProgressIsFollowed) {
  TempDir dir;
  const auto file = dir.path() / "live.json";
  auto r = four_plies();
  r.moves.resize(1);
  write_live_record(file, r);
  Terminal t(file.string());
  ASSERT_TRUE(t.await("Start position (1 plies)")) << t.screen();
  t.press(">");
  ASSERT_TRUE(t.await("Result: Game in progress")) << t.screen();
  r.moves = four_plies().moves;
  r.moves.resize(2);
  write_live_record(file, r);  // the referee writes the next move: the replay moves on by itself
  ASSERT_TRUE(t.await("Ply 2/2: Black C6,NE")) << t.screen();
  t.press("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

}  // namespace
}  // namespace arena
