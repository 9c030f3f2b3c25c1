#pragma once
// Monte-Carlo tree search over whole turns (PUCT with solver).
//
// Each tree edge is one turn of turn_options.hpp (one per distinct position a turn leads to, up
// to a limit), so sides alternate on every edge. A new node is valued by a one-turn look-ahead of
// the evaluation (the best of its children's evaluations), corrected by the value network when
// there is one (value_net.hpp), instead of a random playout: random turns get stuck or score own
// goals far more often than real play, so playouts mostly measure noise.
// The children's evaluations also give the priors. Proven results (a reachable goal, no way but
// a losing turn) are propagated up the tree (MCTS-Solver), because bouncing turns often end in a
// goal at once and averages would only approach that slowly.
//
// With one thread, the same position, iteration limit and seed give the same turn.
// Several threads share the one tree under a lock, which each holds only to walk down the tree
// and to add what it built: building a position (its turns and their evaluations) is most of an
// iteration's work, and is done outside the lock. A walk marks its path with a virtual loss (the
// visit is counted before its value is known), so that the other threads look elsewhere.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/chunked_array.hpp"
#include "core/spin_lock.hpp"
#include "games/soccer/engine.hpp"
#include "games/soccer/forcing_line.hpp"
#include "games/soccer/policy_net.hpp"
#include "games/soccer/turn_options.hpp"
#include "games/soccer/value_net.hpp"

namespace arena::soccer {

// What the trees of a process may hold together under its memory limit (a sandbox's, a
// course's): half of it, so that the rest of the process and the kernel's own charges fit.
constexpr std::optional<std::size_t> trees_within(std::optional<std::uint64_t> memory_limit) {
  if (!memory_limit) return std::nullopt;
  return static_cast<std::size_t>(
      std::min<std::uint64_t>(*memory_limit / 2, std::numeric_limits<std::size_t>::max()));
}

struct MctsSettings {
  double exploration = 1.0;    // PUCT constant
  double value_scale = 400.0;  // evaluation units per logistic unit of the win chance
  double prior_scale = 200.0;  // evaluation units per e-fold of a child's prior
  bool reuse_tree = true;      // keep the subtree of the position the opponent's turn led to
  TurnOptionLimits turns;      // how many of a position's turns become edges
  // With a seed, each prior is multiplied by a factor in [0.9, 1.1) drawn from the seed and the
  // position after the turn: the same seed plays the same game, another seed another one where
  // turns are about equal (without it, the engine plays the same game against itself every time).
  // For self-play that must vary; the players leave it off (its SPRT did not decide).
  std::optional<std::uint64_t> seed;
  // With a network (value_net.hpp), a new position's value is its win chance by the network,
  // which corrects the look-ahead's.
  const ValueNet* value_net = nullptr;
  // With a policy (policy_net.hpp), a turn's prior also has the policy's logit of its end point.
  const PolicyNet* policy_net = nullptr;
  // Of each prior, the share the policy's softmax has; the rest is the evaluations' alone, so
  // that a turn the policy dislikes (an opponent's reply it did not expect) is still tried.
  double policy_share = 0.5;
  // A position whose side to move has only one or two turns that do not let the opponent score
  // at once is forced: its value for that side is cut by this share (halved with two turns), so
  // that the opponent's turn that forced it is searched until the forced line is proven or
  // refuted (the value of its one safe turn alone often looks good). 0: off.
  double forced_penalty = 0.0;
  // Forcing lines (forcing_line.hpp) looked for at the root before the search, up to this many
  // of our turns deep: a turn that starts one for us is played; a turn after which the opponent
  // has one is proven lost. 0: off; the players leave it off (on top of widening it lost its
  // SPRT: docs/strength.md).
  int forcing_depth = 0;
  // Their work, in turn listings (about 90,000 a second): all of the root's checks together, and
  // one check at most (a check that runs out finds nothing). They also stop at an eighth of the
  // turn's time.
  std::int64_t forcing_listings = 4000;
  std::int64_t forcing_listings_each = 1000;
  // With forcing_depth, a position in the tree is also checked for a forcing line of its side to
  // move, once, when its visits reach this many (0: the root's turns only), within
  // forcing_listings_each: the root check cannot see a line that starts after a quiet turn of the
  // opponent's, and MCTS-Solver carries a proof found deeper up the tree.
  std::uint32_t forcing_visits = 0;
  // A forcing line's first turn from a list up to this long (0: the tree's list): in a crowded
  // field the tree lists 128 turns, and the one it leaves out may be the one after which the
  // other side has no safe turn. A win of ours that starts with such a turn is played at once.
  int forcing_wide_turns = 0;
  // With forcing_wide_turns: only the lines whose first turn the tree's list leaves out, so that
  // a position whose list is complete is not checked at all. The tree's own turns are its
  // search's to read; the checks then cost only where a crowded position's list was cut.
  bool forcing_unlisted_only = false;
  // Progressive widening: a position whose list of turns was cut short (a crowded field) is
  // listed again, up to `widened_turns`, once its visits reach `widen_visits` (0: never; the root
  // at once). Its edges keep what they have and the new turns are added: the turn the first 128
  // leave out may be the one that decides the game (docs/strength.md), and only the positions the
  // search keeps coming back to pay for the longer list.
  std::uint32_t widen_visits = 0;
  int widened_turns = 512;
  int threads = 1;  // threads searching the one tree
  // A limit on the process's CPU time (all threads together) since its last answer, as Paper
  // Soccer's referee counts it (user time only: this clock, user and system, is never behind
  // it): the search spends it to its end, and `time` is then only the wall-clock cap (the
  // referee's is twice its CPU limit). The first turn counts from the tree's making, or from the
  // process's start, as a referee that started the process counts it.
  std::optional<std::chrono::milliseconds> cpu_time;
  bool cpu_time_from_process_start = false;
  // The tree's memory: the search stops when it is full. 1 GiB holds about 2.9 million
  // positions; 10 s (the course's time a turn) fills 2.5 million in a fresh tree.
  std::size_t max_tree_bytes = std::size_t{1} << 30;
  // Under a memory limit, what the process's trees hold together (trees_within): each of N trees
  // alive at once (two engines of one match, say) holds at most 1/N of it.
  std::optional<std::size_t> process_tree_bytes;
  std::optional<std::uint64_t> max_iterations;
  std::optional<std::chrono::milliseconds> time;
};

// A turn of a position (its index in the position's TurnOptions) and the visits a search gave it.
struct TurnVisits {
  int turn = 0;
  std::uint32_t visits = 0;
  bool operator==(const TurnVisits&) const = default;
};

class Mcts {
 public:
  explicit Mcts(MctsSettings settings = {});
  ~Mcts();
  Mcts(const Mcts&) = delete;
  Mcts& operator=(const Mcts&) = delete;
  // `s` is not over. score: the root's win chance in engine-like units (side to move's view),
  // depth: the length of the most visited line in turns, nodes: iterations (of all threads).
  TurnChoice choose(const State& s);

  // The last choice's root turns that its search visited, in the order of the root's list:
  // self-play's record of what the search thought of each turn (a policy's target).
  std::vector<TurnVisits> root_visits() const;

  std::size_t tree_positions() const { return nodes_.size(); }
  // The last choice's forcing checks in the tree (MctsSettings::forcing_visits), and those that
  // found a line.
  std::uint64_t forcing_checks() const { return forcing_checks_; }
  std::uint64_t forcing_wins() const { return forcing_wins_; }
  // The CPU time the last choice used, as cpu_time counts it (0 without cpu_time).
  std::chrono::milliseconds last_cpu_time() const { return last_cpu_; }
  bool cpu_limited() const { return settings_.cpu_time.has_value(); }
  std::size_t tree_bytes() const;
  // Empty when the tree is sound (every edge leads to the position its turn gives, the counts
  // add up); else what is wrong. For tests.
  std::string check_tree() const;

 private:
  enum class Proof : std::uint8_t { Unknown, Win, Loss };  // for the side that made the edge

  // 24 bytes: most of the tree's memory is edges (about 9 a position).
  struct Edge {
    double value = 0;          // the mover's values summed, the evaluation's as the first
    std::uint32_t visits = 0;  // not counting the evaluation's
    std::uint32_t child = 0;   // node index; 0 = not expanded yet (node 0 is the root)
    float prior = 0;
    std::uint16_t turn = 0;  // its index in the position's TurnOptions
    Proof proof = Proof::Unknown;
    bool lost_at_once = false;  // the game ends, or the opponent scores, right after this turn
  };
  static_assert(sizeof(Edge) == 24);
  // The evaluation counts as the first visit.
  static double mean_value(const Edge& e) { return e.value / (e.visits + 1.0); }
  struct Node {
    State state;
    std::uint32_t first_edge = 0;
    std::uint32_t edge_count = 0;
    std::uint32_t visits = 0;
    bool complete = true;  // its edges are all the turns there are (else no edge proves it lost)
    bool forcing_checked = false;  // for a forcing line (MctsSettings::forcing_visits)
    bool widened = false;          // its edges are the longer list's (MctsSettings::widen_visits)
  };

  // A new position with its edges, built outside the tree's lock.
  struct Expansion {
    TurnOptions parent_turns;  // to find the position (an edge keeps only its turn's index)
    TurnOptions turns;
    State state;
    std::vector<Edge> edges;
    std::vector<double> evals;   // of each edge's turn, for its prior
    std::vector<double> noise;   // each prior's factor (MctsSettings::seed)
    std::vector<double> priors;  // each prior's exponent, before the softmax
    double value = 0;            // for the side that moved into the position
    Proof proof = Proof::Unknown;
    bool complete = true;
  };
  // The edge's child while a thread builds it.
  static constexpr std::uint32_t kBeingBuilt = ~std::uint32_t{0};
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};  // no edge to choose

  // The position after turn `turn` of `parent`, whose turns are listed within `limits`.
  State after_turn(const State& parent, const TurnOptionLimits& limits, int turn,
                   TurnOptions& scratch) const;
  void build(const State& s, Expansion& x) const { build(s, settings_.turns, x); }
  void build(const State& s, const TurnOptionLimits& limits, Expansion& x) const;
  // How a position's turns are listed: the tree's limits, or the longer ones once widened.
  TurnOptionLimits limits_of(const Node& n) const {
    return n.widened ? widened_limits() : settings_.turns;
  }
  TurnOptionLimits widened_limits() const {  // MctsSettings::widened_turns
    return {settings_.widened_turns, settings_.turns.steps_per_turn};
  }
  // Whether position `n` is due its longer list, and making it (false: no room, or nothing new).
  bool due_widening(const Node& n) const;
  bool widen(std::uint32_t index);
  std::uint32_t append(const Expansion& x);  // adds the position; gives its index
  void expand(std::uint32_t node, std::uint32_t edge);
  double to_value(int eval) const;  // side to move's evaluation -> its win chance
  // A turn's prior by its evaluation alone (before the softmax's sum), given how far it is below
  // the best turn's.
  double prior_of_eval(double below_best) const;
  std::uint32_t select(const Node& n) const;
  // One thread's share of a search: iterations until the time, the iterations, the tree's
  // memory or a proof ends it.
  void search(const Deadline& deadline, std::uint64_t max_iterations);
  bool out_of_time(const Deadline& deadline) const;
  void count_visit(const std::vector<std::uint32_t>& path);
  void back_up(const std::vector<std::uint32_t>& path, double value);
  Proof proof_of(const Node& n) const;  // for the side that moved into n
  std::uint32_t find_reply(const State& s) const;
  // The root's turns proven by forcing lines (MctsSettings::forcing_depth); a winning turn that
  // is not among the root's edges (forcing_wide_turns), to be played as it is.
  std::optional<Turn> prove_forcing_lines(const State& s, const Deadline& deadline);
  TurnChoice answer(const TurnChoice& choice);  // the CPU time's mark moved on
  // The first position on the path (below the root) due a forcing check, as the index of the
  // path's edge into it; -1 if none.
  int due_forcing_check(const std::vector<std::uint32_t>& path) const;
  // After path[proven] is proven: the proofs it gives the edges above it.
  void carry_proof_up(const std::vector<std::uint32_t>& path, std::size_t proven);
  std::optional<TurnOptionLimits> wide_turns() const;  // MctsSettings::forcing_wide_turns
  // The time limit over `parts` (the CPU time's when that is the limit; none: no limit).
  std::chrono::milliseconds share_of_turn(int parts) const;
  ForcingLimits forcing_limits() const;  // the checks' limits, from the settings
  // MctsSettings::forcing_unlisted_only, where it applies (with a longer first list).
  bool unlisted_only() const { return settings_.forcing_unlisted_only && wide_turns(); }
  // Whether a position of the tree is one to check.
  bool worth_checking(const Node& n) const { return !n.complete || !unlisted_only(); }
  void keep_subtree(std::uint32_t root);

  // Whether the next position, besides those being built, might not fit.
  bool full() const;
  std::size_t room() const;  // this tree's share of the memory

  MctsSettings settings_;
  // Nodes are added after their parents, each with its edges, in the same order in both.
  ChunkedArray<Node> nodes_;
  ChunkedArray<Edge> edges_;
  // While threads search: the lock over the tree and the search's counts.
  SpinLock lock_;
  std::uint64_t iterations_ = 0;
  int being_built_ = 0;
  int checking_ = 0;  // forcing checks under way (each holds a path, outside the lock)
  bool stopping_ = false;
  bool root_proven_ = false;
  std::uint64_t forcing_checks_ = 0, forcing_wins_ = 0;
  // The process's CPU time at the last answer (or the tree's making), and the last turn's use.
  std::chrono::nanoseconds cpu_mark_{0};
  std::chrono::milliseconds last_cpu_{0};
};

}  // namespace arena::soccer
