#pragma once
// A cohort's report in OUT: report.csv, report.json, report.html and participants.txt (the
// accepted agents, as `arena tournament -f` reads them). Student text is escaped everywhere.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli/handin_batch.hpp"

namespace arena::cli {

struct BatchReportInput {
  std::string game;
  std::filesystem::path dir, out;
  bool grade = false;
  const std::vector<StudentResult>& students;
  const std::vector<std::pair<std::string, std::string>>& skipped;
};

void write_batch_reports(const BatchReportInput& in);

// One line of participants.txt: `NAME: dir=ROOT command RUN`, or a `#` line saying why the
// student cannot be listed.
std::string participant_line(const StudentResult& r);

}  // namespace arena::cli
