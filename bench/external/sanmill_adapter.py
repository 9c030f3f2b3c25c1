#!/usr/bin/env python3
"""Nine Men's Morris: arena's engine protocol around the console engine of calcitem/Sanmill.

Ours, kept outside the product (docs/strength.md): it speaks arena's engine protocol on
stdin/stdout (docs/match.md: uci, isready, ucinewgame, position startpos [moves M1; M2; ...],
go [movetime MS], quit) and drives a Sanmill binary the user built, as a child process, over
Sanmill's UCI-like protocol. Python 3, standard library only.

  sanmill_adapter.py --engine PATH [--move-time MS=1000] [--margin MS=40] [--margin-pct 5]
                     [--remove-share 0.25] [--window 100] [--log FILE]
                     [--setoption NAME=VALUE ...]

Notation. Both name the 24 points a1..g7 alike. arena gives a move with its removal in one
text (a1, a1g7 placing; a1a4, a1a4g7 moving or flying); Sanmill takes and gives them as
separate plies of the same side: a1 / a1-a4, then xg7. A 4-letter arena text is a placement
with a removal while the side has pieces in hand, else a move. When Sanmill's move closes a
mill, it is asked again in the position after it for the removal, in the same move time.

Rules. Sanmill's rule options are set to the course's game (docs/morris.md; the RULES list
below). Two of its rules cannot be switched off: a draw after NMoveRule (at most 200) plies
without a removal, and repetition as a draw when a position comes a third time at the root
(inside its search one repetition already counts as a draw, as in the course's rule; arena's
referee ends the game at the first repetition, so Sanmill never meets the third). So that the
first never fires, a game that has gone more than --window plies without a placement or
removal, now or earlier, is given to Sanmill as a FEN (its move counter 0) plus the moves since:
the position after the last placement or removal, or --window plies back if that is longer ago.
Sanmill then does not know repetitions older than --window plies (none older than the last
placement or removal can come again).

Time. For `go movetime MS` Sanmill searches until MS less the margin (--margin ms plus
--margin-pct %), then is told `stop` (its own MoveTime option is set to 60 s, the most it
takes, so that it deepens iteratively; its own clock counts whole seconds). When the side to
move can close a mill, the first search gets (1 - --remove-share) of that and the removal
search the rest.

Checks. Every position arena gives is replayed on our own board (an illegal move: `error`),
Sanmill's view of it is compared after `position` (its `d` command: points, side to move,
phase, pieces on board and in hand) and Sanmill's answers are checked against our board. Any
fault (Sanmill gone, silent, an answer we do not know, a position that differs) gives one
line `error ...` (arena counts it as a crash); a Sanmill that failed is then started afresh.
"""

import argparse
import os
import queue
import re
import subprocess
import sys
import threading
import time

POINTS = ("a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7").split()
EDGES = ("a1-d1 d1-g1 a1-a4 a4-a7 a7-d7 d7-g7 g7-g4 g4-g1 "
         "b2-d2 d2-f2 b2-b4 b4-b6 b6-d6 d6-f6 f6-f4 f4-f2 "
         "c3-d3 d3-e3 c3-c4 c4-c5 c5-d5 d5-e5 e5-e4 e4-e3 "
         "a4-b4 b4-c4 e4-f4 f4-g4 d1-d2 d2-d3 d5-d6 d6-d7").split()
MILLS = [m.split() for m in (
    "a1 d1 g1|b2 d2 f2|c3 d3 e3|a4 b4 c4|e4 f4 g4|c5 d5 e5|b6 d6 f6|a7 d7 g7|"
    "a1 a4 a7|b2 b4 b6|c3 c4 c5|d1 d2 d3|d5 d6 d7|e3 e4 e5|f2 f4 f6|g1 g4 g7").split("|")]
ADJ = {p: set() for p in POINTS}
for e in EDGES:
    x, y = e.split("-")
    ADJ[x].add(y)
    ADJ[y].add(x)
MILLS_OF = {p: [m for m in MILLS if p in m] for p in POINTS}
# Sanmill's squares 8..31 in the order of its FEN (src/uci.cpp, UCI::square).
FEN_ORDER = ("d5 e5 e4 e3 d3 c3 c4 c5 d6 f6 f4 f2 d2 b2 b4 b6 "
             "d7 g7 g4 g1 d1 a1 a4 a7").split()
PIECES = 9

# The course's rules (docs/morris.md) in Sanmill's rule options (src/ucioption.cpp).
RULES = [
    ("PiecesCount", "9"), ("flyPieceCount", "3"), ("PiecesAtLeastCount", "3"),
    ("HasDiagonalLines", "false"), ("MayFly", "true"),
    ("MillFormationActionInPlacingPhase", "0"),  # remove a piece from the board
    ("MayMoveInPlacingPhase", "false"), ("IsDefenderMoveFirst", "false"),
    ("MayRemoveMultiple", "false"),  # two mills at once still remove one piece
    ("MayRemoveFromMillsAlways", "false"),  # from a mill only when all are in mills
    ("RestrictRepeatedMillsFormation", "false"), ("OneTimeUseMill", "false"),
    ("CustodianCaptureEnabled", "false"), ("InterventionCaptureEnabled", "false"),
    ("LeapCaptureEnabled", "false"),
    ("BoardFullAction", "0"), ("StopPlacingWhenTwoEmptySquares", "false"),
    ("StalemateAction", "0"),  # no legal move: that side loses
    ("NMoveRule", "200"), ("EndgameNMoveRule", "200"),  # the most it takes (no limit: none)
    ("ThreefoldRepetitionRule", "true"),
]
# How it plays: its app's strongest setting (skill 30, MTD(f), the app's defaults otherwise),
# one thread, no perfect database, its own clock out of the way (we stop it).
PLAY = [
    ("Threads", "1"), ("DeveloperMode", "false"), ("SkillLevel", "30"), ("MoveTime", "60"),
    ("Algorithm", "2"), ("AiIsLazy", "false"), ("Shuffling", "true"),
    ("UsePerfectDatabase", "false"), ("DrawOnHumanExperience", "true"),
    ("ConsiderMobility", "true"), ("FocusOnBlockingPaths", "false"), ("TrapAwareness", "false"),
]

BESTMOVE = re.compile(r"^info score (-?\d+)(?: aimovetype \S+)? bestmove (\S+)\s*$")


class Fault(Exception):
    pass


class Board:
    """The course's game, just enough to replay and check moves."""

    def __init__(self):
        self.at = {}  # point -> "W" / "B"
        self.hand = {"W": PIECES, "B": PIECES}
        self.side = "W"

    def copy(self):
        b = Board()
        b.at = dict(self.at)
        b.hand = dict(self.hand)
        b.side = self.side
        return b

    @staticmethod
    def other(c):
        return "B" if c == "W" else "W"

    def count(self, c):
        return sum(1 for v in self.at.values() if v == c)

    def placing(self):
        return self.hand[self.side] > 0

    def in_mill(self, p):
        c = self.at.get(p)
        return c is not None and any(all(self.at.get(q) == c for q in m) for m in MILLS_OF[p])

    def closes_mill(self, frm, to):
        c = self.side
        return any(all(q == to or (q != frm and self.at.get(q) == c) for q in m)
                   for m in MILLS_OF[to])

    def removable(self, p):
        them = self.other(self.side)
        if self.at.get(p) != them:
            return False
        theirs = [q for q, v in self.at.items() if v == them]
        return not self.in_mill(p) or all(self.in_mill(q) for q in theirs)

    def can_close_mill(self):
        """Whether some move of the side to move closes a mill."""
        c = self.side
        empty = [p for p in POINTS if p not in self.at]
        if self.placing():
            return any(self.closes_mill(None, p) for p in empty)
        fly = self.count(c) == 3
        for f in [p for p, v in self.at.items() if v == c]:
            for t in (empty if fly else [q for q in ADJ[f] if q not in self.at]):
                if self.closes_mill(f, t):
                    return True
        return False

    def check_step(self, frm, to):
        """Why frm->to (frm None: a placement) is illegal here, or None."""
        if to not in POINTS or (frm is not None and frm not in POINTS):
            return "unknown point"
        if self.placing():
            if frm is not None:
                return "a piece is to be placed"
        elif frm is None:
            return "no piece in hand"
        elif self.at.get(frm) != self.side:
            return f"no own piece on {frm}"
        elif self.count(self.side) > 3 and to not in ADJ[frm]:
            return f"{to} is not next to {frm}"
        if to in self.at:
            return f"{to} is not empty"
        return None

    def split(self, text):
        """arena's move text -> (from or None, to, removed or None)."""
        t = text.strip().lower()
        if not re.fullmatch(r"([a-g][1-7]){1,3}", t):
            raise Fault(f"'{text}' is not a Morris move text")
        sq = [t[i:i + 2] for i in range(0, len(t), 2)]
        if self.placing():
            if len(sq) > 2:
                raise Fault(f"'{text}': a placement names at most two points")
            return None, sq[0], (sq[1] if len(sq) == 2 else None)
        if len(sq) < 2:
            raise Fault(f"'{text}': a move names its two points")
        return sq[0], sq[1], (sq[2] if len(sq) == 3 else None)

    def play(self, frm, to, rem):
        """Plays a whole move (with its removal), checked; raises Fault if illegal."""
        why = self.check_step(frm, to)
        if why:
            raise Fault(why)
        # As arena: a mill removes a piece only if the opponent has one on the board.
        mill = self.closes_mill(frm, to) and self.other(self.side) in self.at.values()
        if mill and rem is None:
            raise Fault(f"{to} closes a mill: a removal is needed")
        if not mill and rem is not None:
            raise Fault(f"{to} closes no mill: no removal")
        if frm is None:
            self.hand[self.side] -= 1
        else:
            del self.at[frm]
        self.at[to] = self.side
        if rem is not None:
            if not self.removable(rem):
                raise Fault(f"{rem} cannot be removed")
            del self.at[rem]
        self.side = self.other(self.side)

    def fen(self, rule50=0, plies=0):
        """Sanmill's FEN (src/position.cpp, Position::fen) of a position with no removal due."""
        cells = "".join({"W": "O", "B": "@"}.get(self.at.get(p), "*") for p in FEN_ORDER)
        board = "/".join(cells[i:i + 8] for i in range(0, 24, 8))
        phase, action = ("p", "p") if self.hand["W"] + self.hand["B"] > 0 else ("m", "s")
        return (f"{board} {'w' if self.side == 'W' else 'b'} {phase} {action} "
                f"{self.count('W')} {self.hand['W']} {self.count('B')} {self.hand['B']} "
                f"0 0 0 0 0 0 0 {rule50} {1 + plies // 2}")


def sanmill_tokens(frm, to, rem):
    first = to if frm is None else f"{frm}-{to}"
    return [first] + ([f"x{rem}"] if rem else [])


class Sanmill:
    def __init__(self, path, extra, log):
        self.path, self.extra, self.log = path, extra, log
        self.proc = None
        self.lines = None
        self.name = "Sanmill"

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def start(self):
        self.close()
        try:
            self.proc = subprocess.Popen(
                [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, bufsize=0, cwd=os.path.dirname(self.path) or ".")
        except OSError as e:
            self.proc = None
            raise Fault(f"cannot start {self.path}: {e}")
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self.proc.stdout, self.lines),
                         daemon=True).start()
        self.send("uci")
        until = time.monotonic() + 8
        while (line := self.wait_for(lambda l: l.startswith("id name ") or l == "uciok",
                                     until, "'uciok'")) != "uciok":
            self.name = line[8:].strip()
        for name, value in RULES + PLAY + self.extra:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        bad = []
        self.wait_for(lambda l: (l.startswith("No such option") and bad.append(l)) or
                      l == "readyok", time.monotonic() + 8, "'readyok'")
        if bad:
            raise Fault(f"Sanmill refused an option: {bad[0]}")

    @staticmethod
    def _reader(stream, q):
        for raw in iter(stream.readline, b""):
            q.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        q.put(None)

    def send(self, line):
        if self.log:
            self.log(f"> {line}")
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, AttributeError) as e:
            raise Fault(f"Sanmill does not read its input ({e})")

    def read(self, until):
        """A line, or "" when `until` passed first; Fault when Sanmill ended."""
        left = until - time.monotonic()
        try:
            line = self.lines.get(timeout=max(left, 0.0)) if left > 0 else self.lines.get_nowait()
        except queue.Empty:
            return ""
        if line is None:
            self.lines.put(None)
            try:
                code = self.proc.wait(timeout=1)
            except (subprocess.TimeoutExpired, AttributeError):
                code = "?"
            raise Fault(f"Sanmill ended (exit status {code})")
        return line

    def wait_for(self, pred, until, what="an answer"):
        while True:
            line = self.read(until)
            if line == "" and time.monotonic() >= until:
                raise Fault(f"no {what} from Sanmill in time")
            if line and pred(line):
                return line

    def cpu(self):
        """Sanmill's CPU seconds so far (Linux), or None."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError, AttributeError):
            return None

    def rss_mb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except (OSError, AttributeError, ValueError):
            pass
        return None

    def close(self):
        if self.proc is None:
            return
        try:
            if self.proc.poll() is None:
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=1)
        except (Fault, OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


class Adapter:
    def __init__(self, args):
        self.args = args
        self.logfile = open(args.log, "a", buffering=1) if args.log else None
        self.engine = Sanmill(args.engine, [tuple(o.split("=", 1)) for o in args.setoption],
                              self.log if self.logfile else None)
        self.moves = None  # [(frm, to, rem)] of the position given
        self.board = None

    def log(self, text):
        if self.logfile:
            self.logfile.write(f"{time.strftime('%H:%M:%S')} {text}\n")

    @staticmethod
    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def ensure_engine(self):
        if not self.engine.alive():
            self.engine.start()

    def run(self):
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            self.log(f"< {line}")
            cmd, _, rest = line.partition(" ")
            try:
                if cmd == "quit":
                    break
                elif cmd == "uci":
                    try:
                        self.ensure_engine()
                    except Fault as e:  # arena then sees us end before 'uciok'
                        self.say(f"error {e}")
                        self.log(f"error {e}")
                        sys.exit(1)
                    self.say(f"id name sanmill_adapter ({self.engine.name})")
                    self.say("uciok")
                elif cmd == "isready":
                    self.say("readyok")
                elif cmd in ("ucinewgame", "newgame"):
                    self.moves = self.board = None
                    if self.engine.alive():
                        self.engine.send("ucinewgame")
                elif cmd == "position":
                    self.position(rest.strip())
                elif cmd == "go":
                    self.go(rest.split())
                else:
                    self.say(f"error unknown command '{cmd}'")
            except Fault as e:
                self.log(f"error {e}")
                self.say(f"error {e}")
                if not self.engine.alive() or "Sanmill" in str(e):
                    self.engine.close()  # and a fresh one now, not on the next move's clock
                    try:
                        self.engine.start()
                    except Fault as e2:
                        self.log(f"restart failed: {e2}")
        self.engine.close()

    def position(self, rest):
        self.moves = self.board = None
        what, _, tail = rest.partition(" ")
        if what != "startpos":
            raise Fault("position takes 'startpos [moves M1; M2; ...]'")
        texts = []
        if tail.strip():
            kw, _, lst = tail.strip().partition(" ")
            if kw != "moves":
                raise Fault("position takes 'startpos [moves M1; M2; ...]'")
            texts = [t.strip() for t in lst.split(";") if t.strip()]
        board, moves = Board(), []
        for i, t in enumerate(texts):
            m = board.split(t)
            try:
                board.play(*m)
            except Fault as e:
                raise Fault(f"move {i + 1} '{t}': {e}")
            moves.append(m)
            if board.count(board.side) + board.hand[board.side] < 3:
                raise Fault("the game is over")
        self.moves, self.board = moves, board

    def sanmill_position(self):
        """The `position` command for Sanmill: startpos and every move, or a FEN when some
        stretch of the game went more than --window plies without a placement or removal (so
        that its N-move draw never comes)."""
        w = self.args.window
        irreversible = [i for i, (frm, _, rem) in enumerate(self.moves)
                        if frm is None or rem is not None]
        stretches = [b - a - 1 for a, b in zip([-1] + irreversible,
                                                irreversible + [len(self.moves)])]
        if max(stretches) <= w:
            toks = [x for m in self.moves for x in sanmill_tokens(*m)]
            return "position startpos" + (" moves " + " ".join(toks) if toks else "")
        # A position before a placement or removal never comes again, so starting after the
        # last one loses no repetition; replaying a longer stretch from the start would end
        # the game in Sanmill's own replay (its N-move draw).
        start = max(irreversible[-1] + 1 if irreversible else 0, len(self.moves) - w)
        b = Board()
        plies = 0
        for m in self.moves[:start]:
            b.play(*m)
            plies += len(sanmill_tokens(*m))
        toks = [x for m in self.moves[start:] for x in sanmill_tokens(*m)]
        return f"position fen {b.fen(0, plies)}" + (" moves " + " ".join(toks) if toks else "")

    def verify(self, until):
        """Sanmill's view of the position (`d`) against ours. Its printout of the last search
        (with the position searched) may still be on its way: a Fen line that differs is
        passed over until `until`."""
        want = self.board.fen().split()[:10]
        self.engine.send("d")
        seen = None
        while True:
            line = self.engine.read(until)
            if line == "" and time.monotonic() >= until:
                raise Fault(f"Sanmill's position differs from the game's: it has "
                            f"'{seen}', the game '{' '.join(want)}'" if seen else
                            "no 'd' answer from Sanmill in time")
            if line.startswith("Fen: "):
                got = line[5:].split()[:10]
                if got == want:
                    return
                seen = " ".join(got)  # maybe a stale printout of its last search: wait on

    def search(self, stop_at, give_up):
        """`go`, `stop` at stop_at; Sanmill's (score, move)."""
        self.engine.send("go")
        stopped = False
        while True:
            now = time.monotonic()
            if not stopped and now >= stop_at:
                self.engine.send("stop")
                stopped = True
            line = self.engine.read(give_up if stopped else stop_at)
            if line == "":
                if time.monotonic() >= give_up:
                    raise Fault("no bestmove from Sanmill after 'stop'")
                continue
            m = BESTMOVE.match(line)
            if m:
                if self.logfile:
                    self.log(f"  {line}")
                return int(m.group(1)), m.group(2)
            if "bestmove" in line and line.startswith("info"):
                raise Fault(f"an answer of Sanmill's we do not know: '{line[:200]}'")

    def go(self, words):
        t0 = time.monotonic()
        ms = self.args.move_time
        if words:
            if len(words) == 2 and words[0] == "movetime" and words[1].isdigit() \
                    and int(words[1]) > 0:
                ms = int(words[1])
            else:
                raise Fault("go takes 'movetime MS' (Sanmill has no node or depth limit here)")
        if self.board is None:
            raise Fault("go needs a position")
        self.ensure_engine()
        margin = self.args.margin + ms * self.args.margin_pct / 100
        budget = max(ms - margin, ms * 0.3) / 1000
        hard = t0 + budget
        give_up = t0 + ms / 1000 + 5  # past arena's deadline: an error, not a hang
        cpu0 = self.engine.cpu()
        self.engine.send(self.sanmill_position())
        self.verify(max(hard, t0 + 0.5))
        board = self.board.copy()
        first_stop = hard
        if board.can_close_mill():
            first_stop = t0 + budget * (1 - self.args.remove_share)
        score, m1 = self.search(first_stop, give_up)
        mm = re.fullmatch(r"([a-g][1-7])(?:-([a-g][1-7]))?", m1)
        if not mm:
            raise Fault(f"Sanmill answered '{m1}', not a placement or move here")
        frm, to = (None, mm.group(1)) if mm.group(2) is None else (mm.group(1), mm.group(2))
        why = board.check_step(frm, to)
        if why:
            raise Fault(f"Sanmill's move '{m1}' is illegal here: {why}")
        rem = None
        if board.closes_mill(frm, to) and board.other(board.side) in board.at.values():
            pos = self.sanmill_position()
            self.engine.send(pos + (" " if " moves " in pos else " moves ") + m1)
            score, m2 = self.search(hard, give_up)
            if not re.fullmatch(r"x[a-g][1-7]", m2):
                raise Fault(f"Sanmill answered '{m2}' where a removal is due")
            rem = m2[1:]
            after = board.copy()
            after.hand[after.side] -= (frm is None)
            if frm is not None:
                del after.at[frm]
            after.at[to] = after.side
            if not after.removable(rem):
                raise Fault(f"Sanmill's removal '{m2}' is illegal here")
        text = ("" if frm is None else frm) + to + (rem or "")
        try:
            board.play(frm, to, rem)
        except Fault as e:
            raise Fault(f"Sanmill's move '{text}' is illegal here: {e}")
        if board.side == "W":  # Sanmill gives White's view; arena wants the mover's
            score = -score
        cpu1 = self.engine.cpu()
        self.log(f"  move {len(self.moves) + 1}: {text} in {1000 * (time.monotonic() - t0):.0f} ms"
                 + (f", Sanmill CPU {1000 * (cpu1 - cpu0):.0f} ms" if cpu0 is not None
                    and cpu1 is not None else "")
                 + (f", peak RSS {self.engine.rss_mb():.0f} MB" if self.engine.rss_mb() else ""))
        self.say(f"info score {score}")
        self.say(f"bestmove {text}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="the Sanmill console binary")
    p.add_argument("--move-time", type=int, default=1000, help="ms for a plain 'go'")
    p.add_argument("--margin", type=float, default=40, help="ms kept back of every move")
    p.add_argument("--margin-pct", type=float, default=5, help="and this %% of the move time")
    p.add_argument("--remove-share", type=float, default=0.25,
                   help="share of the time kept for the removal when a mill can close")
    p.add_argument("--window", type=int, default=100,
                   help="plies since the last placement or removal Sanmill is told (10..150)")
    p.add_argument("--log", help="append the traffic and each move's time to this file")
    p.add_argument("--setoption", action="append", default=[], metavar="NAME=VALUE",
                   help="one more Sanmill option (after ours)")
    args = p.parse_args()
    if not 1 <= args.window <= 150:
        p.error("--window takes 1..150")
    if not 0 <= args.remove_share < 1:
        p.error("--remove-share takes [0, 1)")
    for o in args.setoption:
        if "=" not in o:
            p.error(f"--setoption takes NAME=VALUE, not '{o}'")
    Adapter(args).run()


if __name__ == "__main__":
    main()
