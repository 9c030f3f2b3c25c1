#!/usr/bin/env bash
# The time manager measured at the referee: arena's engine against itself through the game's
# course protocol (arena tournament: the course server, or the Paper Soccer referee, measures
# every move), until at least MOVES moves are recorded; prints the longest move against the limit.
#
#   scripts/move-time-check.sh GAME MOVE_TIME_MS [MOVES]      e.g. scripts/move-time-check.sh soccer 1000 1000
#
# ARENA=path/to/arena (default build/release/arena). KEEP=1 keeps the games' folder; WORK=DIR
# plays into DIR (an earlier run's, to add to it or only to count again) and keeps it. Plays one game at a time (as many as the
# agents' sandbox gives cores), or CONCURRENCY=N at once. Costs about MOVES x MOVE_TIME_MS of CPU.
# For Paper Soccer it also gives the CPU per turn without the turns that a forced result (a won or
# lost position, the engine's score in its log) ended at once. OPPONENT='engine level=2' (any
# tournament agent) plays the engine against that instead of itself and measures the engine's
# moves only: the engine's own games repeat, since its search is deterministic but for the clock.
set -euo pipefail
game=${1:?usage: $0 GAME MOVE_TIME_MS [MOVES]}
move_time=${2:?usage: $0 GAME MOVE_TIME_MS [MOVES]}
want=${3:-1000}
arena=${ARENA:-build/release/arena}
if [ -n "${WORK:-}" ]; then  # a folder of an earlier run (KEEP=1): add to it, keep it
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/arena-move-time-XXXXXX)
  trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fi

count_moves() {
  python3 - "$work" "${OPPONENT:+e1}" <<'PY'
import glob, json, sys
n = 0
for f in glob.glob(sys.argv[1] + "/*/games/*.json"):
    r = json.load(open(f))
    n += sum(1 for m in r.get("moves", [])
             if not sys.argv[2] or r["players"][m["side"]]["name"] == sys.argv[2])
print(n)
PY
}

round=$(find "$work" -maxdepth 1 -name 't*.out' | wc -l)
while [ "$(count_moves)" -lt "$want" ]; do
  round=$((round + 1))
  "$arena" tournament "$game" -a 'e1: engine' -a "e2: ${OPPONENT:-engine}" --move-time "$move_time" \
    --warmup 0 --seed "$round" -j "${CONCURRENCY:-1}" -q --out "$work/t$round" > "$work/t$round.out" 2>&1 ||
    { cat "$work/t$round.out"; exit 1; }
done

python3 - "$work" "$move_time" "$game" "${OPPONENT:+e1}" <<'PY'
import glob, json, re, sys
work, limit, game, only = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def measured(record, move):  # with an OPPONENT, e1's moves only
    return not only or record["players"][move["side"]]["name"] == only
moves, first, ends, settings, open_cpu = [], [], {}, {}, []
# A move whose search found a forced result: its score in the engine's log (stderr) is a win or
# loss score, |score| >= 999999.
def forced_plies(record_file, side):
    plies = set()
    try:
        for l in open(record_file[:-len(".json")] + f".{side}.log", errors="replace"):
            m = re.search(r"turn (\d+): .* score (-?\d+)", l)
            if m and abs(int(m.group(2))) >= 999999:
                plies.add(int(m.group(1)))
    except OSError:
        pass
    return plies
for f in sorted(glob.glob(work + "/*/games/*.json")):
    r = json.load(open(f))
    forced = forced_plies(f, "white") | forced_plies(f, "black")
    open_cpu += [m["cpu_ms"] for m in r.get("moves", []) if measured(r, m)
                 and m.get("cpu_ms") is not None and m["ply"] not in forced]
    settings = r.get("settings", {})
    why = r.get("result", {}).get("reason", "?")
    ends[why] = ends.get(why, 0) + 1
    if why in ("timeout", "time-limit", "crash", "illegal-move") or "time" in why:
        print(f"  {f.split('/')[-1]}: {why}: {r['result'].get('detail')}")
    for i, m in enumerate(r.get("moves", [])):
        if measured(r, m):
            (first if i < 2 else moves).append((m["time_ms"], m.get("cpu_ms")))
allm = moves + first
def pct(v, p): return v[min(len(v) - 1, int(p * len(v)))]
def line(label, v, lim):
    v = sorted(v)
    return (f"  {label}: mean {sum(v)/len(v):.0f} ms, median {pct(v,.5)}, p99 {pct(v,.99)}, "
            f"longest {v[-1]} ms = {100*v[-1]/lim:.0f}% of {lim} ms, margin {lim - v[-1]} ms")
games = len(glob.glob(work + "/*/games/*.json"))
distinct = len({tuple(m["move"] for m in json.load(open(f)).get("moves", []))
                for f in glob.glob(work + "/*/games/*.json")})
who = "of the engine's (e1's) " if only else ""
print(f"{game}: {len(allm)} {who}moves at {limit} ms a move in {games} games "
      f"({distinct} different); game ends: {ends}")
print(line("wall per move, as the referee measured it", [x[0] for x in allm], limit))
if moves:
    print(line("  the same without each side's first move (process start-up)", [x[0] for x in moves], limit))
cpu = [x[1] for x in allm if x[1] is not None]
if cpu:
    print(line("CPU per move", cpu, limit))
if open_cpu:
    print(line("  the same where the engine had not found a forced result", open_cpu, limit))
    print(f"    (a forced win or loss ends a search at once: {len(cpu) - len(open_cpu)} such moves)")
# What the referee enforces: the course servers the wall time per move; the Paper Soccer referee
# user CPU per turn (cpu_per_turn_ms) and a wall-clock cap (wall_per_turn_ms).
timed_out = sum(n for why, n in ends.items() if "time" in why)
if "cpu_per_turn_ms" in settings:
    over = sum(1 for x in allm if x[1] is not None and x[1] > settings["cpu_per_turn_ms"])
    over += sum(1 for x in allm if x[0] > settings.get("wall_per_turn_ms", 1 << 60))
    print(f"  referee limits: CPU {settings['cpu_per_turn_ms']} ms, wall "
          f"{settings.get('wall_per_turn_ms')} ms per turn; turns over them: {over + timed_out}")
else:
    over = sum(1 for x in allm if x[0] > limit)
    print(f"  referee limit: {limit} ms wall per move; moves over it: {over + timed_out}")
if timed_out:
    print(f"  ({timed_out} games ended by a move over the limit: such a move is not in the record)")
over += timed_out
sys.exit(1 if over else 0)
PY
