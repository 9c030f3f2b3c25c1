#pragma once
// The C++ source of a small Paper Soccer hand-in (tests build it as a student's bot).

namespace arena::testing {

// A Paper Soccer bot that plays a legal turn: a search for steps that end on a fresh point (or in
// the opponent's goal), with the field as docs/soccer.md draws it, in the bot's own frame.
inline constexpr const char* kSoccerBot = R"CPP(
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
  using P = std::pair<int, int>;
  const int DX[8] = {0, 1, 1, 1, 0, -1, -1, -1}, DY[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  std::set<std::pair<P, P>> used;
  std::set<P> touched;
  P ball{0, 0};
  std::vector<int> fallback;
  long budget = 0;
  bool inside(P p) {
    return (std::abs(p.first) <= 4 && std::abs(p.second) <= 5) ||
           (std::abs(p.second) == 6 && std::abs(p.first) <= 1);
  }
  bool border(P p) {
    return std::abs(p.first) == 4 || (std::abs(p.second) == 5 && std::abs(p.first) >= 1);
  }
  std::pair<P, P> seg(P a, P b) {
    return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  }
  bool closed(P a, P b) {
    if (border(a) && border(b) && (a.first == b.first || a.second == b.second)) return true;
    const int ya = std::abs(a.second), yb = std::abs(b.second);
    if ((ya == 6 || yb == 6) && a.first == b.first && std::abs(a.first) == 1) return true;
    if ((ya == 6 && std::abs(b.first) == 2) || (yb == 6 && std::abs(a.first) == 2)) return true;
    return false;
  }
  bool step_ok(P a, int d) {
    const P b{a.first + DX[d], a.second + DY[d]};
    return inside(b) && !closed(a, b) && !used.count(seg(a, b));
  }
  bool search(P a, std::vector<int>& path) {
    if (++budget > 200000) return false;
    int start = std::rand() % 8;
    for (int k = 0; k < 8; ++k) {
      const int d = (start + k) % 8;
      if (!step_ok(a, d)) continue;
      const P b{a.first + DX[d], a.second + DY[d]};
      path.push_back(d);
      used.insert(seg(a, b));
      bool done = false;
      if (b.second == 6)
        done = true;
      else if (b.second == -6) {
        if (fallback.empty()) fallback = path;
      } else if (!touched.count(b))
        done = true;
      else
        done = search(b, path);
      used.erase(seg(a, b));
      if (done) return true;
      path.pop_back();
    }
    if (fallback.empty()) fallback = path;  // stuck here: the rules end the turn
    return false;
  }
  void apply(int d) {
    const P b{ball.first + DX[d], ball.second + DY[d]};
    used.insert(seg(ball, b));
    ball = b;
    touched.insert(b);
  }
  int main() {
    touched.insert({0, 0});
    for (int x = -4; x <= 4; ++x)
      for (int y = -5; y <= 5; ++y)
        if (border({x, y})) touched.insert({x, y});
    for (int x : {-1, 1})
      for (int y : {-6, 6}) touched.insert({x, y});
    std::string line;
    while (std::getline(std::cin, line)) {
      if (line == "F") return 0;
      if (line[0] == 'M') {
        std::istringstream in(line.substr(1));
        int n = 0, d = 0;
        in >> n;
        for (int i = 0; i < n && in >> d; ++i) apply(d);
      }
      std::vector<int> path;
      fallback.clear();
      budget = 0;
      if (!search(ball, path)) path = fallback;
      std::cout << "M " << path.size();
      for (int d : path) std::cout << ' ' << d;
      std::cout << std::endl;
      for (int d : path) apply(d);
    }
  }
)CPP";

}  // namespace arena::testing
