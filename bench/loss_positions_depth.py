#!/usr/bin/env python3
"""How deep `arena engine GAME` searches the positions of the games arena lost.

Reads match records (the JSON of `arena match --records`), keeps the games the player named
--player lost, and searches each position of those games where that player was to move, from
ply --from-ply up to --to-ply, at --move-time: one line a position (record, ply, the move played
then, the move chosen now, depth, score), then the mean depth. Two builds (or two table sizes,
--table) compared on the same positions show what a change buys where the games were lost.
With --depth N each position is searched to that depth instead, and the engine's CPU time (user
seconds) is printed at the end: a measure of how fast a build reaches a depth that does not
depend on the machine's load as the depth reached in a move time does.

  python3 bench/loss_positions_depth.py --arena build/release/arena --move-time 900 \
      data/matches/morris-sanmill-1s*/*.json
"""
import argparse
import json
import resource
import subprocess
import sys


def lost_positions(paths, player, first, last):
    for path in paths:
        try:
            with open(path) as f:
                record = json.load(f)
        except (OSError, ValueError):
            continue
        if "moves" not in record or "players" not in record:
            continue
        names = {side: p.get("name") for side, p in record["players"].items()}
        sides = [side for side, name in names.items() if name == player]
        winner = record.get("result", {}).get("winner")
        if len(sides) != 1 or winner not in ("white", "black") or winner == sides[0]:
            continue
        moves = [m["move"] for m in record["moves"]]
        for ply in range(first, min(len(moves), last + 1)):
            if ("white" if ply % 2 == 0 else "black") == sides[0]:
                yield path, ply, moves[:ply], moves[ply]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", help="match records (JSON)")
    ap.add_argument("--arena", default="build/release/arena")
    ap.add_argument("--game", default="morris")
    ap.add_argument("--player", default="arena", help="the record's name of the side measured")
    ap.add_argument("--move-time", type=int, default=900, help="ms a position (900)")
    ap.add_argument("--from-ply", type=int, default=6, help="first ply (0-based; 6)")
    ap.add_argument("--to-ply", type=int, default=23, help="last ply (23)")
    ap.add_argument("--depth", type=int, help="search each position to this depth instead, "
                    "and print the engine's CPU time at the end")
    ap.add_argument("--table", type=int, help="the engine's transposition table in MB "
                    "(arena engine --table; default: the engine's own, 16 MB)")
    ap.add_argument("--warm", action="store_true",
                    help="keep the engine's table from one position of a game to its next, as "
                    "in the game (default: a fresh engine for every position)")
    args = ap.parse_args()

    positions = list(lost_positions(args.records, args.player, args.from_ply, args.to_ply))
    if not positions:
        sys.exit("no position: no record lost by '%s' in that ply range" % args.player)
    command = [args.arena, "engine", args.game]
    if args.table:
        command += ["--table", str(args.table)]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    send("uci")
    while engine.stdout.readline().strip() != "uciok":
        pass
    total = 0
    last_path = None
    for path, ply, before, played in positions:
        if not args.warm or path != last_path:
            send("ucinewgame")
        last_path = path
        send("position startpos" + (" moves " + "; ".join(before) if before else ""))
        send("go depth %d" % args.depth if args.depth else "go movetime %d" % args.move_time)
        depth, score = 0, "?"
        while True:
            words = engine.stdout.readline().split()
            if not words:
                sys.exit("the engine ended")
            if words[0] == "error":
                sys.exit("%s ply %d: %s" % (path, ply, " ".join(words)))
            if words[0] == "info" and "depth" in words:
                depth = int(words[words.index("depth") + 1])
                score = words[words.index("score") + 1] if "score" in words else "?"
            if words[0] == "bestmove":
                chosen = " ".join(words[1:])
                break
        total += depth
        print("%s\t%d\t%s\t%s\t%d\t%s" % (path, ply, played, chosen, depth, score), flush=True)
    send("quit")
    engine.wait()
    print("mean depth %.2f over %d positions" % (total / len(positions), len(positions)))
    if args.depth:
        print("CPU time %.2f s (user)" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime)


if __name__ == "__main__":
    main()
