// A Paper Soccer bot for the Bucharest course's referee (docs/soccer-protocol.md) around the
// header-only engine of jdermont/QtPaperSoccer (Apache-2.0): its MCTS (CpuMctsTTRParallel) guided
// by its 96-32 network, as its GUI plays. Ours, kept outside the product; it only includes the
// engine's headers, from a checkout the user gives (docs/strength.md: how to build it).
//
//   qtps-bot [--move-time MS=1000] [--margin MS=50] [--threads N=1] [--pool NODES]
//            [--move-limit N=750] [--net FILE] [--seed N]
//
// Other words (a seat letter, a seed, as the course's command lines pass them) are ignored.
//
// Frames. Referee: x -4..4, y -5..5, player 1 attacks +y, directions 0..7 = N, NE, E, SE, S, SW,
// W, NW (N = +y), and each bot sees itself as player 1. QtPaperSoccer: x 0..8, y 0..10, ONE
// moves first and attacks +y, moves '0'..'7' = (0,-1), (1,-1), (1,0), (1,1), (0,1), (-1,1),
// (-1,0), (-1,-1). So player 1 is ONE on the same field shifted by (4, 5), and a direction maps
// by qt = (4 - d) mod 8 both ways. We keep the game in player 1's frame and turn player 2's
// directions by d + 4, as the referee does.
#include <libgen.h>
#include <limits.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "cpumctstt.h"  // jdermont/QtPaperSoccer's src/, with game.h and network.h

namespace {

int to_qt(int d) {
  return (4 - d + 8) & 7;
}  // its own inverse

// The protocol goes to fd 1 directly: the engine's own prints are sent to stderr.
void send_line(const std::string& text) {
  const std::string line = text + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(1, line.data() + done, line.size() - done);
    if (n <= 0) std::exit(0);  // the referee is gone
    done += static_cast<std::size_t>(n);
  }
}

// User CPU of this process (all its threads), as the referee counts it, in ms.
long user_cpu_ms() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec * 1000L + ru.ru_utime.tv_usec / 1000;
}

std::string net_beside_binary() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "96_32_net";
  buf[n] = 0;
  return std::string(::dirname(buf)) + "/96_32_net";
}

// The search's report keeps growing (its stream is never emptied): print its summary, empty it.
void print_summary(std::stringstream& report) {
  std::string line;
  while (std::getline(report, line))
    for (const char* key : {"visits:", "nodes:", "maxLevel:", "best move:"})
      if (line.rfind(key, 0) == 0) std::fprintf(stderr, "%s\n", line.c_str());
  report.str("");
  report.clear();
}

struct Options {
  long move_ms = 1000;
  long margin_ms = 50;
  int threads = 1;
  long pool = 0;  // nodes; 0: from the move time
  int move_limit = 750;
  std::string net;
  unsigned seed = 0;
};

Options read_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "qtps-bot: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--move-time")
      o.move_ms = std::atol(value());
    else if (a == "--margin")
      o.margin_ms = std::atol(value());
    else if (a == "--threads")
      o.threads = std::atoi(value());
    else if (a == "--pool")
      o.pool = std::atol(value());
    else if (a == "--move-limit")
      o.move_limit = std::atoi(value());
    else if (a == "--net")
      o.net = value();
    else if (a == "--seed")
      o.seed = static_cast<unsigned>(std::atol(value()));
  }
  o.threads = std::max(1, std::min(8, o.threads));
  if (o.net.empty()) o.net = net_beside_binary();
  // The pool is a power of two, and each of the engine's 8 worker slots owns an eighth of it: room
  // for ~230k nodes a second in one thread's slot (its speed here at -O3). Filling the pool costs
  // start-up CPU (~0.5 s for 2^21 nodes), which the referee counts against the first turn.
  const long want = o.pool > 0 ? o.pool : 8L * (230L * o.move_ms + 2L * o.move_limit);
  long pool = 1L << 16;
  while (pool < want && pool < (1L << 26)) pool <<= 1;
  o.pool = pool;
  return o;
}

// The turn in the referee's line, from the engine's move for the bot in seat `me`.
std::string turn_line(const std::string& move, int me) {
  std::string out = "M " + std::to_string(move.size());
  for (char c : move) {
    int d = to_qt(c - '0');
    if (me == 2) d = (d + 4) & 7;
    out += ' ';
    out += static_cast<char>('0' + d);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::cout.rdbuf(std::cerr.rdbuf());  // the engine prints to std::cout
  const Options o = read_options(argc, argv);
  std::srand(o.seed ? o.seed : static_cast<unsigned>(std::time(nullptr) ^ ::getpid()));
  if (std::FILE* f = std::fopen(o.net.c_str(), "rb")) {
    std::fclose(f);
  } else {
    std::fprintf(stderr, "qtps-bot: cannot open the network %s\n", o.net.c_str());
    return 2;
  }
  Pitch(8, 10).GENERATE_ALL_EDGES();
  auto network = std::make_unique<NetworkDeep>(1466, 96, 32);  // the GUI's default, 96_32_net
  network->load(o.net);
  network->type = 2;
  auto search = std::make_unique<CpuMctsTTRParallel>(static_cast<int>(o.pool));
  search->moveLimit = o.move_limit;
  search->agent = network.get();

  Game game;
  int me = 0;              // 1 or 2, from the first line
  long cpu_at_answer = 0;  // the referee counts CPU from our last answer (from the start first)
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "F") break;
    if (line == "S") {
      me = 1;
    } else if (line.rfind("M ", 0) == 0) {
      if (me == 0) me = 2;
      std::istringstream in(line.substr(2));
      int n = 0;
      in >> n;
      std::string move;
      for (int k = 0; k < n; ++k) {
        int d = 0;
        in >> d;
        if (me == 2) d = (d + 4) & 7;
        move += static_cast<char>('0' + to_qt(d));
      }
      game.makeMove(move);
    } else {
      std::fprintf(stderr, "qtps-bot: cannot follow '%s'\n", line.c_str());
      return 2;
    }
    if (game.isOver()) continue;  // the referee sends F
    const player_t mine = me == 1 ? ONE : TWO;
    if (game.currentPlayer != mine) {
      std::fprintf(stderr, "qtps-bot: it is not our turn\n");
      return 2;
    }
    const auto t0 = std::chrono::steady_clock::now();
    // What is left of the turn: the start-up's CPU counts against the first one.
    const long budget_ms = std::max(10L, o.move_ms - o.margin_ms - (user_cpu_ms() - cpu_at_answer));
    std::string move;
    if (game.pitch.isNextMoveGameover(mine == ONE ? TWO : ONE))
      move = game.pitch.shortWinningMoveForPlayer(mine);  // as the GUI: a goal in reach
    if (move.empty()) {
      search->setGame(&game);
      search->setPlayer(mine);
      // The engine stops on its wall clock; the referee counts the CPU of all its threads.
      move = search->getBestMove(budget_ms * 1000L / o.threads, o.threads)->move;
      print_summary(search->ss);
    }
    const long ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    const std::string out = turn_line(move, me);
    std::fprintf(stderr, "qtps-bot: %s (%ld ms of %ld)\n", out.c_str(), ms, budget_ms);
    game.makeMove(move);
    cpu_at_answer = user_cpu_ms();
    send_line(out);
  }
  return 0;
}
