#include "view/terminal_board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace arena::view {
namespace {

using nlohmann::json;

constexpr const char* kReset = "\x1b[0m";
constexpr const char* kDim = "\x1b[2m";
constexpr const char* kWhite = "\x1b[1;97m";
constexpr const char* kBlack = "\x1b[1;91m";
constexpr const char* kChanged = "\x1b[43m";  // background of what the last move changed
constexpr const char* kLastTurn = "\x1b[1;93m";

// v[key], or null when v is not an object or has no such key (operator[] on a const json must not
// be given a missing key).
const json& field(const json& v, const char* key) {
  static const json null;
  if (!v.is_object()) return null;
  const auto it = v.find(key);
  return it == v.end() ? null : *it;
}

// An integer field clamped to [lo, hi]; `fallback` when absent or not an integer.
int int_field(const json& v, const char* key, int fallback, int lo, int hi) {
  const json& f = field(v, key);
  if (!f.is_number_integer()) return std::clamp(fallback, lo, hi);
  const auto n =
      f.is_number_unsigned()
          ? static_cast<long long>(std::min<std::uint64_t>(f.get<std::uint64_t>(), 1u << 20))
          : f.get<long long>();
  return static_cast<int>(std::clamp<long long>(n, lo, hi));
}

// The kind of a view, "" when it is not a view.
std::string kind_of(const json* v) {
  if (!v) return {};
  const json& k = field(*v, "kind");
  return k.is_string() ? k.get<std::string>() : std::string{};
}

std::string paint(const std::string& text, const char* code, bool color) {
  return color ? std::string(code) + text + kReset : text;
}

// One stone: White hollow, Black filled (readable without colour); a stack of two is a tower.
std::string glyph(char piece, std::size_t height) {
  const bool white = piece == 'W';
  if (height <= 1) return white ? "○" : "●";
  if (height == 2) return white ? "◎" : "◉";
  return (white ? "○" : "●") + std::to_string(std::min<std::size_t>(height, 9));
}

const char* piece_colour(char piece) {
  return piece == 'W' ? kWhite : kBlack;
}

std::string label(const json& labels, std::size_t i, std::string fallback) {
  if (labels.is_array() && i < labels.size() && labels[i].is_string())
    return labels[i].get<std::string>();
  return fallback;
}

std::string cell_text(const json& cells, std::size_t i) {
  if (!cells.is_array() || i >= cells.size() || !cells[i].is_string()) return {};
  return cells[i].get<std::string>();
}

std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // count UTF-8 lead bytes
  return n;
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = display_width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string draw_grid(const json& v, const json* prev, bool color) {
  const int rows = int_field(v, "rows", 0, 0, 64), cols = int_field(v, "cols", 0, 0, 64);
  const json& cells = field(v, "cells");
  const json* before = kind_of(prev) == "grid" ? &field(*prev, "cells") : nullptr;
  std::size_t width = 2, row_width = 1;
  for (int c = 0; c < cols; ++c)
    width =
        std::max(width, display_width(label(field(v, "colLabels"), c, std::to_string(c + 1))) + 1);
  for (int r = 0; r < rows; ++r)
    row_width =
        std::max(row_width, display_width(label(field(v, "rowLabels"), r, std::to_string(r + 1))));
  std::string header = std::string(row_width + 1, ' ');
  for (int c = 0; c < cols; ++c)
    header += pad(label(field(v, "colLabels"), c, std::to_string(c + 1)), width);
  while (!header.empty() && header.back() == ' ') header.pop_back();
  std::string out = paint(header, kDim, color) + "\n";
  for (int r = 0; r < rows; ++r) {
    std::string line =
        paint(pad(label(field(v, "rowLabels"), r, std::to_string(r + 1)), row_width), kDim, color) +
        " ";
    for (int c = 0; c < cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * cols + c);
      const std::string stack = cell_text(cells, i);
      const std::string plain = stack.empty() ? "·" : glyph(stack.back(), stack.size());
      std::string g = paint(plain, stack.empty() ? kDim : piece_colour(stack.back()), color);
      if (color && before && cell_text(*before, i) != stack) g = kChanged + g + kReset;
      const std::string text = g + std::string(width - std::min(width, display_width(plain)), ' ');
      line += text;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

// The 24 points of the Morris board on the course server's printout, W/B/O replaced by glyphs.
std::string draw_morris(const json& v, const json* prev, bool color) {
  static const std::array<std::string, 7> kRows = {"7 O--------O--------O", "6 |--O-----O-----O--|",
                                                   "5 |--|--O--O--O--|--|", "4 O--O--O     O--O--O",
                                                   "3 |--|--O--O--O--|--|", "2 |--O-----O-----O--|",
                                                   "1 O--------O--------O"};
  const json& points = field(v, "points");
  const json* before = kind_of(prev) == "morris" ? &field(*prev, "points") : nullptr;
  const auto piece_at = [](const json* pts, const std::string& name) -> std::string {
    if (!pts || !pts->is_object()) return {};
    const auto it = pts->find(name);
    return it != pts->end() && it->is_string() ? it->get<std::string>() : std::string{};
  };
  std::string out;
  for (int r = 0; r < 7; ++r) {
    const std::string& row = kRows[static_cast<std::size_t>(r)];
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const char ch = row[i];
      if (ch != 'O') {
        const std::string s = ch == '-' ? "─" : ch == '|' ? "│" : std::string(1, ch);
        line += (i >= 2 && color) ? paint(s, kDim, true) : s;
        continue;
      }
      const std::string name = {static_cast<char>('a' + (i - 2) / 3), static_cast<char>('7' - r)};
      const std::string p = piece_at(&points, name);
      std::string g = p.empty() ? "·" : glyph(p[0], 1);
      if (color) g = paint(g, p.empty() ? kDim : piece_colour(p[0]), true);
      if (color && before && piece_at(before, name) != p) g = std::string(kChanged) + g + kReset;
      line += g;
    }
    out += line + "\n";
  }
  out += paint("  a  b  c  d  e  f  g", kDim, color) + "\n";
  // The games' captions already say how many pieces are in hand; a bare view gets a line.
  if (field(v, "inHand").is_object() && !field(v, "caption").is_string())
    out += fmt::format("In hand: White {}, Black {}\n",
                       int_field(field(v, "inHand"), "white", 0, 0, 99),
                       int_field(field(v, "inHand"), "black", 0, 0, 99));
  return out;
}

// The Paper Soccer lattice: 4 columns per x step and 2 rows per y step; the path's segments
// between the points, each turn in its player's colour, the last turn highlighted.
std::string draw_soccer(const json& v, bool color) {
  const int x_min = int_field(v, "xMin", -4, -20, 0), x_max = int_field(v, "xMax", 4, 0, 20);
  const int y_min = int_field(v, "yMin", -5, -20, 0), y_max = int_field(v, "yMax", 5, 0, 20);
  const int goal = int_field(v, "goalWidth", 1, 0, x_max);
  const int top = y_max + 1, bottom = y_min - 1;
  const int width = 4 * (x_max - x_min) + 1, height = 2 * (top - bottom) + 1;
  struct Cell {
    std::string text = " ";
    const char* code = nullptr;
  };
  std::vector<std::vector<Cell>> canvas(static_cast<std::size_t>(height),
                                        std::vector<Cell>(static_cast<std::size_t>(width)));
  const auto at = [&](int col, int row) -> Cell* {
    if (col < 0 || row < 0 || col >= width || row >= height) return nullptr;
    return &canvas[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
  };
  const auto exists = [&](int x, int y) {
    return x >= x_min && x <= x_max &&
           ((y >= y_min && y <= y_max) || ((y == top || y == bottom) && std::abs(x) <= goal));
  };
  const auto put = [&](int col, int row, const std::string& s, const char* code) {
    if (Cell* c = at(col, row)) *c = {s, code};
  };
  // A segment between two neighbouring points.
  const auto segment = [&](int x1, int y1, int x2, int y2, const char* code) {
    const int c1 = 4 * (x1 - x_min), r1 = 2 * (top - y1), c2 = 4 * (x2 - x_min),
              r2 = 2 * (top - y2);
    if (r1 == r2) {
      for (int c = std::min(c1, c2) + 1; c < std::max(c1, c2); ++c) put(c, r1, "─", code);
    } else if (c1 == c2) {
      put(c1, std::min(r1, r2) + 1, "│", code);
    } else {
      const int mc = (c1 + c2) / 2, mr = (r1 + r2) / 2;
      const bool rising = (c2 - c1) * (r2 - r1) < 0;  // going right and up on screen
      Cell* c = at(mc, mr);
      const std::string mine = rising ? "╱" : "╲";
      if (c && (c->text == "╱" || c->text == "╲") && c->text != mine && c->code)
        *c = {"╳", code};
      else
        put(mc, mr, mine, code);
    }
  };
  for (int y = top; y >= bottom; --y)
    for (int x = x_min; x <= x_max; ++x)
      if (exists(x, y)) put(4 * (x - x_min), 2 * (top - y), "·", kDim);
  // The border: side lines, end lines beside the goal, the goals' posts and back lines.
  for (int y = y_min; y < y_max; ++y) {
    segment(x_min, y, x_min, y + 1, nullptr);
    segment(x_max, y, x_max, y + 1, nullptr);
  }
  for (int x = x_min; x < x_max; ++x)
    if (x < -goal || x >= goal) {
      segment(x, y_max, x + 1, y_max, nullptr);
      segment(x, y_min, x + 1, y_min, nullptr);
    }
  for (int x = -goal; x < goal; ++x) {
    segment(x, top, x + 1, top, nullptr);
    segment(x, bottom, x + 1, bottom, nullptr);
  }
  for (int s : {-goal, goal}) {
    segment(s, y_max, s, top, nullptr);
    segment(s, y_min, s, bottom, nullptr);
  }
  const json& turns = field(v, "turns");
  if (turns.is_array()) {
    for (std::size_t t = 0; t < turns.size(); ++t) {
      const json& turn = turns[t];
      const bool last = t + 1 == turns.size();
      const char* code = last ? kLastTurn : field(turn, "side") == "white" ? kWhite : kBlack;
      const json& pts = field(turn, "points");
      if (!pts.is_array()) continue;
      for (std::size_t i = 1; i < pts.size(); ++i) {
        const json &a = pts[i - 1], &b = pts[i];
        if (!a.is_array() || !b.is_array() || a.size() != 2 || b.size() != 2) continue;
        if (!a[0].is_number_integer() || !a[1].is_number_integer() || !b[0].is_number_integer() ||
            !b[1].is_number_integer())
          continue;
        const int x1 = a[0].get<int>(), y1 = a[1].get<int>(), x2 = b[0].get<int>(),
                  y2 = b[1].get<int>();
        if (exists(x1, y1) && exists(x2, y2) && std::abs(x1 - x2) <= 1 && std::abs(y1 - y2) <= 1)
          segment(x1, y1, x2, y2, code);
      }
    }
  }
  const json& ball = field(v, "ball");
  if (ball.is_array() && ball.size() == 2 && ball[0].is_number_integer() &&
      ball[1].is_number_integer() && exists(ball[0].get<int>(), ball[1].get<int>()))
    put(4 * (ball[0].get<int>() - x_min), 2 * (top - ball[1].get<int>()), "●", kLastTurn);
  std::string out;
  for (const auto& row : canvas) {
    std::string line;
    for (const Cell& c : row) line += c.code && color ? paint(c.text, c.code, true) : c.text;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string draw_terminal(const json& view, const json* previous, bool color) {
  try {
    std::string out;
    const std::string kind = kind_of(&view);
    if (kind == "grid")
      out = draw_grid(view, previous, color);
    else if (kind == "morris")
      out = draw_morris(view, previous, color);
    else if (kind == "soccer")
      out = draw_soccer(view, color);
    else if (kind == "text")
      out = field(view, "text").is_string() ? field(view, "text").get<std::string>() : "";
    else
      out = "(no drawing for this position: " + view.dump().substr(0, 200) + ")\n";
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (const json& caption = field(view, "caption"); caption.is_string())
      out += caption.get<std::string>() + "\n";
    return out;
  } catch (const json::exception& e) {
    return std::string("(cannot draw this position: ") + e.what() + ")\n";
  }
}

}  // namespace arena::view
