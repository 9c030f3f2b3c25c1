#!/usr/bin/env python3
"""Makes data/books/morris-endings.txt, the book of Morris endings that measures the endgame
databases (docs/strength.md): for each of GAMES games of arena's random player against itself
(seeds 1..GAMES), the moves from the start to the first position with no pieces in hand, at most 8
pieces on the board and 3 or more each, the game not over. Lines are kept once and sorted.

Usage: scripts/morris-endings-book.py [ARENA] [GAMES] > data/books/morris-endings.txt
(ARENA: build/release/arena, GAMES: 4000; a few minutes)"""
import json
import os
import subprocess
import sys
import tempfile

arena = sys.argv[1] if len(sys.argv) > 1 else "build/release/arena"
games = int(sys.argv[2]) if len(sys.argv) > 2 else 4000


def ending(moves):
    """The first ending the databases hold, as (line, white pieces, black pieces), or None."""
    pieces = [0, 0]  # on the board: White, Black
    for ply, move in enumerate(moves):
        side, placing = ply % 2, ply < 18
        if placing:
            pieces[side] += 1
        # A move text is 2 characters to place, 4 to move (or to place and remove), 6 to move
        # and remove.
        if len(move) == (4 if placing else 6):
            pieces[1 - side] -= 1
        if ply + 1 >= 18 and ply + 1 < len(moves) and sum(pieces) <= 8 and min(pieces) >= 3:
            return "; ".join(moves[: ply + 1]), pieces[0], pieces[1]
    return None


lines = {}
with tempfile.TemporaryDirectory() as tmp:
    record = os.path.join(tmp, "game.json")
    for seed in range(1, games + 1):
        subprocess.run([arena, "play", "morris", "--white", "random", "--black", "random",
                        "--seed", str(seed), "-q", "--record", record],
                       check=True, stdout=subprocess.DEVNULL)
        with open(record) as f:
            found = ending([m["move"] for m in json.load(f)["moves"]])
        if found:
            line, white, black = found
            lines[line] = f"{white}-{black} after {line.count(';') + 1} plies"

print(f"# arena measurement book: morris endings ({len(lines)} positions with no pieces in hand, "
      "at most 8 on the board, 3 or more each, not over)")
print(f"# made by: scripts/morris-endings-book.py build/release/arena {games} (the first such "
      "position of each game of arena's random player against itself, seeds 1..GAMES)")
for line in sorted(lines):
    print(f"{line}  # {lines[line]}")
