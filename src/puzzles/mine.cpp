// Finding puzzles in one game: candidate, confirmation, solution line, proof, themes.
#include <algorithm>
#include <bit>

#include "puzzles/puzzles.h"
#include "rules/notation.h"
#include "search/engine.h"
#include "tables/solver.h"

namespace toguz::puzzles {

namespace {

// The two best moves of a position by a multi-PV search from fresh tables (so that every
// search is the same whatever ran before it: a resumed build equals an uninterrupted one).
struct Top2 {
  int best = 0;  // 0: the game is over
  search::Score first, second;
  bool has_second = false;  // more than one legal move
  int found_depth = 0;      // the first depth from which line 1 starts with `best`
  int gap() const { return first.cp - second.cp; }
};

Top2 top2(search::Engine& engine, const Position& pos, int depth) {
  engine.new_game();
  engine.set_position(Game(pos));
  search::Limits limits;
  limits.depth = depth;
  std::vector<std::pair<int, int>> firsts;  // (depth, first move of line 1) per iteration
  const search::SearchResult r = engine.search(limits, [&firsts](const search::Info& info) {
    if (info.multipv == 1 && !info.pv.empty()) firsts.emplace_back(info.depth, info.pv[0]);
  });
  Top2 t;
  t.best = r.best_move;
  if (!r.lines.empty()) t.first = r.lines[0].score;
  if (r.lines.size() > 1) t.second = r.lines[1].score, t.has_second = true;
  t.found_depth = 1;
  for (const auto& [d, move] : firsts)
    if (move != t.best) t.found_depth = d + 1;
  return t;
}

// A move the puzzle may ask for: the only legal one, or the best by the margin.
bool clear_best(const Top2& t, int margin_cp) {
  return t.best != 0 && (!t.has_second || t.gap() >= margin_cp);
}

int board_stones(const Position& pos) {
  return pos.rules().total_stones() - pos.kazna(Side::White) - pos.kazna(Side::Black);
}

// A solver verdict for the side that just moved into `child`: (result, margin if known).
struct Verdict {
  bool proven = false;
  int result = 0;
  std::optional<int> margin;
};

Verdict verdict_after(const Position& pos, int hole, uint64_t nodes) {
  const Position child = pos.after(hole);
  Verdict v;
  const Outcome how = child.outcome();
  if (how != Outcome::Ongoing) {
    const auto s = child.final_score(how);
    const int me = index(pos.side_to_move());
    const int m = s[me] - s[1 - me];
    v.proven = true, v.result = m > 0 ? 1 : m < 0 ? -1 : 0, v.margin = m;
    return v;
  }
  tables::SolveOptions so;
  so.max_nodes = nodes;
  so.hash_log2 = 18;
  const tables::Solution s = tables::solve(child, so);
  if (!s.proven) return v;
  v.proven = true, v.result = -s.result;
  if (s.margin) v.margin = -*s.margin;
  return v;
}

// The solver's word on the first move: every legal move solved (no history: a puzzle is shown
// as a position alone). proven: all solved and `first` is better than every other move by
// result, or by at least margin_cp / 100 stones of proven margin. refuted: all solved and
// another move is as good or better. Otherwise neither (a limit was hit).
struct Proof {
  bool proven = false;
  bool refuted = false;
  int result = 0;
  std::optional<int> margin;
};

Proof prove_first(const Position& pos, int first, int margin_cp, uint64_t nodes) {
  Proof p;
  const Verdict best = verdict_after(pos, first, nodes);
  if (!best.proven) return p;
  bool unique = true, unknown = false;
  for (uint32_t mask = pos.legal_mask(); mask; mask &= mask - 1) {
    const int hole = __builtin_ctz(mask) + 1;
    if (hole == first) continue;
    const Verdict v = verdict_after(pos, hole, nodes);
    if (!v.proven) return p;
    if (v.result > best.result) unique = false;
    if (v.result == best.result) {
      if (!best.margin || !v.margin)
        unknown = true;
      else if ((*best.margin - *v.margin) * 100 < margin_cp)
        unique = false;
    }
  }
  p.proven = unique && !unknown, p.refuted = !unique, p.result = best.result,
  p.margin = best.margin;
  return p;
}

// Themes by the rules of docs/puzzles.md.
std::vector<std::string> themes_of(const Position& root, const std::vector<int>& line,
                                   const Top2& t) {
  std::vector<std::string> out;
  const Side me = root.side_to_move();
  Position pos = root;
  bool capture = false, tuz = false;
  MoveInfo first_info;
  for (size_t i = 0; i < line.size(); ++i) {
    const MoveInfo info = pos.play(line[i]);
    if (i == 0) first_info = info;
    if (i % 2 == 0) capture |= info.captured > 0, tuz |= info.tuz_made;
  }
  if (capture) out.push_back("capture");
  if (tuz) out.push_back("tuz");
  // Starving: the opponent's playable holes drop to two or fewer (none ends the game).
  auto playable = [](const Position& p, Side s) {
    int k = 0;
    for (int h = 1; h <= p.n(); ++h) k += p.stones(s, h) > 0;
    return k;
  };
  if (playable(root, opposite(me)) > 2 && playable(pos, opposite(me)) <= 2)
    out.push_back("starving");
  if (t.first.cp <= 100) out.push_back("defence");
  if (board_stones(root) <= 40) out.push_back("endgame");
  // Giving stones away: the first move takes nothing and leaves the opponent a capture or a tuz.
  if (first_info.captured == 0 && !first_info.tuz_made) {
    const Position after = root.after(line[0]);
    bool offered = false;
    if (after.outcome() == Outcome::Ongoing)
      for (uint32_t mask = after.legal_mask(); mask && !offered; mask &= mask - 1) {
        Position p = after;
        const MoveInfo r = p.play(__builtin_ctz(mask) + 1);
        offered = r.captured > 0 || r.tuz_made;
      }
    if (offered) out.push_back("sacrifice");
  }
  return out;
}

}  // namespace

// Puzzles are found and re-checked with the hand-made evaluation: the margins (margin_cp, the
// "won whatever is played" bounds) are set in its scale of stones, on which the shipped set was
// built; the network's scores are steeper, and puzzles mined with it held less often one ply
// deeper (2 of 9 from the corpus sample lost their 5-stone margin).
constexpr search::EvalKind kMiningEval = search::EvalKind::Classic;

std::vector<Puzzle> mine_game(const Game& game, const Source& source, const MineOptions& o) {
  const int confirm_depth = o.confirm_depth > 0 ? o.confirm_depth : o.depth + 2;
  search::Engine engine;
  search::Options eo;
  eo.hash_mb = o.hash_mb;
  eo.multipv = 2;
  eo.eval = kMiningEval;
  engine.set_options(eo);
  std::vector<Puzzle> out;
  for (int ply = o.skip_plies; ply < game.ply_count(); ++ply) {
    const Position& root = game.position_at(ply);
    if (root.outcome() != Outcome::Ongoing || std::popcount(root.legal_mask()) < 2) continue;
    // Candidate: one move clearly best, in a game the choice still matters: not lost or won by
    // 15 stones whatever is played.
    const Top2 c = top2(engine, root, o.depth);
    auto worth = [&o](const Top2& t) {
      return t.has_second && t.gap() >= o.margin_cp && !(t.first.proven && t.first.result < 0) &&
             !(t.second.proven && t.second.result > 0) && t.second.cp < 1500 && t.first.cp > -1500;
    };
    if (!worth(c)) continue;
    const Top2 confirm = top2(engine, root, confirm_depth);
    if (!worth(confirm) || confirm.best != c.best) continue;

    Puzzle p;
    p.position = format_position(root);
    p.side = root.side_to_move();
    p.key = root.key();
    p.board_key = root.board_key();
    p.best_cp = confirm.first.cp;
    p.second_cp = confirm.second.cp;
    p.found_depth = confirm.found_depth;
    // The line: our clear best moves and the forced replies between them; it stops when a
    // reply is not forced, our next move is not clear, or the stones won on the line (our
    // kazna gain minus the opponent's) reach the margin.
    const Side me = root.side_to_move();
    auto net = [&](const Position& pos) {
      return (pos.kazna(me) - root.kazna(me)) -
             (pos.kazna(opposite(me)) - root.kazna(opposite(me)));
    };
    Position pos = root;
    p.line.push_back(confirm.best);
    pos.play(confirm.best);
    while (int(p.line.size()) + 2 <= o.max_line && pos.outcome() == Outcome::Ongoing &&
           net(pos) * 100 < o.margin_cp) {
      const Top2 reply = top2(engine, pos, o.depth);
      if (!clear_best(reply, o.margin_cp)) break;
      const Position next = pos.after(reply.best);
      if (next.outcome() != Outcome::Ongoing) break;
      const Top2 ours = top2(engine, next, o.depth);
      if (!clear_best(ours, o.margin_cp)) break;
      p.line.push_back(reply.best);
      p.line.push_back(ours.best);
      pos = next;
      pos.play(ours.best);
    }
    Position walk = root;
    for (int hole : p.line) p.line_notation.push_back(format_move(walk.play(hole)));

    if (board_stones(root) <= o.prove_stones) {
      const Proof proof = prove_first(root, p.line[0], o.margin_cp, o.solver_nodes);
      if (proof.refuted) continue;  // the solver knows better than the search
      p.proven = proof.proven, p.proven_result = proof.result, p.proven_margin = proof.margin;
    }
    p.themes = themes_of(root, p.line, confirm);
    p.difficulty = std::clamp(p.found_depth + int(p.line.size() - 1) / 2, 1, 10);
    p.source = source;
    p.source.ply = ply;
    p.source.played = game.moves()[ply].hole;
    out.push_back(std::move(p));
  }
  return out;
}

bool recheck_puzzle(const Puzzle& puzzle, int depth, int margin_cp, std::string* why) {
  const Position pos = parse_position(puzzle.position);
  search::Engine engine;
  search::Options eo;
  eo.multipv = 2;
  eo.hash_mb = 4;
  eo.eval = kMiningEval;
  engine.set_options(eo);
  const Top2 t = top2(engine, pos, depth);
  if (t.best != puzzle.line.at(0)) {
    *why = "the best move at depth " + std::to_string(depth) + " is " + std::to_string(t.best) +
           ", not " + std::to_string(puzzle.line[0]);
    return false;
  }
  if (t.has_second && t.gap() < margin_cp) {
    *why = "the best move beats the second by " + std::to_string(t.gap()) + " cp at depth " +
           std::to_string(depth) + ", less than " + std::to_string(margin_cp);
    return false;
  }
  return true;
}

bool reprove_puzzle(const Puzzle& puzzle, int margin_cp, uint64_t nodes, std::string* why) {
  const Position pos = parse_position(puzzle.position);
  const Proof proof = prove_first(pos, puzzle.line.at(0), margin_cp, nodes);
  if (!proof.proven || proof.result != puzzle.proven_result ||
      proof.margin != puzzle.proven_margin) {
    *why = proof.proven ? "proved again with another result or margin" : "not proved again";
    return false;
  }
  return true;
}

}  // namespace toguz::puzzles
