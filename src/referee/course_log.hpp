#pragma once
// The per-game text log the course server wrote (Group<w>_WhiteGroup<b>_Black.log).
#include <string>
#include <string_view>

#include "core/any_game.hpp"
#include "games/registry.hpp"

namespace arena {

class CourseLog {
 public:
  CourseLog(const CourseLogStyle* style, int white_group, int black_group);

  static std::string file_name(int white_group, int black_group);

  void start(const AnyState& s);
  void elapsed(long long ms);
  void received(std::string_view line);  // the client's line as the server read it
  void played(const AnyState& s);  // after a legal move; ends the log when the game is over
  void invalid(Side offender);
  void timeout(Side late);
  void disconnected(Side who);

  const std::string& text() const { return text_; }

 private:
  const CourseLogStyle* style_;
  std::string text_;
};

}  // namespace arena
