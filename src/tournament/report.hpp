#pragma once
// What an event produced: standings, crosstable, ratings and how games ended, as terminal text,
// Markdown, CSV and JSON (see docs/tournament.md for the files).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tournament/event.hpp"
#include "tournament/ratings.hpp"
#include "tournament/standings.hpp"

namespace arena::tournament {

struct EventReport {
  const EventSettings* settings = nullptr;
  std::string game_title;
  int games_total = 0;
  std::vector<GameResult> games;  // sorted by schedule index
  std::vector<StandingRow> standings;
  Crosstable crosstable;
  Ratings ratings;
};

EventReport make_report(const EventSettings& settings, std::string game_title,
                        std::vector<GameResult> games, int games_total);

std::string report_text(const EventReport& r);      // for the terminal
std::string report_markdown(const EventReport& r);  // standings.md
// A CSV field, quoted when it needs to be.
std::string csv(const std::string& s);
std::string standings_csv(const EventReport& r);
std::string crosstable_csv(const EventReport& r);
std::string games_csv(const EventReport& r);
// results.json: a pure function of the settings and the games' results (no times), so an event
// resumed after a kill gives the same file as an uninterrupted one.
nlohmann::json report_json(const EventReport& r);

// Writes standings.md, standings.csv, crosstable.csv, games.csv and results.json into dir.
// Standings of an event in progress need not be durable (`durable` false skips the fsyncs): the
// journal is, and they are rebuilt from it.
void write_reports(const std::filesystem::path& dir, const EventReport& r, bool durable = true);

}  // namespace arena::tournament
