#include "tournament/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "referee/record.hpp"

namespace arena::tournament {
namespace {

const std::string& name_of(const EventReport& r, int participant) {
  return r.settings->participants[static_cast<std::size_t>(participant)].name;
}

std::string wdl(const Wdl& w) {
  return fmt::format("{}/{}/{}", w.wins, w.draws, w.losses);
}

double rounded(double x) {
  return std::round(x * 10) / 10;
}

std::string result_text(Outcome o) {
  return o == Outcome::WhiteWins ? "1-0" : o == Outcome::BlackWins ? "0-1" : "1/2-1/2";
}

std::string cell_text(const CrossCell& c) {
  if (!c.as_white && !c.as_black) return "";
  return fmt::format("{}{}", c.as_white ? c.as_white : '.', c.as_black ? c.as_black : '.');
}

// How games ended: per category, the number of games and the referee's reason codes.
std::map<EndKind, std::map<std::string, int>> endings(const EventReport& r) {
  std::map<EndKind, std::map<std::string, int>> out;
  for (const auto& g : r.games) ++out[g.end][g.reason];
  return out;
}

std::string codes_text(const std::map<std::string, int>& codes) {
  std::string s;
  for (const auto& [code, count] : codes)
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", code, count);
  return s;
}

int count_of(const std::map<std::string, int>& codes) {
  int n = 0;
  for (const auto& [code, count] : codes) n += count;
  return n;
}

std::string header_line(const EventReport& r) {
  const auto& s = *r.settings;
  return fmt::format("{} double round-robin, {} participants, {}/{} games, seed {}", r.game_title,
                     s.participants.size(), r.games.size(), r.games_total, s.seed);
}

}  // namespace

std::string csv(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

EventReport make_report(const EventSettings& settings, std::string game_title,
                        std::vector<GameResult> games, int games_total) {
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.index < b.index; });
  EventReport r;
  r.settings = &settings;
  r.game_title = std::move(game_title);
  r.games_total = games_total;
  r.games = std::move(games);
  r.standings = compute_standings(settings.participants, r.games);
  const int n = static_cast<int>(settings.participants.size());
  r.crosstable = compute_crosstable(n, r.games);
  r.ratings = compute_ratings(n, r.games);
  return r;
}

std::string report_text(const EventReport& r) {
  std::size_t width = 4;
  for (const auto& p : r.settings->participants) width = std::max(width, p.name.size());
  std::string out = header_line(r) + "\n\n";
  out +=
      fmt::format("{:>3}  {:<{}}  {:>6}  {:>5}  {:>8}  {:>8}  {:>8}  {:>13}  {:>6}\n", "#", "name",
                  width, "points", "games", "W/D/L", "as White", "as Black", "rating", "faults");
  for (const auto& row : r.standings) {
    const auto& rating = r.ratings.players[static_cast<std::size_t>(row.participant)];
    out +=
        fmt::format("{:>3}  {:<{}}  {:>6}  {:>5}  {:>8}  {:>8}  {:>8}  {:>13}  {:>6}\n", row.rank,
                    name_of(r, row.participant), width, row.points, row.total.games(),
                    wdl(row.total), wdl(row.as_white), wdl(row.as_black),
                    fmt::format("{:+.0f} ± {:.0f}", rating.elo, rating.error95), row.fault_losses);
  }
  out += "\nCrosstable (row's results against column: with White, then with Black)\n";
  out += fmt::format("{:>3}  {:<{}}", "", "", width);
  for (std::size_t k = 0; k < r.standings.size(); ++k) out += fmt::format(" {:>3}", k + 1);
  out += "\n";
  for (const auto& row : r.standings) {
    out += fmt::format("{:>3}  {:<{}}", row.rank, name_of(r, row.participant), width);
    for (const auto& col : r.standings) {
      const auto& c = r.crosstable[static_cast<std::size_t>(row.participant)]
                                  [static_cast<std::size_t>(col.participant)];
      out += fmt::format(" {:>3}", row.participant == col.participant ? "--" : cell_text(c));
    }
    out += "\n";
  }
  out += "\nHow the games ended\n";
  for (const auto& [end, codes] : endings(r))
    out += fmt::format("  {:<13} {:>5}  ({})\n", end_kind_key(end), count_of(codes),
                       codes_text(codes));
  out +=
      fmt::format("\nRatings: Bradley-Terry (Elo scale) by maximum likelihood, mean 0, ± 95%{}.\n",
                  r.ratings.regularised ? "; one virtual draw per pair was added (someone "
                                          "won or lost everything)"
                                        : "");
  return out;
}

std::string report_markdown(const EventReport& r) {
  std::string out =
      fmt::format("# {} tournament\n\n{}.\n\n## Standings\n\n", r.game_title, header_line(r));
  out +=
      "| # | name | points | games | W | D | L | as White W/D/L | as Black W/D/L | rating | ± 95% "
      "| "
      "Sonneborn-Berger | fault losses |\n";
  out += "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& row : r.standings) {
    const auto& rating = r.ratings.players[static_cast<std::size_t>(row.participant)];
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:+.0f} | {:.0f} | {:g} | {} |\n", row.rank,
        name_of(r, row.participant), row.points, row.total.games(), row.total.wins, row.total.draws,
        row.total.losses, wdl(row.as_white), wdl(row.as_black), rating.elo, rating.error95,
        row.sonneborn_berger, row.fault_losses);
  }
  out +=
      "\nPoints: 3 a win, 1 a draw, 0 a loss. Fault losses: games lost by timeout, illegal move, "
      "crash or disconnect.\n";
  out += fmt::format(
      "Ratings: Bradley-Terry on the Elo scale, maximum likelihood, mean 0, 95% "
      "intervals from the Fisher information{}.\n",
      r.ratings.regularised ? "; one virtual draw was added between every pair "
                              "because the plain fit does not exist (someone won "
                              "or lost everything)"
                            : "");
  out +=
      "\n## Crosstable\n\nEach cell: the row's result against the column with White, then with "
      "Black (W win, D draw, L loss).\n\n| # | name |";
  for (std::size_t k = 0; k < r.standings.size(); ++k) out += fmt::format(" {} |", k + 1);
  out += "\n|---:|---|";
  for (std::size_t k = 0; k < r.standings.size(); ++k) out += ":---:|";
  out += "\n";
  for (const auto& row : r.standings) {
    out += fmt::format("| {} | {} |", row.rank, name_of(r, row.participant));
    for (const auto& col : r.standings) {
      const auto& c = r.crosstable[static_cast<std::size_t>(row.participant)]
                                  [static_cast<std::size_t>(col.participant)];
      out += fmt::format(" {} |", row.participant == col.participant ? "—" : cell_text(c));
    }
    out += "\n";
  }
  out += "\n## How the games ended\n\n| end | games | reasons |\n|---|---:|---|\n";
  for (const auto& [end, codes] : endings(r))
    out += fmt::format("| {} | {} | {} |\n", end_kind_key(end), count_of(codes), codes_text(codes));
  out +=
      "\n## Games\n\n| game | round | White | Black | result | end | reason | plies | record |\n"
      "|---:|---:|---|---|:---:|---|---|---:|---|\n";
  for (const auto& g : r.games)
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | [{}]({}) |\n", g.index + 1, g.round,
        name_of(r, g.white), name_of(r, g.black), result_text(g.outcome), end_kind_key(g.end),
        g.detail.empty() ? g.reason : g.reason + ": " + g.detail, g.plies, g.record, g.record);
  return out;
}

std::string standings_csv(const EventReport& r) {
  std::string out =
      "rank,name,points,games,wins,draws,losses,white_wins,white_draws,white_losses,black_wins,"
      "black_draws,black_losses,sonneborn_berger,fault_losses,rating,rating_error95\n";
  for (const auto& row : r.standings) {
    const auto& rating = r.ratings.players[static_cast<std::size_t>(row.participant)];
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{:g},{},{:.1f},{:.1f}\n", row.rank,
                    csv(name_of(r, row.participant)), row.points, row.total.games(), row.total.wins,
                    row.total.draws, row.total.losses, row.as_white.wins, row.as_white.draws,
                    row.as_white.losses, row.as_black.wins, row.as_black.draws, row.as_black.losses,
                    row.sonneborn_berger, row.fault_losses, rating.elo, rating.error95);
  }
  return out;
}

std::string crosstable_csv(const EventReport& r) {
  std::string out = "name";
  for (const auto& col : r.standings) {
    out += ',';
    out += csv(name_of(r, col.participant));
  }
  out += "\n";
  for (const auto& row : r.standings) {
    out += csv(name_of(r, row.participant));
    for (const auto& col : r.standings) {
      const auto& c = r.crosstable[static_cast<std::size_t>(row.participant)]
                                  [static_cast<std::size_t>(col.participant)];
      out += ',';
      if (row.participant != col.participant) out += cell_text(c);
    }
    out += "\n";
  }
  return out;
}

std::string games_csv(const EventReport& r) {
  std::string out = "game,round,white,black,winner,end,reason,detail,plies,record\n";
  for (const auto& g : r.games)
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", g.index + 1, g.round,
                       csv(name_of(r, g.white)), csv(name_of(r, g.black)), outcome_key(g.outcome),
                       end_kind_key(g.end), csv(g.reason), csv(g.detail), g.plies, csv(g.record));
  return out;
}

nlohmann::json report_json(const EventReport& r) {
  nlohmann::json standings = nlohmann::json::array();
  for (const auto& row : r.standings) {
    const auto& rating = r.ratings.players[static_cast<std::size_t>(row.participant)];
    const auto colour = [](const Wdl& w) {
      return nlohmann::json{{"wins", w.wins}, {"draws", w.draws}, {"losses", w.losses}};
    };
    standings.push_back({{"rank", row.rank},
                         {"name", name_of(r, row.participant)},
                         {"points", row.points},
                         {"games", row.total.games()},
                         {"wins", row.total.wins},
                         {"draws", row.total.draws},
                         {"losses", row.total.losses},
                         {"as_white", colour(row.as_white)},
                         {"as_black", colour(row.as_black)},
                         {"sonneborn_berger", row.sonneborn_berger},
                         {"fault_losses", row.fault_losses},
                         {"rating", rounded(rating.elo)},
                         {"rating_error95", rounded(rating.error95)}});
  }
  nlohmann::json names = nlohmann::json::array(), cells = nlohmann::json::array();
  for (const auto& p : r.settings->participants) names.push_back(p.name);
  for (const auto& row : r.crosstable) {
    nlohmann::json line = nlohmann::json::array();
    for (const auto& c : row)
      line.push_back(
          c.as_white || c.as_black
              ? nlohmann::json{{"as_white", c.as_white ? std::string(1, c.as_white) : ""},
                               {"as_black", c.as_black ? std::string(1, c.as_black) : ""},
                               {"points", c.points}}
              : nlohmann::json(nullptr));
    cells.push_back(line);
  }
  nlohmann::json ends = nlohmann::json::object();
  for (const auto& [end, codes] : endings(r))
    ends[std::string(end_kind_key(end))] = {{"games", count_of(codes)}, {"reasons", codes}};
  nlohmann::json games = nlohmann::json::array();
  for (const auto& g : r.games)
    games.push_back({{"game", g.index + 1},
                     {"round", g.round},
                     {"white", name_of(r, g.white)},
                     {"black", name_of(r, g.black)},
                     {"winner", outcome_key(g.outcome)},
                     {"end", end_kind_key(g.end)},
                     {"reason", g.reason},
                     {"detail", g.detail},
                     {"plies", g.plies},
                     {"record", g.record}});
  nlohmann::json settings = to_json(*r.settings);
  settings.erase("working_dir");  // where it ran does not change the results
  return {{"format", "arena-tournament-results"},
          {"version", 1},
          {"game", r.settings->game},
          {"settings", settings},
          {"points", {{"win", kWinPoints}, {"draw", kDrawPoints}, {"loss", 0}}},
          {"games_played", r.games.size()},
          {"games_total", r.games_total},
          {"complete", static_cast<int>(r.games.size()) == r.games_total},
          {"standings", standings},
          {"ratings",
           {{"model", "bradley-terry, Elo scale, maximum likelihood, mean 0"},
            {"interval", "95%, Fisher information"},
            {"regularised", r.ratings.regularised}}},
          {"crosstable", {{"participants", names}, {"cells", cells}}},
          {"endings", ends},
          {"games", games}};
}

void write_reports(const std::filesystem::path& dir, const EventReport& r, bool durable) {
  write_file_atomically(dir / "standings.md", report_markdown(r), durable);
  write_file_atomically(dir / "standings.csv", standings_csv(r), durable);
  write_file_atomically(dir / "crosstable.csv", crosstable_csv(r), durable);
  write_file_atomically(dir / "games.csv", games_csv(r), durable);
  write_file_atomically(dir / "results.json", report_json(r).dump(2) + "\n", durable);
}

}  // namespace arena::tournament
