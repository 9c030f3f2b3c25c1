// A Python hand-in of the Calabria Fission course, end to end: `main.py` at the hand-in's root
// (the Python convention), a real client of the course's line protocol written in Python (it
// keeps the board and plays a random legal move), accepted by `arena handin check fission DIR`.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/files.hpp"
#include "support/handin_cli.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::TempDir;

// docs/fission.md's rules, docs/protocol.md's messages: WELCOME <colour>, OPPONENT_MOVE <move>,
// YOUR_TURN (answered by MOVE <move>), and the game's end (VICTORY, DEFEAT, TIE, or the server
// closing the connection).
constexpr const char* kFissionClient = R"PY(
# A Fission client for the Calabria course's line protocol: python3 main.py HOST PORT.
# It keeps the board, plays a random legal move, and ends when the game does.
import random
import socket
import sys

DIRS = {"N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1),
        "S": (1, 0), "SW": (1, -1), "W": (0, -1), "NW": (-1, -1)}
START = ["........", "...WB...", "..WBWB..", ".WBWBWB.",
         ".BWBWBW.", "..BWBW..", "...BW...", "........"]


def on_board(r, c):
    return 0 <= r < 8 and 0 <= c < 8


def legal_moves(board, colour):
    moves = []
    for r in range(8):
        for c in range(8):
            if board[r][c] != colour:
                continue
            for name, (dr, dc) in DIRS.items():
                if on_board(r + dr, c + dc) and board[r + dr][c + dc] == ".":
                    moves.append("%s%d,%s" % ("ABCDEFGH"[r], c + 1, name))
    return moves


def play(board, move):
    cell, name = move.split(",")
    r, c = "ABCDEFGH".index(cell[0]), int(cell[1:]) - 1
    dr, dc = DIRS[name]
    stone, board[r][c] = board[r][c], "."
    while on_board(r + dr, c + dc) and board[r + dr][c + dc] == ".":
        r, c = r + dr, c + dc
    if not on_board(r + dr, c + dc):
        board[r][c] = stone  # stopped by the edge
        return
    for i in range(r - 1, r + 2):  # stopped by a stone: everything around explodes
        for j in range(c - 1, c + 2):
            if on_board(i, j):
                board[i][j] = "."


def main():
    rng = random.Random(7)
    board = [list(row) for row in START]
    colour = "W"
    conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
    out = conn.makefile("w")
    for line in conn.makefile("r"):
        words = line.strip().split(" ", 1)
        if words[0] == "WELCOME":
            colour = words[1][0]
        elif words[0] == "OPPONENT_MOVE":
            play(board, words[1])
        elif words[0] == "YOUR_TURN":
            move = rng.choice(legal_moves(board, colour))
            play(board, move)
            out.write("MOVE " + move + "\n")
            out.flush()
        elif words[0] in ("VICTORY", "DEFEAT", "TIE"):
            break


main()
)PY";

TEST(HandinPython, FissionClientIsAccepted) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "dave";
  fs::create_directories(dir);
  std::ofstream(dir / "main.py") << kFissionClient;
  const fs::path out = tmp.path() / "check";
  const auto v = testing::run_handin_check(
      {"fission", dir.string(), "--out", out.string(), "--move-time", "1000", "--json"}, 120s);
  ASSERT_EQ(v.exit, 0) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["verdict"], "accepted") << j;
  EXPECT_EQ(j["how"], "main.py (Python)");
  EXPECT_EQ(j["run"], "python3 main.py {host} {port}");
  ASSERT_EQ(j["games"].size(), 2u) << j;
  EXPECT_EQ(j["games"][0]["side"], "white");
  EXPECT_EQ(j["games"][1]["side"], "black");
  for (const auto& g : j["games"]) {
    EXPECT_FALSE(g["fault"].get<bool>()) << g;
    // Played, by the rules, until the smoke games' ten moves each or the game's end.
    EXPECT_GT(g["plies"].get<int>(), 1) << g;
    EXPECT_LE(g["plies"].get<int>(), 20) << g;
    EXPECT_NE(g["reason"], "illegal-move") << g;
  }
  EXPECT_EQ(nlohmann::json::parse(testing::read_bytes(out / "verdict.json")), j);
}

}  // namespace
}  // namespace arena
