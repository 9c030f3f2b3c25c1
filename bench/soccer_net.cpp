// Trains the Paper Soccer value network (docs/soccer-net.md) by self-play:
//
//   soccer_net play  --games N --iterations K -o games.txt    self-play games of the tree search
//   soccer_net train games.txt ... -o data/nets/soccer-value.net [--from the last round's]
//
// `play` starts each game from an opening of the book, played by the tree search with its priors
// seeded per game (so games differ), and writes one line per game: the turns, each with the
// search's win chance for the side that played it. `train` fits the network to the positions
// that start a turn: the target is half the game's result and half the search's value (both from
// the side to move, in -1..1), each position also seen mirrored left to right.
#include "soccer_net.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/rng.hpp"
#include "core/text.hpp"
#include "games/registry.hpp"
#include "games/soccer/eval.hpp"
#include "games/soccer/mcts.hpp"
#include "games/soccer/policy_net.hpp"
#include "games/soccer/turn.hpp"
#include "games/soccer/value_net.hpp"
#include "match/book.hpp"
#include "search/search.hpp"

namespace arena::soccer {

[[noreturn]] void fail(const std::string& why) {
  fmt::print(stderr, "soccer_net: {}\n", why);
  std::exit(1);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(fmt::format("cannot read {}", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {

// "i:v i:v ...": each visited turn's index and visits.
std::vector<TurnVisits> parse_visits(std::string_view text, const std::string& item) {
  std::vector<TurnVisits> out;
  for (const std::string_view word : words(text)) {
    const auto colon = word.find(':');
    TurnVisits v;
    const char* end = word.data() + word.size();
    const auto [a, e1] =
        std::from_chars(word.data(), word.data() + std::min(colon, word.size()), v.turn);
    const auto [b, e2] = colon == std::string_view::npos
                             ? std::from_chars_result{nullptr, std::errc::invalid_argument}
                             : std::from_chars(word.data() + colon + 1, end, v.visits);
    if (e1 != std::errc{} || a != word.data() + colon || e2 != std::errc{} || b != end ||
        v.turn < 0 || v.turn > 0xFFFF || v.visits == 0)
      fail(fmt::format("a game line with bad visits '{}': {}", word, item));
    out.push_back(v);
  }
  return out;
}

}  // namespace

std::optional<Outcome> read_game(const std::string& line, std::vector<Played>& seen) {
  seen.clear();
  State s = State::start();
  std::string_view rest = line;
  while (!rest.empty() && !s.over()) {
    const auto semi = rest.find(';');
    const std::string item(trim(rest.substr(0, semi)));
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const auto space = item.find(' ');
    if (space == std::string::npos) fail(fmt::format("a game line without turns: {}", line));
    const std::string q = item.substr(0, space);
    const auto slash = item.find('/', space);  // the visits follow the turn, if written
    Parsed<Turn> turn = parse_turn(item.substr(space + 1, slash - std::min(slash, space + 1)));
    if (!turn) fail(fmt::format("a game line with a bad turn '{}': {}", item, turn.error));
    if (q != "-" && evaluate(s) != kGoalThreat) {
      double chance = -1;
      const auto [end, error] = std::from_chars(q.data(), q.data() + q.size(), chance);
      if (error != std::errc{} || end != q.data() + q.size() || !(chance >= 0 && chance <= 1))
        fail(fmt::format("a game line with a win chance that is not 0..1: '{}'", q));
      seen.push_back({s, chance, *turn.value,
                      slash == std::string::npos
                          ? std::vector<TurnVisits>{}
                          : parse_visits(std::string_view(item).substr(slash + 1), item)});
    }
    if (!play_turn(s, *turn.value)) fail(fmt::format("a game line with an illegal turn: {}", item));
  }
  if (!s.over()) return std::nullopt;
  return s.result().outcome;
}

void write_net(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) fail(fmt::format("cannot write {}", path));
}

namespace {

// The book's openings as turns (match::read_book checks every line).
std::vector<std::vector<Turn>> read_book(std::string path) {
  if (path.empty()) path = match::default_book_path("soccer").string();
  if (path.empty()) fail("no opening book found: give --book");
  Parsed<match::Book> book = match::read_book(*find_game("soccer"), {}, path);
  if (!book) fail(book.error);
  std::vector<std::vector<Turn>> out;
  for (const match::Opening& opening : book.value->openings) {
    std::vector<Turn>& turns = out.emplace_back();
    for (const std::string& text : opening) turns.push_back(*parse_turn(text).value);
  }
  if (out.empty()) fail(fmt::format("{}: no openings", path));
  return out;
}

// A network's file (ValueNet or PolicyNet), if a path is given.
template <typename Net>
std::optional<Net> load_net(const std::string& path) {
  if (path.empty()) return std::nullopt;
  return read_net<Net>(path);
}

// --- play -----------------------------------------------------------------------------------

struct PlayOptions {
  int games = 1000;
  std::uint64_t iterations = 1500;
  std::string book;    // default: the shipped book (data/books/soccer.txt)
  std::string net;     // play with this network (later rounds)
  std::string policy;  // and this policy
  std::uint64_t seed = 1;
  int threads = 2;
  int first = 0;        // the number of the first game (to go on with a run, or replay one game)
  bool visits = false;  // write the visits the search gave each turn (a policy's target)
  std::string out;
};

double win_chance(int score) {
  if (score >= kWinScore - 1) return 1;
  if (score <= -(kWinScore - 1)) return 0;
  return 1 / (1 + std::exp(-score / MctsSettings{}.value_scale));
}

// One game: "q N d1 .. dN; ..." with "-" for the book's turns, and with `visits`
// "q N d1 .. dN / i:v i:v ...; ...", the visits of each turn the search visited by its index.
std::string play_game(const PlayOptions& o, const std::vector<std::vector<Turn>>& book,
                      const ValueNet* net, const PolicyNet* policy, int game) {
  Rng rng(o.seed * 1'000'003 + static_cast<std::uint64_t>(game));
  const auto& opening = book[rng.below(book.size())];
  State s = State::start();
  std::string line;
  for (const Turn& t : opening) {
    play_turn(s, t);
    line += fmt::format("- {}; ", turn_text(t));
  }
  MctsSettings settings;
  settings.max_iterations = o.iterations;
  settings.seed = rng.next();
  settings.value_net = net;
  settings.policy_net = policy;
  Mcts mcts(settings);
  while (!s.over()) {
    const TurnChoice c = mcts.choose(s);
    line += fmt::format("{:.3f} {}", win_chance(c.score), turn_text(c.turn));
    if (o.visits) {
      line += " /";
      for (const TurnVisits& v : mcts.root_visits())
        line += fmt::format(" {}:{}", v.turn, v.visits);
    }
    line += "; ";
    if (!play_turn(s, c.turn)) fail("the search chose an illegal turn");
  }
  line.resize(line.size() - 2);
  return line;
}

void play(const PlayOptions& o) {
  const auto book = read_book(o.book);
  const std::optional<ValueNet> net = load_net<ValueNet>(o.net);
  const std::optional<PolicyNet> policy = load_net<PolicyNet>(o.policy);
  std::ofstream out(o.out, std::ios::app);
  if (!out) fail(fmt::format("cannot write {}", o.out));
  std::mutex mutex;
  std::atomic<int> next{0};
  int done = 0;
  std::vector<std::jthread> workers;
  for (int t = 0; t < o.threads; ++t)
    workers.emplace_back([&] {
      for (int g; (g = o.first + next++) < o.first + o.games;) {
        const std::string line =
            play_game(o, book, net ? &*net : nullptr, policy ? &*policy : nullptr, g);
        const std::lock_guard hold(mutex);
        out << line << '\n' << std::flush;
        if (++done % 10 == 0 || done == o.games)
          fmt::print(stderr, "played {} of {} games\n", done, o.games);
      }
    });
}

// --- train ----------------------------------------------------------------------------------

struct TrainOptions {
  std::vector<std::string> games;
  std::string out;
  int hidden1 = 64, hidden2 = 32;
  std::string from;  // start from this network's weights (and shape), not random ones
  Schedule schedule{20, 256, 1e-3,
                    0};       // decay: decoupled weight decay (AdamW), a share of the rate
  double result_share = 0.5;  // of the target: the game's result; the rest is the search's value
  int holdout_percent = 5;    // games kept out of training, to measure the fit
  std::uint64_t seed = 1;
};

struct Samples {
  std::vector<std::uint16_t> inputs;  // all samples' active inputs, one after another
  std::vector<std::uint32_t> start{0};
  std::vector<float> target;
  std::vector<float> base;  // the search's look-ahead, lookahead_eval / kEvalScale
  std::size_t size() const { return target.size(); }
  void add(const std::vector<std::uint16_t>& active, float t, float e) {
    inputs.insert(inputs.end(), active.begin(), active.end());
    start.push_back(static_cast<std::uint32_t>(inputs.size()));
    target.push_back(t);
    base.push_back(e);
  }
};

// The value network's samples of one game's line.
void add_game(const std::string& line, double result_share, Samples& out) {
  std::vector<Played> seen;
  const std::optional<Outcome> outcome = read_game(line, seen);
  if (!outcome) return;  // cut short: no result
  std::vector<std::uint16_t> active;
  for (const Played& p : seen) {
    const double z = *outcome == win_for(p.state.side_to_move()) ? 1 : -1;
    const auto t = static_cast<float>(result_share * z + (1 - result_share) * (2 * p.q - 1));
    const auto e = static_cast<float>(lookahead_eval(p.state, MctsSettings{}.turns) / kEvalScale);
    NetInputs::of(p.state, active);
    out.add(active, t, e);
    NetInputs::mirrored(p.state, active);
    out.add(active, t, e);
  }
}

float leaky_slope(float v) {
  return v > 0 ? 1 : kLeak;
}

// Adds the gradient of (y - t)^2 to `grad`; returns the squared error.
double backward(const ValueNet& net, std::span<const std::uint16_t> active, float base, float t,
                ValueNet::Activations& p, std::vector<float>& grad) {
  const auto& sh = net.shape();
  const auto w = net.weights();
  const float y = net.output(active, base, p);
  const float g3 = 2 * (y - t) * (1 - y * y);
  grad[net.bias3()] += g3;
  std::vector<float> g1(sh.hidden1, 0.0f);
  for (int j = 0; j < sh.hidden2; ++j) {
    grad[net.layer3() + j] += g3 * leaky_relu(p.sum2[j]);
    const float g2 = g3 * w[net.layer3() + j] * leaky_slope(p.sum2[j]);
    grad[net.bias2() + j] += g2;
    for (int i = 0; i < sh.hidden1; ++i) {
      grad[net.layer2() + j * sh.hidden1 + i] += g2 * p.out1[i];
      g1[i] += g2 * w[net.layer2() + j * sh.hidden1 + i];
    }
  }
  for (int i = 0; i < sh.hidden1; ++i) {
    g1[i] *= leaky_slope(p.sum1[i]);
    grad[net.bias1() + i] += g1[i];
  }
  for (const std::uint16_t f : active)
    for (int i = 0; i < sh.hidden1; ++i) grad[net.layer1() + f * sh.hidden1 + i] += g1[i];
  return (y - t) * (y - t);
}

double mean_error(const ValueNet& net, const Samples& s) {
  double sum = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const float y = net.output({&s.inputs[s.start[i]], s.start[i + 1] - s.start[i]}, s.base[i]);
    sum += (y - s.target[i]) * (y - s.target[i]);
  }
  return s.size() ? sum / static_cast<double>(s.size()) : 0;
}

void train(const TrainOptions& o) {
  Samples fit, held;
  const int lines = for_each_game(
      o.games, o.holdout_percent,
      [&](const std::string& line, bool out) { add_game(line, o.result_share, out ? held : fit); });
  if (fit.size() == 0) fail("no positions to train on");
  fmt::print(stderr, "{} games: {} positions to fit, {} held out (each also mirrored)\n", lines,
             fit.size() / 2, held.size() / 2);

  double eval_error = 0;
  for (std::size_t i = 0; i < held.size(); ++i)
    eval_error += std::pow(std::tanh(held.base[i]) - held.target[i], 2);
  eval_error /= std::max<double>(1, static_cast<double>(held.size()));
  fmt::print(stderr, "the search's look-ahead alone: mean squared error {:.4f} held out\n",
             eval_error);

  ValueNet net = o.from.empty() ? ValueNet(NetShape{NetInputs::count(), o.hidden1, o.hidden2}, {})
                                : read_net<ValueNet>(o.from);
  const NetShape shape = net.shape();
  Rng rng(o.seed);
  auto w = net.weights();
  if (o.from.empty()) {
    for (std::size_t i = net.layer1(); i < net.bias1(); ++i) w[i] = uniform_weight(rng, 0.1);
    for (std::size_t i = net.layer2(); i < net.bias2(); ++i)
      w[i] = uniform_weight(rng, std::sqrt(6.0 / o.hidden1));
    // The output starts near 0: the network starts as the evaluation.
    for (std::size_t i = net.layer3(); i < net.bias3(); ++i) w[i] = uniform_weight(rng, 0.01);
  } else {
    fmt::print(stderr, "starting from {}: held-out mean squared error {:.4f}\n", o.from,
               mean_error(net, held));
  }

  ValueNet::Activations pass;
  fit_weights(
      w, fit.size(), o.schedule, rng,
      [&](std::size_t i, std::vector<float>& grad) {
        return backward(net, {&fit.inputs[fit.start[i]], fit.start[i + 1] - fit.start[i]},
                        fit.base[i], fit.target[i], pass, grad);
      },
      [&](int epoch, double fitted) -> std::optional<double> {
        const double held_error = mean_error(net, held);
        fmt::print(stderr, "epoch {}: mean squared error {:.4f} fitted, {:.4f} held out\n", epoch,
                   fitted, held_error);
        if (held.size() == 0) return std::nullopt;
        return held_error;
      });
  const std::string bytes = net.serialize();
  write_net(o.out, bytes);
  fmt::print(
      "{}: {}-{}-{}-1, {} bytes; held-out mean squared error {:.4f} (the look-ahead "
      "alone: {:.4f})\n",
      o.out, shape.inputs, shape.hidden1, shape.hidden2, bytes.size(), mean_error(net, held),
      eval_error);
}

}  // namespace
}  // namespace arena::soccer

int main(int argc, char** argv) {
  using namespace arena::soccer;
  CLI::App app{"Self-play and training of the Paper Soccer value network (docs/soccer-net.md)"};
  app.require_subcommand(1);
  PlayOptions p;
  CLI::App* play_cmd = app.add_subcommand("play", "Self-play games of the tree search");
  play_cmd->add_option("--games", p.games, "Games")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000'000));
  play_cmd->add_option("--iterations", p.iterations, "Tree-search iterations a turn")
      ->capture_default_str()
      ->check(CLI::Range(1, 100'000'000));
  play_cmd->add_option("--book", p.book, "Openings to start from (default: data/books/soccer.txt)");
  play_cmd->add_option("--net", p.net, "Play with this network (default: the evaluation)");
  play_cmd->add_option("--policy", p.policy, "Play with this policy (default: none)");
  play_cmd->add_option("--seed", p.seed, "Seed of the openings and the priors")
      ->capture_default_str();
  play_cmd->add_option("--threads", p.threads, "Games played at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  play_cmd->add_option("--first", p.first, "Number of the first game (games are seeded by it)")
      ->capture_default_str()
      ->check(CLI::Range(0, 10'000'000));
  play_cmd->add_flag("--visits", p.visits,
                     "Write the visits the search gave each turn of the root (the first look at "
                     "each counts one), for 'train-policy --visits'");
  play_cmd->add_option("-o,--out", p.out, "Append the games to this file")->required();
  TrainOptions t;
  CLI::App* train_cmd = app.add_subcommand("train", "Fit the network to self-play games");
  train_cmd->add_option("games", t.games, "Files of games from 'play'")->required();
  train_cmd->add_option("-o,--out", t.out, "The network's file")->required();
  train_cmd->add_option("--hidden1", t.hidden1, "Units of the first hidden layer")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxHidden));
  train_cmd->add_option("--hidden2", t.hidden2, "Units of the second hidden layer")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxHidden));
  train_cmd
      ->add_option("--from", t.from,
                   "Start from this network's weights and shape (a further round on new "
                   "games), not random ones")
      ->check(CLI::ExistingFile)
      ->excludes(train_cmd->get_option("--hidden1"))
      ->excludes(train_cmd->get_option("--hidden2"));
  train_cmd->add_option("--epochs", t.schedule.epochs, "Passes over the positions")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000));
  train_cmd->add_option("--batch", t.schedule.batch, "Positions a step")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  train_cmd
      ->add_option("--rate", t.schedule.rate, "Adam's learning rate (a tenth for the last quarter)")
      ->capture_default_str();
  train_cmd
      ->add_option("--decay", t.schedule.decay,
                   "Weight decay, decoupled from the gradient (AdamW): pulls every weight toward "
                   "0 by this share of the rate a step")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  train_cmd
      ->add_option("--result-share", t.result_share,
                   "Share of the game's result in the target (the rest: the search's value)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  train_cmd->add_option("--seed", t.seed, "Seed of the first weights and the order")
      ->capture_default_str();
  PolicyTrainOptions pt;
  CLI::App* policy_cmd =
      app.add_subcommand("train-policy", "Fit the policy to the turns played in self-play games");
  policy_cmd->add_option("games", pt.games, "Files of games from 'play'")->required();
  policy_cmd->add_option("-o,--out", pt.out, "The policy's file")->required();
  policy_cmd->add_option("--hidden", pt.hidden, "Units of the hidden layer")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxHidden));
  policy_cmd
      ->add_option("--from", pt.from,
                   "Start from this policy's weights and shape (a further round on new games), "
                   "not random ones")
      ->check(CLI::ExistingFile)
      ->excludes(policy_cmd->get_option("--hidden"));
  policy_cmd->add_flag("--visits", pt.visits,
                       "Fit the share of the search's visits each turn had (games of 'play "
                       "--visits'), not the turn it played");
  policy_cmd->add_option("--epochs", pt.schedule.epochs, "Passes over the positions")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000));
  policy_cmd->add_option("--batch", pt.schedule.batch, "Positions a step")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  policy_cmd
      ->add_option("--rate", pt.schedule.rate,
                   "Adam's learning rate (a tenth for the last quarter)")
      ->capture_default_str();
  policy_cmd
      ->add_option("--decay", pt.schedule.decay,
                   "Weight decay, decoupled from the gradient (AdamW)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  policy_cmd->add_option("--seed", pt.seed, "Seed of the first weights and the order")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (*play_cmd) play(p);
  if (*train_cmd) train(t);
  if (*policy_cmd) train_policy(pt);
  return 0;
}
