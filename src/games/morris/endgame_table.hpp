#pragma once
// One Morris endgame table ("M-O": the side to move has M pieces on the board, the other side O,
// nobody has pieces in hand): one byte per position of endgame_index.hpp, owned in memory (just
// built) or mapped read-only from its file (shared by every process that reads it).
//
// A byte is 0 for a draw, or d + 1 when the game ends in d plies with best play (the winner
// hurrying, the loser delaying): d even, the side to move loses; d odd, it wins. Repetition is not
// modelled (as in every Morris database): a "draw" is a position neither side can force to a win.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "search/hooks.hpp"

namespace arena::morris::endgame {

inline constexpr int kMaxDistance = 254;

constexpr std::uint8_t encode(int plies) {
  return static_cast<std::uint8_t>(plies + 1);
}

constexpr EndgameValue decode(std::uint8_t code) {
  if (code == 0) return {EndgameValue::Kind::Draw, 0};
  const int plies = code - 1;
  return {plies % 2 ? EndgameValue::Kind::Win : EndgameValue::Kind::Loss, plies};
}

class Table {
 public:
  Table(int movers, int others, std::vector<std::uint8_t> values);

  // The table in `path`, checked (header, size, piece counts, checksum) before use; on any
  // fault nullopt and the reason in `error`. The file is untrusted input.
  static std::optional<Table> load(const std::filesystem::path& path, std::string& error);
  // Writes the file (header and values) through a temporary file renamed into place.
  bool save(const std::filesystem::path& path, std::string& error) const;

  int movers() const { return movers_; }
  int others() const { return others_; }
  std::uint64_t size() const { return size_; }
  std::uint8_t operator[](std::uint64_t index) const { return data_[index]; }
  const std::uint8_t* data() const { return data_; }

 private:
  Table(int movers, int others, std::shared_ptr<const void> owner, const std::uint8_t* data);

  int movers_ = 0, others_ = 0;
  std::uint64_t size_ = 0;
  std::shared_ptr<const void> owner_;  // the vector or the mapping
  const std::uint8_t* data_ = nullptr;
};

// The file name of table M-O in a cache folder: morris-M-O.egdb.
std::string table_file_name(int movers, int others);

// A 64-bit checksum of the values (word-wise multiply-xor; fast enough to check on every load).
std::uint64_t checksum(const std::uint8_t* data, std::uint64_t size);

}  // namespace arena::morris::endgame
