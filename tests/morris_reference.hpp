#pragma once
// A slow, obviously-correct Nine Men's Morris move generator for cross-checking the bitmask
// rules: a map from point name to 'W' / 'B' / '.', the adjacency and mills typed in again from
// shared/spec/morris.md as text, move texts built as strings, and the full game history kept
// as printed positions.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace arena::morris::reference {

inline const std::vector<std::string>& points() {
  static const std::vector<std::string> p = {"a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4",
                                             "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
                                             "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"};
  return p;
}

inline std::vector<std::vector<std::string>> split_groups(const std::string& text, char sep) {
  std::vector<std::vector<std::string>> out;
  std::stringstream groups(text);
  std::string group;
  while (std::getline(groups, group, sep)) {
    std::stringstream words(group);
    std::vector<std::string> g;
    std::string w;
    while (words >> w) g.push_back(w);
    if (!g.empty()) out.push_back(g);
  }
  return out;
}

inline bool adjacent(const std::string& a, const std::string& b) {
  static const auto edges = split_groups(
      "a1 d1, d1 g1, a1 a4, a4 a7, a7 d7, d7 g7, g7 g4, g4 g1, b2 d2, d2 f2, b2 b4, b4 b6, b6 d6, "
      "d6 f6, f6 f4, f4 f2, c3 d3, d3 e3, c3 c4, c4 c5, c5 d5, d5 e5, e5 e4, e4 e3, a4 b4, b4 c4, "
      "e4 f4, f4 g4, d1 d2, d2 d3, d5 d6, d6 d7",
      ',');
  for (const auto& e : edges)
    if ((e[0] == a && e[1] == b) || (e[0] == b && e[1] == a)) return true;
  return false;
}

inline const std::vector<std::vector<std::string>>& mills() {
  static const auto m = split_groups(
      "a1 d1 g1 | b2 d2 f2 | c3 d3 e3 | a4 b4 c4 | e4 f4 g4 | c5 d5 e5 | b6 d6 f6 | a7 d7 g7 | "
      "a1 a4 a7 | b2 b4 b6 | c3 c4 c5 | d1 d2 d3 | d5 d6 d7 | e3 e4 e5 | f2 f4 f6 | g1 g4 g7",
      '|');
  return m;
}

struct Game {
  std::map<std::string, char> board;
  std::map<char, int> hand{{'W', 9}, {'B', 9}};
  char side = 'W';
  std::vector<std::string> seen;  // every position of the game so far, printed

  Game() {
    for (const auto& p : points()) board[p] = '.';
    seen.push_back(print());
  }

  std::string print() const {
    std::string s;
    for (const auto& p : points()) s += board.at(p);
    return s + " " + std::to_string(hand.at('W')) + " " + std::to_string(hand.at('B')) + " " + side;
  }
  static char other(char c) { return c == 'W' ? 'B' : 'W'; }
  int on_board(char c) const {
    return static_cast<int>(
        std::count_if(board.begin(), board.end(), [c](const auto& kv) { return kv.second == c; }));
  }
  static bool in_mill(const std::map<std::string, char>& b, const std::string& p) {
    const char c = b.at(p);
    for (const auto& m : mills())
      if (std::find(m.begin(), m.end(), p) != m.end() && b.at(m[0]) == c && b.at(m[1]) == c &&
          b.at(m[2]) == c)
        return true;
    return false;
  }

  std::vector<std::string> moves() const {
    std::vector<std::pair<std::string, std::string>> steps;  // (from or "", to)
    const char me = side, them = other(side);
    for (const auto& to : points()) {
      if (board.at(to) != '.') continue;
      if (hand.at(me) > 0) {
        steps.push_back({"", to});
        continue;
      }
      for (const auto& from : points())
        if (board.at(from) == me && (on_board(me) == 3 || adjacent(from, to)))
          steps.push_back({from, to});
    }
    std::vector<std::string> out;
    for (const auto& [from, to] : steps) {
      auto after = board;
      if (!from.empty()) after[from] = '.';
      after[to] = me;
      std::vector<std::string> victims;
      if (in_mill(after, to)) {
        for (const auto& p : points())
          if (after.at(p) == them && !in_mill(after, p)) victims.push_back(p);
        if (victims.empty())
          for (const auto& p : points())
            if (after.at(p) == them) victims.push_back(p);
      }
      if (victims.empty()) out.push_back(from + to);
      for (const auto& v : victims) out.push_back(from + to + v);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  void play(const std::string& m) {
    const bool placing = hand[side] > 0;
    const std::string from = placing ? "" : m.substr(0, 2);
    const std::string to = m.substr(placing ? 0 : 2, 2);
    const std::string victim = m.substr(placing ? 2 : 4);
    if (placing)
      --hand[side];
    else
      board[from] = '.';
    board[to] = side;
    if (!victim.empty()) board[victim] = '.';
    side = other(side);
    seen.push_back(print());
  }

  // "" while the game goes on, else "white"/"black"/"draw" and the reason.
  std::pair<std::string, std::string> result() const {
    for (const char c : {side, other(side)})
      if (on_board(c) + hand.at(c) < 3) return {c == 'W' ? "black" : "white", "too-few-pieces"};
    if (std::count(seen.begin(), seen.end(), seen.back()) > 1) return {"draw", "repetition"};
    if (moves().empty()) return {side == 'W' ? "black" : "white", "blocked"};
    return {"", ""};
  }
};

inline std::uint64_t perft(const Game& g, int depth) {
  if (depth == 0) return 1;
  if (!g.result().first.empty()) return 0;
  std::uint64_t n = 0;
  for (const auto& m : g.moves()) {
    Game child = g;
    child.play(m);
    n += perft(child, depth - 1);
  }
  return n;
}

}  // namespace arena::morris::reference
