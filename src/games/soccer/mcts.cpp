#include "games/soccer/mcts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/process_cpu.hpp"
#include "core/rng.hpp"
#include "games/soccer/eval.hpp"

namespace arena::soccer {
namespace {

bool wins(const State& over, Side side) {
  return over.result().outcome == win_for(side);
}

// A factor in [0.9, 1.1) for a prior, from the seed and the position after the turn.
double prior_noise(std::uint64_t seed, std::uint64_t position) {
  std::uint64_t state = seed ^ position;
  return 0.9 + 0.2 * static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

// Trees alive in this process: they share MctsSettings::process_tree_bytes.
std::atomic<int> live_trees{0};

}  // namespace

Mcts::Mcts(MctsSettings settings)
    : settings_(settings),
      cpu_mark_(settings.cpu_time_from_process_start ? std::chrono::nanoseconds(0)
                                                     : process_cpu()) {
  // An edge names its turn in 16 bits.
  settings_.turns.max_turns = std::clamp(settings_.turns.max_turns, 0, 4096);
  settings_.widened_turns = std::clamp(settings_.widened_turns, settings_.turns.max_turns, 4096);
  live_trees.fetch_add(1, std::memory_order_relaxed);
}

Mcts::~Mcts() {
  live_trees.fetch_sub(1, std::memory_order_relaxed);
}

double Mcts::prior_of_eval(double below_best) const {
  return std::exp(std::max(below_best, -50.0 * settings_.prior_scale) / settings_.prior_scale);
}

double Mcts::to_value(int eval) const {
  return 1.0 / (1.0 + std::exp(-eval / settings_.value_scale));
}

State Mcts::after_turn(const State& parent, const TurnOptionLimits& limits, int turn,
                       TurnOptions& scratch) const {
  scratch.list_first(parent, limits, turn + 1);
  return scratch.after(turn);
}

void Mcts::build(const State& s, const TurnOptionLimits& limits, Expansion& x) const {
  x.state = s;
  x.edges.clear();
  x.evals.clear();
  x.noise.clear();
  x.proof = Proof::Unknown;
  x.complete = true;
  if (s.over()) {  // at the end the side to move is still the side that played the last turn
    const bool won = wins(s, s.side_to_move());
    x.value = won ? 1.0 : 0.0;
    x.proof = won ? Proof::Win : Proof::Loss;
    return;
  }
  const Side mover = s.side_to_move();
  x.turns.list(s, limits);
  x.complete = x.turns.complete();
  const AfterTurnEvaluator evaluator(s);
  double best = -1.0, max_eval = -1e18;
  bool all_lose = true;
  int safe_turns = 0;  // not lost, and the opponent cannot score at once after them
  for (int i = 0; i < x.turns.size(); ++i) {
    const State& child = x.turns.after(i);
    Edge e;
    e.turn = static_cast<std::uint16_t>(i);
    const double eval = turn_eval(child, mover, evaluator, x.turns.steps(i));
    if (child.over()) {
      const bool won = eval > 0;
      e.proof = won ? Proof::Win : Proof::Loss;
      e.lost_at_once = !won;
      e.value = won ? 1.0 : 0.0;
    } else {
      e.value = to_value(static_cast<int>(eval));
    }
    if (e.proof != Proof::Loss) all_lose = false;
    // A goal in the opponent's reach is exactly -kGoalThreat here; any other evaluation, an open
    // shot at our goal included, stays far above three quarters of it.
    if (e.proof != Proof::Loss && eval > -kGoalThreat * 3 / 4) ++safe_turns;
    if (e.proof == Proof::Win) x.proof = Proof::Loss;  // the side to move here can score
    best = std::max(best, e.value);
    max_eval = std::max(max_eval, eval);
    x.evals.push_back(eval);
    x.noise.push_back(settings_.seed ? prior_noise(*settings_.seed, child.hash()) : 1.0);
    x.edges.push_back(e);
  }
  if (all_lose && x.complete) x.proof = Proof::Win;
  const bool networks = x.proof == Proof::Unknown && (settings_.value_net || settings_.policy_net);
  // Both networks read the same inputs: made once.
  thread_local std::vector<std::uint16_t> active;
  if (networks) {
    std::array<std::uint8_t, kPoints> turns;
    evaluator.turn_distances(turns);
    NetInputs::in_view(s, turns, false, active);
  }
  // Priors: a softmax of the evaluations of the positions after the turns, mixed with a softmax
  // of the evaluations plus the policy's logit of each turn's end point (times the noise).
  const bool policy = networks && settings_.policy_net;
  PolicyNet::Logits logits{};
  if (policy) {  // only the points the turns end on
    std::array<bool, kPoints> wanted{};
    std::array<std::uint8_t, kPoints> ends;
    std::size_t count = 0;
    for (int i = 0; i < x.turns.size(); ++i) {
      const int ball = x.turns.after(i).ball();
      if (!wanted[ball]) ends[count++] = static_cast<std::uint8_t>(ball);
      wanted[ball] = true;
    }
    settings_.policy_net->turn_logits(s, active, {ends.data(), count}, logits);
  }
  x.priors.clear();
  double max_exponent = -1e18;
  for (std::size_t i = 0; i < x.evals.size(); ++i) {
    const double exponent =
        std::max(x.evals[i] - max_eval, -50.0 * settings_.prior_scale) / settings_.prior_scale +
        logits[x.turns.after(static_cast<int>(i)).ball()];
    x.priors.push_back(exponent);
    max_exponent = std::max(max_exponent, exponent);
  }
  const double share = policy ? settings_.policy_share : 1.0;
  double policy_total = 0, eval_total = 0;
  for (std::size_t i = 0; i < x.priors.size(); ++i) {
    x.priors[i] = std::exp(std::max(x.priors[i] - max_exponent, -50.0));
    policy_total += x.priors[i];
    // From here on an evaluation is needed only as its prior.
    if (share < 1) eval_total += x.evals[i] = prior_of_eval(x.evals[i] - max_eval);
  }
  double total = 0;
  for (std::size_t i = 0; i < x.priors.size(); ++i) {
    double p = x.priors[i];
    if (share < 1) p = share * p / policy_total + (1 - share) * x.evals[i] / eval_total;
    p *= x.noise[i];
    x.edges[i].prior = static_cast<float>(p);
    total += p;
  }
  for (Edge& e : x.edges) e.prior = static_cast<float>(e.prior / total);
  x.value = x.proof == Proof::Win ? 1.0 : x.proof == Proof::Loss ? 0.0 : 1.0 - best;
  if (networks && settings_.value_net)
    x.value = 1.0 - settings_.value_net->win_chance(active, max_eval);
  const bool forced = x.complete && (safe_turns == 1 || safe_turns == 2);
  if (settings_.forced_penalty > 0 && x.proof == Proof::Unknown && forced)
    x.value = 1.0 - (1.0 - x.value) * (1.0 - settings_.forced_penalty / safe_turns);
}

bool Mcts::due_widening(const Node& n) const {
  // Not while another thread's walk holds edges of the list that is about to be replaced.
  return settings_.widen_visits > 0 && !n.complete && !n.widened &&
         n.visits >= settings_.widen_visits && being_built_ == 0 && checking_ == 0;
}

// The longer list starts with the shorter (turn_options.hpp), so edge k keeps its turn: its
// visits, values, child and proof carry over, and the priors are the longer list's. The new edges
// go at the end; the old ones stay unused until keep_subtree drops them.
bool Mcts::widen(std::uint32_t index) {
  Expansion x;
  build(nodes_[index].state, widened_limits(), x);
  Node& n = nodes_[index];
  if (x.edges.size() <= n.edge_count ||
      tree_bytes() + x.edges.size() * sizeof(Edge) + sizeof(Node) > room()) {
    n.widened = x.edges.size() <= n.edge_count;  // nothing new: not tried again
    if (n.widened) n.complete = x.complete;
    return false;
  }
  for (std::uint32_t k = 0; k < n.edge_count; ++k) {
    const Edge& old = edges_[n.first_edge + k];
    Edge& e = x.edges[k];
    e.value = old.value;
    e.visits = old.visits;
    e.child = old.child;
    e.proof = old.proof;
    e.lost_at_once = old.lost_at_once;
  }
  n.first_edge = static_cast<std::uint32_t>(edges_.size());
  n.edge_count = static_cast<std::uint32_t>(x.edges.size());
  n.complete = x.complete;
  n.widened = true;
  for (const Edge& e : x.edges) edges_.push_back(e);
  return true;
}

std::uint32_t Mcts::append(const Expansion& x) {
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(Node{x.state, static_cast<std::uint32_t>(edges_.size()),
                        static_cast<std::uint32_t>(x.edges.size()), 0, x.complete});
  for (const Edge& e : x.edges) edges_.push_back(e);
  return index;
}

// PUCT; an edge's evaluation counts as its first visit. Edges proven lost are never chosen: a
// node whose edges are all lost is proven, or, if its list of turns is not complete, gives kNone.
std::uint32_t Mcts::select(const Node& n) const {
  const double root_visits = std::sqrt(static_cast<double>(n.visits) + 1.0);
  std::uint32_t best = kNone;
  double best_score = -1e18;
  for (std::uint32_t i = n.first_edge; i < n.first_edge + n.edge_count; ++i) {
    const Edge& e = edges_[i];
    if (e.proof == Proof::Loss) continue;
    const double q = mean_value(e);
    const double score = q + settings_.exploration * e.prior * root_visits / (e.visits + 1.0);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

Mcts::Proof Mcts::proof_of(const Node& n) const {
  bool all_lose = n.edge_count > 0 && n.complete;
  for (std::uint32_t i = n.first_edge; i < n.first_edge + n.edge_count; ++i) {
    if (edges_[i].proof == Proof::Win) return Proof::Loss;
    if (edges_[i].proof != Proof::Loss) all_lose = false;
  }
  return all_lose ? Proof::Win : Proof::Unknown;
}

// Builds the child of a root edge and adds it, with one visit (before the threads start).
void Mcts::expand(std::uint32_t node, std::uint32_t edge) {
  Expansion x;
  const Node& parent = nodes_[node];
  build(after_turn(parent.state, limits_of(parent), edges_[edge].turn, x.parent_turns), x);
  const std::uint32_t index = append(x);
  Edge& e = edges_[edge];
  e.child = index;
  e.proof = x.proof;
  e.lost_at_once = x.proof == Proof::Loss;
  e.visits = 1;
  e.value += x.value;
  nodes_[index].visits = 1;
  nodes_[node].visits += 1;
}

void Mcts::search(const Deadline& deadline, std::uint64_t max_iterations) {
  Expansion x;
  std::vector<std::uint32_t> path;    // edges from the root down
  std::uint64_t done = 0;             // by this thread
  bool widened = false;               // since the clock was last looked at
  std::optional<ForcingLines> lines;  // only when the tree's positions are checked
  if (settings_.forcing_depth > 0 && settings_.forcing_visits > 0) lines.emplace(forcing_limits());
  std::unique_lock lock(lock_);
  for (;;) {
    if (stopping_ || root_proven_ || iterations_ + being_built_ >= max_iterations || full() ||
        (((done & 31) == 0 || widened) && out_of_time(deadline))) {
      stopping_ = true;
      return;
    }
    widened = false;
    path.clear();
    std::uint32_t node = 0;
    bool all_listed_lost = false;
    for (;;) {
      if (due_widening(nodes_[node]) && widen(node)) {
        widened = true;
        // The longer list may prove the position (all its turns lost, and now all listed).
        const Proof p = node != 0 ? proof_of(nodes_[node]) : Proof::Unknown;
        if (p != Proof::Unknown) {
          edges_[path.back()].proof = p;
          carry_proof_up(path, path.size() - 1);
          if (root_proven_) {
            stopping_ = true;
            return;
          }
        }
      }
      const std::uint32_t e = select(nodes_[node]);
      if (e == kNone) {
        all_listed_lost = true;
        break;
      }
      path.push_back(e);
      const std::uint32_t child = edges_[e].child;
      if (child == 0 || child == kBeingBuilt) break;
      node = child;
    }
    if (const int k = lines ? due_forcing_check(path) : -1; k >= 0) {
      // Checked once, outside the lock; positions keep their index while threads search.
      const std::uint32_t checked = edges_[path[static_cast<std::size_t>(k)]].child;
      nodes_[checked].forcing_checked = true;
      const State position = nodes_[checked].state;
      ++forcing_checks_;
      ++checking_;
      lock.unlock();
      const bool won = lines->forces_win(position, settings_.forcing_listings_each);
      lock.lock();
      --checking_;
      if (won) {  // its first turn may be one the tree does not list: the edge into it is lost
        ++forcing_wins_;
        edges_[path[static_cast<std::size_t>(k)]].proof = Proof::Loss;
        carry_proof_up(path, static_cast<std::size_t>(k));
      }
      if (out_of_time(deadline)) {
        stopping_ = true;
        return;
      }
      continue;
    }
    if (all_listed_lost) {
      // Every turn listed here loses, but not every turn is listed: valued as a loss for the
      // side to move, not proven.
      if (path.empty()) {  // at the root: nothing is left to search
        stopping_ = true;
        return;
      }
      count_visit(path);
      back_up(path, 1.0);
      ++iterations_;
      ++done;
      continue;
    }
    Edge& leaf = edges_[path.back()];
    if (leaf.child == kBeingBuilt) {  // another thread's: look again once it is in the tree
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
      continue;
    }
    count_visit(path);  // the virtual loss: the visits now, the values once known
    leaf.child = kBeingBuilt;
    ++being_built_;
    const State parent = nodes_[node].state;
    const TurnOptionLimits parent_limits = limits_of(nodes_[node]);
    const int turn = leaf.turn;
    lock.unlock();
    build(after_turn(parent, parent_limits, turn, x.parent_turns), x);
    lock.lock();
    --being_built_;
    const std::uint32_t index = append(x);
    Edge& built = edges_[path.back()];
    built.child = index;
    built.proof = x.proof;
    built.lost_at_once = x.proof == Proof::Loss;
    nodes_[index].visits = built.visits;
    back_up(path, x.value);
    // Only a root edge's proof can prove the root.
    if (edges_[path[0]].proof != Proof::Unknown)
      root_proven_ = proof_of(nodes_[0]) != Proof::Unknown;
    ++iterations_;
    ++done;
  }
}

bool Mcts::out_of_time(const Deadline& deadline) const {
  if (deadline.expired()) return true;
  if (!settings_.cpu_time) return false;
  const std::chrono::nanoseconds cpu = process_cpu() - cpu_mark_;
  // On a shared core the referee's user time, sampled at scheduler ticks, strays tens of ms from
  // the true time (more, the more the process waits): an eighth of the wait is kept in hand.
  const std::chrono::nanoseconds waited = deadline.since_start() - cpu;
  const std::chrono::nanoseconds reserve = std::max(waited / 8, std::chrono::nanoseconds(0));
  return cpu + reserve >= *settings_.cpu_time;
}

// A visit along the path from the root: its edges, and the positions they lead to that are in
// the tree.
void Mcts::count_visit(const std::vector<std::uint32_t>& path) {
  for (std::uint32_t e : path) {
    edges_[e].visits += 1;
    if (edges_[e].child != 0) nodes_[edges_[e].child].visits += 1;
  }
  nodes_[0].visits += 1;
}

// The value is the mover's of the deepest edge; it flips at every level. A proven child may
// prove its parent (MCTS-Solver): then the exact value goes up instead. The visits were counted
// on the way down.
void Mcts::back_up(const std::vector<std::uint32_t>& path, double value) {
  for (std::size_t k = path.size(); k-- > 0;) {
    Edge& e = edges_[path[k]];
    if (k + 1 < path.size()) {
      const Proof p = proof_of(nodes_[e.child]);
      if (p != Proof::Unknown) {
        e.proof = p;
        value = p == Proof::Win ? 1.0 : 0.0;
      }
    }
    e.value += value;
    value = 1.0 - value;
  }
}

std::vector<TurnVisits> Mcts::root_visits() const {
  std::vector<TurnVisits> out;
  if (nodes_.empty()) return out;
  const Node& root = nodes_[0];
  for (std::uint32_t i = root.first_edge; i < root.first_edge + root.edge_count; ++i)
    if (edges_[i].visits > 0) out.push_back({edges_[i].turn, edges_[i].visits});
  std::sort(out.begin(), out.end(),
            [](const TurnVisits& a, const TurnVisits& b) { return a.turn < b.turn; });
  return out;
}

// The node two turns below the root (our turn, then the opponent's) with this position, if the
// last search built it; 0 if none.
std::uint32_t Mcts::find_reply(const State& s) const {
  if (nodes_.empty()) return 0;
  const Node& root = nodes_[0];
  for (std::uint32_t i = root.first_edge; i < root.first_edge + root.edge_count; ++i) {
    const std::uint32_t c = edges_[i].child;
    if (c == 0) continue;
    const Node& mine = nodes_[c];
    for (std::uint32_t j = mine.first_edge; j < mine.first_edge + mine.edge_count; ++j) {
      const std::uint32_t g = edges_[j].child;
      if (g != 0 && nodes_[g].state.hash() == s.hash() && nodes_[g].state.ply() == s.ply())
        return g;
    }
  }
  return 0;
}

// Keeps only the subtree under `root`, moved down in place so that it becomes node 0: children
// come after their parents, so the kept nodes in their old order start with `root`, and each
// moves to an index no greater than its old one. The edge lists likewise, taken in the order they
// lie in, with no second tree in memory: the lists of positions never widened lie in the
// positions' order, and the few widened ones (whose lists were added later) are merged in.
void Mcts::keep_subtree(std::uint32_t root) {
  constexpr std::uint32_t kDropped = ~std::uint32_t{0};
  std::vector<std::uint32_t> new_index(nodes_.size(), kDropped);
  new_index[root] = 0;  // kept; the real index is set below
  std::uint32_t kept_nodes = 0;
  for (std::uint32_t i = root; i < nodes_.size(); ++i) {
    if (new_index[i] == kDropped) continue;
    const Node& n = nodes_[i];
    for (std::uint32_t k = 0; k < n.edge_count; ++k)
      if (const std::uint32_t c = edges_[n.first_edge + k].child; c != 0) new_index[c] = 0;
    new_index[i] = kept_nodes;
    nodes_[kept_nodes++] = n;
  }
  nodes_.shrink_to(kept_nodes);
  const auto placed_before = [&](std::uint32_t a, std::uint32_t b) {
    return nodes_[a].first_edge < nodes_[b].first_edge;
  };
  std::vector<std::uint32_t> in_order, widened;
  in_order.reserve(kept_nodes);
  for (std::uint32_t i = 0; i < kept_nodes; ++i)
    (nodes_[i].widened ? widened : in_order).push_back(i);
  std::sort(widened.begin(), widened.end(), placed_before);
  std::vector<std::uint32_t> by_place(kept_nodes);
  std::merge(in_order.begin(), in_order.end(), widened.begin(), widened.end(), by_place.begin(),
             placed_before);
  std::uint32_t kept_edges = 0;
  for (std::uint32_t i : by_place) {
    Node& n = nodes_[i];
    for (std::uint32_t k = 0; k < n.edge_count; ++k) {
      Edge e = edges_[n.first_edge + k];
      if (e.child != 0) e.child = new_index[e.child];
      edges_[kept_edges + k] = e;
    }
    n.first_edge = kept_edges;
    kept_edges += n.edge_count;
  }
  edges_.shrink_to(kept_edges);
}

std::size_t Mcts::tree_bytes() const {
  return nodes_.size() * sizeof(Node) + edges_.size() * sizeof(Edge);
}

// Full unless the next position and its edges (one per candidate turn at most) still fit in this
// tree's share of the memory, after those that other threads are building.
bool Mcts::full() const {
  const std::size_t most = sizeof(Node) + static_cast<std::size_t>(std::max(
                                              TurnState::kMaxMoves, settings_.turns.max_turns)) *
                                              sizeof(Edge);
  return tree_bytes() + (being_built_ + 1) * most > room();
}

std::size_t Mcts::room() const {
  std::size_t room = settings_.max_tree_bytes;
  if (settings_.process_tree_bytes) {
    const auto trees = std::max(1, live_trees.load(std::memory_order_relaxed));
    room = std::min(room, *settings_.process_tree_bytes / static_cast<std::size_t>(trees));
  }
  return room;
}

std::string Mcts::check_tree() const {
  TurnOptions turns;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> lists;  // each position's edges
  for (std::uint32_t i = 0; i < nodes_.size(); ++i)
    lists.emplace_back(nodes_[i].first_edge, nodes_[i].first_edge + nodes_[i].edge_count);
  std::sort(lists.begin(), lists.end());
  for (std::size_t k = 0; k < lists.size(); ++k)
    if (lists[k].second > edges_.size() || (k > 0 && lists[k].first < lists[k - 1].second))
      return fmt::format("the edges from {} to {} are not one position's alone", lists[k].first,
                         lists[k].second);
  for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    std::uint64_t visits = 0;
    turns.list(n.state, limits_of(n));
    if (n.complete != turns.complete())
      return fmt::format("position {} is marked complete {}, its list {}", i, n.complete,
                         turns.complete());
    if (n.edge_count != static_cast<std::uint32_t>(turns.size()))
      return fmt::format("position {} has {} edges, its list {} turns", i, n.edge_count,
                         turns.size());
    for (std::uint32_t k = n.first_edge; k < n.first_edge + n.edge_count; ++k) {
      const Edge& e = edges_[k];
      visits += e.visits;
      if (e.turn != k - n.first_edge)
        return fmt::format("edge {} of position {} names turn {}", k, i, e.turn);
      if (e.child == 0) continue;
      if (e.child <= i || e.child >= nodes_.size())
        return fmt::format("edge {} of position {} leads to position {}", k, i, e.child);
      const State& after = turns.after(e.turn);
      const State& child = nodes_[e.child].state;
      if (after.hash() != child.hash() || after.ply() != child.ply())
        return fmt::format("edge {} of position {} leads to another position", k, i);
      if (nodes_[e.child].visits != e.visits)
        return fmt::format("position {} has {} visits, its edge {}", e.child,
                           nodes_[e.child].visits, e.visits);
    }
    if (visits > n.visits)
      return fmt::format("position {}: its edges have {} visits, it has {}", i, visits, n.visits);
  }
  return {};
}

int Mcts::due_forcing_check(const std::vector<std::uint32_t>& path) const {
  for (std::size_t k = 0; k < path.size(); ++k) {
    const std::uint32_t c = edges_[path[k]].child;
    if (c == 0 || c == kBeingBuilt) return -1;
    const Node& n = nodes_[c];
    if (!n.forcing_checked && n.visits >= settings_.forcing_visits &&
        edges_[path[k]].proof == Proof::Unknown && worth_checking(n))
      return static_cast<int>(k);
  }
  return -1;
}

void Mcts::carry_proof_up(const std::vector<std::uint32_t>& path, std::size_t proven) {
  for (std::size_t k = proven; k-- > 0;) {
    const Proof p = proof_of(nodes_[edges_[path[k]].child]);
    if (p == Proof::Unknown) return;
    edges_[path[k]].proof = p;
  }
  root_proven_ = proof_of(nodes_[0]) != Proof::Unknown;
}

std::chrono::milliseconds Mcts::share_of_turn(int parts) const {
  const std::optional<std::chrono::milliseconds> limit =
      settings_.cpu_time ? settings_.cpu_time : settings_.time;
  return limit ? *limit / parts : std::chrono::milliseconds::max();
}

std::optional<TurnOptionLimits> Mcts::wide_turns() const {
  if (settings_.forcing_wide_turns <= settings_.turns.max_turns) return std::nullopt;
  return TurnOptionLimits{settings_.forcing_wide_turns, settings_.turns.steps_per_turn};
}

ForcingLimits Mcts::forcing_limits() const {
  return {settings_.forcing_depth, 1, settings_.turns, wide_turns(),
          unlisted_only() ? settings_.turns.max_turns : 0};
}

// Our forcing win first; else, the likeliest turns first, those after which the opponent has one.
// Every root edge has its position built (choose).
std::optional<Turn> Mcts::prove_forcing_lines(const State& s, const Deadline& deadline) {
  // An eighth of the turn's time at most (the CPU time when that is the limit).
  const std::chrono::milliseconds share = share_of_turn(8);
  ForcingLines lines(forcing_limits());
  std::int64_t budget = settings_.forcing_listings;
  const Node& root = nodes_[0];
  const std::uint32_t first = root.first_edge, end = root.first_edge + root.edge_count;
  if (const auto turn =
          worth_checking(root)
              ? lines.winning_turn(s, std::min(budget, settings_.forcing_listings_each))
              : std::nullopt) {
    // A longer list starts with the tree's: a turn beyond it is no edge, and is played as it is.
    if (*turn >= static_cast<int>(root.edge_count)) return lines.first_list_turn(*turn);
    for (std::uint32_t e = first; e < end; ++e)
      if (edges_[e].turn == *turn) edges_[e].proof = Proof::Win;
    return std::nullopt;
  }
  budget -= lines.listings();
  std::vector<std::uint32_t> order;
  for (std::uint32_t e = first; e < end; ++e)
    if (edges_[e].proof == Proof::Unknown && edges_[e].child != 0 &&
        worth_checking(nodes_[edges_[e].child]))
      order.push_back(e);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return edges_[a].prior > edges_[b].prior;
  });
  for (std::uint32_t e : order) {
    if (budget <= 0 || deadline.elapsed() >= share) break;
    Node& after = nodes_[edges_[e].child];
    const std::int64_t allowed = std::min(budget, settings_.forcing_listings_each);
    if (lines.forces_win(after.state, allowed)) edges_[e].proof = Proof::Loss;
    if (lines.listings() < allowed) after.forcing_checked = true;  // else the tree may retry
    budget -= lines.listings();
  }
  return std::nullopt;
}

TurnChoice Mcts::choose(const State& s) {
  const Deadline deadline(settings_.time);
  if (const std::uint32_t reply = settings_.reuse_tree ? find_reply(s) : 0) {
    keep_subtree(reply);
  } else {
    nodes_.clear();
    edges_.clear();
    Expansion x;
    build(s, x);
    append(x);
  }
  // The memory kept from a larger tree goes back when the share has become smaller (another
  // tree in the process).
  if (nodes_.capacity_bytes() + edges_.capacity_bytes() > room()) {
    nodes_.release_unused();
    edges_.release_unused();
  }
  // The root's longer list at once: its every turn is looked at below.
  if (settings_.widen_visits > 0 && !nodes_[0].complete && !nodes_[0].widened) widen(0);
  // Every turn of the root is looked at once: the opponent's immediate replies are then proven
  // for all of them, so a turn that lets the opponent score at once is never chosen when another
  // exists, however small its prior.
  const Node root_node = nodes_[0];
  const std::chrono::milliseconds quarter = share_of_turn(4);
  for (std::uint32_t k = 0; k < root_node.edge_count; ++k) {
    const std::uint32_t e = root_node.first_edge + k;
    if (edges_[e].proof != Proof::Unknown || edges_[e].child != 0) continue;
    // A widened root may have a thousand turns: those beyond the first list within a quarter of
    // the turn (the search expands the rest when it visits them).
    if (k >= static_cast<std::uint32_t>(settings_.turns.max_turns) && k % 16 == 0 &&
        (deadline.elapsed() >= quarter || out_of_time(deadline)))
      break;
    expand(0, e);
  }
  iterations_ = 0;
  forcing_checks_ = 0;
  forcing_wins_ = 0;
  if (settings_.forcing_depth > 0 && proof_of(nodes_[0]) == Proof::Unknown) {
    if (const std::optional<Turn> win = prove_forcing_lines(s, deadline))
      return answer({*win, kWinScore - 1, 1, 0, deadline.elapsed()});
  }
  being_built_ = 0;
  stopping_ = false;
  root_proven_ = proof_of(nodes_[0]) != Proof::Unknown;
  const std::uint64_t max_iterations = settings_.max_iterations.value_or(~std::uint64_t{0});
  {
    std::vector<std::jthread> helpers;
    for (int t = 1; t < settings_.threads; ++t) {
      try {
        helpers.emplace_back([&] { search(deadline, max_iterations); });
      } catch (const std::system_error&) {
        break;  // no more threads to be had (a process limit): search with those there are
      }
    }
    search(deadline, max_iterations);
  }  // the helpers are joined: each has added what it was building
  // The turn: a proven win, else the most visited edge not proven lost (ties: the better value).
  const Node& root = nodes_[0];
  std::uint32_t best = root.first_edge;
  auto rank = [&](const Edge& e) {
    if (e.proof == Proof::Win) return 1e15;
    // All lost: the one lost furthest away (an opponent that errs may still let it go).
    if (e.proof == Proof::Loss) return -1e15 + (e.lost_at_once ? 0 : 1e12) + e.visits;
    return e.visits + mean_value(e);
  };
  for (std::uint32_t i = root.first_edge; i < root.first_edge + root.edge_count; ++i)
    if (rank(edges_[i]) > rank(edges_[best])) best = i;
  TurnChoice out;
  TurnOptions turns;
  turns.list(s, limits_of(root));
  out.turn = turns.turn(edges_[best].turn);
  const Edge& b = edges_[best];
  const double q = b.proof == Proof::Win ? 1.0 : b.proof == Proof::Loss ? 0.0 : mean_value(b);
  const double clamped = std::clamp(q, 1e-6, 1.0 - 1e-6);
  out.score = b.proof == Proof::Win ? kWinScore - 1
              : b.proof == Proof::Loss
                  ? -(kWinScore - 1)
                  : static_cast<int>(settings_.value_scale * std::log(clamped / (1.0 - clamped)));
  // The principal line's length in turns.
  int depth = 0;
  for (std::uint32_t e = best;;) {
    ++depth;
    const std::uint32_t c = edges_[e].child;
    if (c == 0 || nodes_[c].edge_count == 0) break;
    const Node& n = nodes_[c];
    std::uint32_t next = n.first_edge;
    for (std::uint32_t i = n.first_edge; i < n.first_edge + n.edge_count; ++i)
      if (edges_[i].visits > edges_[next].visits) next = i;
    if (edges_[next].visits == 0) break;
    e = next;
  }
  out.depth = depth;
  out.nodes = iterations_;
  out.elapsed = deadline.elapsed();
  return answer(out);
}

TurnChoice Mcts::answer(const TurnChoice& choice) {
  if (settings_.cpu_time) {  // the answer follows at once: the referee's clock starts again
    const auto now = process_cpu();
    last_cpu_ = std::chrono::duration_cast<std::chrono::milliseconds>(now - cpu_mark_);
    cpu_mark_ = now;
  }
  return choice;
}

}  // namespace arena::soccer
