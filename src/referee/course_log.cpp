#include "referee/course_log.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace arena {

CourseLog::CourseLog(const CourseLogStyle* style, int white_group, int black_group)
    : style_(style) {
  text_ = fmt::format("Group {} - White\nGroup {} - Black\n", white_group, black_group);
}

std::string CourseLog::file_name(int white_group, int black_group) {
  return fmt::format("Group{}_WhiteGroup{}_Black.log", white_group, black_group);
}

void CourseLog::start(const AnyState& s) {
  text_ += "Board:\n" + (style_ ? style_->board(s) : s.render()) + "\n";
}

void CourseLog::elapsed(long long ms) {
  text_ += fmt::format("Elapsed time: {}\n", ms);
}

void CourseLog::received(std::string_view line) {
  text_ += to_upper(printable(line, 200)) + "\n";
}

void CourseLog::played(const AnyState& s) {
  const std::string board = style_ ? style_->board(s) : s.render();
  text_ += fmt::format("Moves: {} | {}\n", s.ply(), style_ ? style_->counts(s) : std::string{});
  const Result r = s.result();
  if (!r.over()) {
    text_ += "Board:\n" + board + "\n";
    return;
  }
  const Side last_mover = opposite(s.side_to_move());
  if (r.outcome == Outcome::Draw) {
    text_ += "Tie\n";
  } else {
    const bool mover_won = r.outcome == win_for(last_mover);
    text_ += fmt::format("{} {} - {} {}\n", side_name(last_mover), mover_won ? "wins" : "loses",
                         side_name(opposite(last_mover)), mover_won ? "loses" : "wins");
  }
  text_ += fmt::format("\nMATCH ENDED in {} total moves\n\nFinal Board:\n{}", s.ply(), board);
}

void CourseLog::invalid(Side offender) {
  text_ += fmt::format("INVALID MOVE\n{} LOSE - {} WIN\n", side_name(offender),
                       side_name(opposite(offender)));
}

void CourseLog::timeout(Side late) {
  // The course server's timer logged the elapsed time straight under the board, without the blank
  // line that precedes it when a move is read (fixture fission_timeout): drop that blank line.
  constexpr std::string_view kBlankThenElapsed = "\n\nElapsed time: ";
  const std::size_t at = text_.rfind(kBlankThenElapsed);
  if (at != std::string::npos &&
      text_.find('\n', at + kBlankThenElapsed.size()) == text_.size() - 1)
    text_.erase(at, 1);
  text_ += fmt::format("Player {} Time out\nPlayer {} wins  - Player {} loses\n", side_name(late),
                       side_name(opposite(late)), side_name(late));
}

void CourseLog::disconnected(Side who) {
  text_ += fmt::format("Player {} disconnected\n{} LOSE - {} WIN\n", side_name(who), side_name(who),
                       side_name(opposite(who)));
}

}  // namespace arena
