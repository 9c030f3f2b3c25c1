// `arena web` in headless Chromium: a game played live through `arena serve` by two
// `arena connect` engines is followed move by move without reloading; a finished game is stepped
// through with the keys, buttons and the move list; a tournament's standings, charts, crosstable
// and participants are shown; the report of `arena tournament report` works from file://.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const arena = process.env.ARENA_BINARY;
const outDir = process.env.ARENA_BROWSER_OUT;
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
assert.ok(arena && outDir, "ARENA_BINARY and ARENA_BROWSER_OUT must be set (see run.sh)");

const work = mkdtempSync(join(tmpdir(), "arena-browser-"));
const root = join(work, "served");
const site = join(work, "site");  // `arena tournament report` of root/event
const children = [];
let context, page, baseUrl;
const pageErrors = [];

// A child process whose stdout we can wait on, line by line.
function start(args) {
  const child = spawn(arena, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.output = "";
  child.stdout.on("data", (d) => { child.output += d; });
  child.stderr.on("data", (d) => { child.output += d; });
  child.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  children.push(child);
  return child;
}

async function waitFor(what, predicate, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await predicate();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const portIn = (child, re) => waitFor(`port in: ${child.spawnargs.join(" ")}`, () => {
  const m = re.exec(child.output);
  return m && m[1];
}, 15000);

// The Fission start position as the course spec sets it (shared/spec/fission.md).
const START_WHITE = ["B4", "C3", "C5", "D2", "D4", "D6", "E3", "E5", "E7", "F4", "F6", "G5"];
const START_BLACK = ["B5", "C4", "C6", "D3", "D5", "D7", "E2", "E4", "E6", "F3", "F5", "G4"];

// Every cell of the grid on the page: { A1: "", B4: "W", ... }.
const boardCells = () => page.$$eval("#board svg [data-cell]", (gs) =>
  Object.fromEntries(gs.map((g) => [g.getAttribute("data-cell"), g.getAttribute("data-stack")])));

function cellsOfView(view) {
  const out = {};
  view.cells.forEach((c, i) => { out[view.rowLabels[Math.floor(i / view.cols)] + view.colLabels[i % view.cols]] = c; });
  return out;
}

// An event in progress, written by hand: sharded, with games lost by faults (the sandbox's
// reasons among them) and a hostile name that must stay text.
const HOSTILE = "<img src=x onerror=window.__pwned=1>";
function writeFaultyEvent(dir) {
  mkdirSync(dir, { recursive: true });
  const row = (rank, name, points, faults) => ({ rank, name, points, games: 2, wins: points / 3, draws: 0, losses: 2 - points / 3,
    as_white: { wins: 0, draws: 0, losses: 1 }, as_black: { wins: 0, draws: 0, losses: 1 }, sonneborn_berger: 0,
    fault_losses: faults, rating: 100 - 100 * rank, rating_error95: 150 });
  writeFileSync(join(dir, "results.json"), JSON.stringify({
    format: "arena-tournament-results", version: 1, game: "fission", points: { win: 3, draw: 1, loss: 0 },
    games_played: 4, games_total: 12, complete: false,
    shards: [{ shard: 1, of: 2, games_played: 3, games_total: 6 }, { shard: 2, of: 2, games_played: 1, games_total: 6 }],
    standings: [row(1, "alice", 6, 0), row(2, HOSTILE, 0, 2)],
    ratings: { regularised: true },
    crosstable: { participants: [HOSTILE, "alice"], cells: [[null, { as_white: "L", as_black: "L", points: 0 }], [{ as_white: "W", as_black: "W", points: 6 }, null]] },
    endings: { win: { games: 2, reasons: { "no-stones": 2 } }, "memory-limit": { games: 1, reasons: { "memory-limit": 1 } }, timeout: { games: 1, reasons: { timeout: 1 } } },
    games: [
      { game: 1, round: 1, white: "alice", black: HOSTILE, winner: "white", end: "win", reason: "no-stones", detail: "", plies: 9, record: "games/001.json" },
      { game: 2, round: 2, white: HOSTILE, black: "alice", winner: "black", end: "memory-limit", reason: "memory-limit", detail: "used more than 256 MiB", plies: 3, record: "games/002.json" },
      { game: 3, round: 3, white: "alice", black: HOSTILE, winner: "white", end: "timeout", reason: "timeout", detail: "no move within 1000 ms", plies: 4, record: "games/003.json" },
      { game: 4, round: 4, white: HOSTILE, black: "alice", winner: "black", end: "win", reason: "no-stones", detail: "", plies: 7, record: "games/004.json" },
    ],
  }));
}

before(async () => {
  mkdirSync(join(root, "finished"), { recursive: true });
  mkdirSync(join(root, "cup"), { recursive: true });
  // A finished game (deterministic: fixed seeds, greedy against random).
  execFileSync(arena, ["play", "fission", "--white", "greedy", "--black", "random", "--seed", "7", "-q",
    "--record", join(root, "finished", "game.json")]);
  // A tournament folder: standings and one game in it.
  execFileSync(arena, ["play", "fission", "--white", "random", "--black", "greedy", "--seed", "3", "-q",
    "--record", join(root, "cup", "round1.json")]);
  // One finished game of each other game, between built-in players (fixed seeds).
  mkdirSync(join(root, "games"), { recursive: true });
  for (const game of ["murus", "morris", "soccer"])
    execFileSync(arena, ["play", game, "--white", "greedy", "--black", "random", "--seed", "5", "-q",
      "--record", join(root, "games", `${game}.json`)]);
  // A Morris game whose third move carries a referee's note (what a course server ignored).
  const noted = JSON.parse(readFileSync(join(root, "games", "morris.json"), "utf8"));
  noted.moves[2].note = `removeOpponentChecker 'd1' ignored: ${noted.moves[2].move} closes no mill`;
  writeFileSync(join(root, "games", "morris-note.json"), JSON.stringify(noted));
  // A game where arena's engine played in-process: its evaluation and depth are in the record.
  execFileSync(arena, ["play", "fission", "--white", "engine", "--depth", "2", "--black", "random", "--seed", "4", "-q",
    "--record", join(root, "games", "engine.json")]);
  // A real tournament: three built-in agents, a double round-robin through the course protocol.
  execFileSync(arena, ["tournament", "fission", "-a", "deep: engine depth=2", "-a", "greedy", "-a", "rnd: random",
    "--seed", "5", "--warmup", "0", "--moves-per-player", "10", "-j", "2", "-q", "-o", join(root, "event")]);
  execFileSync(arena, ["tournament", "report", join(root, "event"), "--html", site]);
  writeFaultyEvent(join(root, "faulty"));
  writeFileSync(join(root, "cup", "standings.json"), JSON.stringify({
    event: "cup", rounds: 1,
    standings: [{ rank: 1, player: "greedy", points: 1, games: 1 }, { rank: 2, player: "random", points: 0, games: 1 }],
  }));

  const web = start(["web", root, "--port", "0"]);
  baseUrl = `http://127.0.0.1:${await portIn(web, /http:\/\/127\.0\.0\.1:(\d+)\//)}/`;

  context = await chromium.launchPersistentContext(join(work, "profile"), {
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 900 },
  });
  page = context.pages()[0] || await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  await page.goto(baseUrl);
});

after(async () => {
  if (context) await context.close().catch(() => {});
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

test("a game being played is followed live, move by move, without reloading", async () => {
  // The page is open before the game starts: the game must appear on its own.
  const server = start(["serve", "fission", "--port", "0", "--warmup", "0.3", "--move-time", "5000",
    "--moves-per-player", "10", "--records", join(root, "live")]);
  const port = await portIn(server, /listening on 127\.0\.0\.1:(\d+)/);
  const engine = () => start(["connect", "fission", "127.0.0.1", port, "--move-time", "700"]);
  const white = engine();
  await waitFor("White to be seated", () => server.output.includes("White connected"), 15000);
  const black = engine();

  // A marker in the page: if the page reloads, it is gone.
  await page.evaluate(() => { window.__noReload = true; });
  const liveLink = page.locator("#games a", { has: page.locator(".badge.live") }).first();
  await liveLink.waitFor({ timeout: 20000 });
  await liveLink.click();
  await page.locator("#game-status .badge.live").waitFor({ timeout: 10000 });

  // Watch the move list and the board grow while the game is on.
  const seen = new Set();
  const boards = new Set();
  let liveShot = false;
  await waitFor("the game to end on the page", async () => {
    const n = await page.locator("#moves li").count();
    const live = await page.locator("#game-status .badge.live").count();
    if (live) {
      seen.add(n);
      boards.add(JSON.stringify(await boardCells()));
      if (n >= 2 && !liveShot) {
        await page.screenshot({ path: join(outDir, "viewer-live.png") });
        liveShot = true;
      }
    }
    return live === 0 && n > 0;
  }, 90000);
  assert.ok(seen.size >= 3, `the move list should grow live, saw counts ${[...seen]}`);
  assert.ok(boards.size >= 3, "the board should change live");
  assert.equal(await page.evaluate(() => window.__noReload), true, "the page must not reload");

  for (const c of [white, black, server]) assert.equal(await c.exited, 0, c.output);
  // The page ends on the record's last ply, with the result, like the file on disk.
  const dir = server.output.match(/Record: (.*\.json)/)[1];
  const rec = JSON.parse(readFileSync(dir, "utf8"));
  assert.notEqual(rec.result.winner, "ongoing");
  assert.equal(await page.locator("#moves li").count(), rec.moves.length);
  assert.equal(await page.textContent("#ply-info"),
    `Ply ${rec.moves.length}/${rec.moves.length}: ${rec.moves.at(-1).side === "white" ? "White" : "Black"} ` +
    `${rec.moves.at(-1).move} (${rec.moves.at(-1).time_ms} ms)`);
  assert.match(await page.textContent("#game-status"), new RegExp(rec.result.reason));
});

test("a finished game is stepped through with keys, buttons and the move list", async () => {
  const rec = await (await fetch(baseUrl + "api/record?path=finished/game.json")).json();
  const n = rec.moves.length;
  assert.ok(n > 4);
  await page.goto(baseUrl + "#game=" + encodeURIComponent("finished/game.json"));
  await page.locator("#moves li").nth(n - 1).waitFor();
  assert.equal(await page.textContent("#ply-info"), `Ply ${n}/${n}: White ${rec.moves[n - 1].move} (${rec.moves[n - 1].time_ms} ms)`.replace("White", rec.moves[n - 1].side === "white" ? "White" : "Black"));

  await page.keyboard.press("Home");
  assert.equal(await page.textContent("#ply-info"), `Start position (${n} plies)`);
  const start = await boardCells();
  assert.equal(Object.keys(start).length, 64);
  for (const [cell, stack] of Object.entries(start)) {
    const expected = START_WHITE.includes(cell) ? "W" : START_BLACK.includes(cell) ? "B" : "";
    assert.equal(stack, expected, `start position, cell ${cell}`);
  }

  // Forward with D and the right arrow, back with A and the left arrow, ply by ply: the board is
  // the position the server computed for that ply, and the cells the move changed are marked.
  for (let ply = 1; ply <= n; ply++) {
    await page.keyboard.press(ply % 2 ? "d" : "ArrowRight");
    assert.deepEqual(await boardCells(), cellsOfView(rec.views[ply]), `ply ${ply}`);
    const changed = await page.$$eval("#board .cell.changed", (cs) => cs.length);
    assert.ok(changed >= 2, `ply ${ply}: a move changes at least two cells`);
    assert.equal(await page.textContent("#moves li.current .move"), rec.moves[ply - 1].move);
  }
  await page.keyboard.press("a");
  await page.keyboard.press("ArrowLeft");
  assert.match(await page.textContent("#ply-info"), new RegExp(`^Ply ${n - 2}/${n}:`));

  await page.click("#first");
  assert.equal(await page.textContent("#ply-info"), `Start position (${n} plies)`);
  await page.click("#next");
  await page.click("#next");
  assert.match(await page.textContent("#ply-info"), new RegExp(`^Ply 2/${n}:`));
  await page.click("#moves li:nth-child(4)");
  assert.match(await page.textContent("#ply-info"), new RegExp(`^Ply 4/${n}: .* ${rec.moves[3].move} `));
  assert.deepEqual(await boardCells(), cellsOfView(rec.views[4]));
  await page.click("#last");
  assert.match(await page.textContent("#ply-info"), new RegExp(`^Ply ${n}/${n}:`));
  assert.match(await page.textContent("#game-status"), /(White wins|Black wins|Draw) \(/);

  // Autoplay from the start reaches the end by itself.
  await page.selectOption("#speed", "250");
  await page.click("#play");
  await waitFor("autoplay to reach the end", async () =>
    (await page.textContent("#ply-info")).startsWith(`Ply ${n}/${n}:`) &&
    (await page.textContent("#play")).includes("play"), 30000);

  await page.keyboard.press("Home");
  await page.keyboard.press("d");
  await page.screenshot({ path: join(outDir, "viewer.png") });
});

test("a tournament folder shows its standings and games", async () => {
  await page.goto(baseUrl);
  const link = page.locator("#tournaments a", { hasText: "cup" });
  await link.waitFor({ timeout: 10000 });
  await link.click();
  await page.locator("table.standings tr").nth(2).waitFor({ timeout: 10000 });
  const rows = await page.$$eval("table.standings tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(rows, [["rank", "player", "points", "games"], ["1", "greedy", "1", "1"], ["2", "random", "0", "1"]]);
  await page.locator("#tournament-games a", { hasText: "round1.json" }).click();
  await page.locator("#moves li").first().waitFor();
  assert.match(await page.textContent("#game-title"), /random \(White\) – greedy \(Black\)/);
  await page.screenshot({ path: join(outDir, "viewer-tournament.png") });
});

test("the page draws every kind of view the games give (towers, Morris, Soccer path)", async () => {
  await page.goto(baseUrl);
  const drawn = await page.evaluate(() => {
    const count = (node, sel) => node.querySelectorAll(sel).length;
    // Murus Gallicus: walls (one stone) and towers (two) on a 7x8 grid.
    const murus = Boards.draw({ kind: "grid", rows: 7, cols: 8, rowLabels: ["A", "B", "C", "D", "E", "F", "G"],
      colLabels: ["1", "2", "3", "4", "5", "6", "7", "8"],
      cells: Array.from({ length: 56 }, (_, i) => (i < 8 ? "BB" : i >= 48 ? "WW" : i === 20 ? "W" : "")) });
    // Nine Men's Morris: 24 points, three pieces placed, pieces in hand.
    const morris = Boards.draw({ kind: "morris", points: { a1: "W", d1: "W", g7: "B" }, inHand: { white: 7, black: 8 } },
      { kind: "morris", points: { a1: "W", g7: "B" }, inHand: { white: 8, black: 8 } });
    // Paper Soccer: two turns, the ball where the last one ended.
    const soccer = Boards.draw({ kind: "soccer", xMin: -4, xMax: 4, yMin: -5, yMax: 5, goalWidth: 1, ball: [1, 2],
      attacks: { white: "north", black: "south" },
      turns: [{ side: "white", points: [[0, 0], [0, 1]] }, { side: "black", points: [[0, 1], [1, 1], [1, 2]] }] });
    const text = Boards.draw({ kind: "text", text: "a board" });
    return {
      murusCells: count(murus, "[data-cell]"),
      towers: count(murus, '[data-stack="BB"], [data-stack="WW"]'),
      murusStones: count(murus, ".stone"),
      g5: murus.querySelector('[data-cell="C5"]').getAttribute("data-stack"),
      morrisPoints: count(morris, "[data-point]"),
      morrisPieces: count(morris, "[data-point] .stone"),
      morrisChanged: [...morris.querySelectorAll(".point.changed")].map((g) => g.getAttribute("data-point")),
      inHand: count(morris, ".in-hand"),
      paths: [...soccer.querySelectorAll("polyline.path")].map((p) => p.getAttribute("class")),
      pathPoints: [...soccer.querySelectorAll("polyline.path")].map((p) => p.getAttribute("points").split(" ").length),
      ball: soccer.querySelector("[data-ball]").getAttribute("data-ball"),
      lattice: count(soccer, ".lattice"),
      text: text.textContent,
    };
  });
  assert.deepEqual(drawn, {
    murusCells: 56, towers: 16, murusStones: 33, g5: "W",
    morrisPoints: 24, morrisPieces: 3, morrisChanged: ["d1"], inHand: 15,
    paths: ["path white", "path black last"], pathPoints: [2, 3], ball: "1,2",
    lattice: 9 * 11 + 6, text: "a board",
  });
});

// Opens a record on the page and goes to its last ply; gives the API's record (with its views).
async function openLastPly(path) {
  const rec = await (await fetch(baseUrl + "api/record?path=" + encodeURIComponent(path))).json();
  assert.equal(rec.replay_error, undefined);
  const n = rec.moves.length;
  assert.ok(n > 2, `${path}: a real game, ${n} plies`);
  await page.goto(baseUrl + "#game=" + encodeURIComponent(path));
  await page.locator("#moves li").nth(n - 1).waitFor();
  await page.click("#last");
  await waitFor(`${path}: the last ply`, async () =>
    (await page.textContent("#ply-info")).startsWith(`Ply ${n}/${n}:`), 10000);
  return rec;
}

test("a Murus Gallicus game is drawn as a 7x8 grid of walls and towers", async () => {
  const rec = await openLastPly("games/murus.json");
  const view = rec.views.at(-1);
  assert.equal(view.kind, "grid");
  const drawn = await page.$$eval("#board svg.board-grid [data-cell]", (gs) =>
    gs.map((g) => [g.getAttribute("data-cell"), g.getAttribute("data-stack"), g.querySelectorAll(".stone").length]));
  assert.equal(drawn.length, 56);
  assert.deepEqual(drawn.map(([cell]) => cell).filter((c, i) => i % 8 === 0), ["A1", "B1", "C1", "D1", "E1", "F1", "G1"]);
  assert.deepEqual(Object.fromEntries(drawn.map(([c, stack]) => [c, stack])), cellsOfView(view));
  // Every stone is a disc: a tower two, a wall one; as many as the view counts for each side.
  const stones = drawn.reduce((sum, [, , discs]) => sum + discs, 0);
  assert.equal(stones, view.counts.white + view.counts.black);
  for (const [cell, stack, discs] of drawn) assert.equal(discs, stack.length, cell);
  assert.equal(await page.locator("#board .stone.white").count(), view.counts.white);
  await page.screenshot({ path: join(outDir, "viewer-murus.png") });
});

test("a Nine Men's Morris game is drawn with its 24 points and the pieces in hand", async () => {
  const rec = await openLastPly("games/morris.json");
  const view = rec.views.at(-1);
  assert.equal(view.kind, "morris");
  assert.equal(Object.keys(view.points).length, 24);
  const drawn = await page.$$eval("#board svg.board-morris [data-point]", (gs) =>
    Object.fromEntries(gs.map((g) => [g.getAttribute("data-point"), g.getAttribute("data-piece")])));
  assert.deepEqual(drawn, view.points);
  const pieces = Object.values(view.points).filter((p) => p).length;
  assert.equal(await page.locator("#board [data-point] .stone").count(), pieces);
  assert.equal(await page.locator("#board .morris-line").count(), 16);
  // A position still placing shows the pieces in hand beside the board.
  const placing = rec.views.findIndex((v) => v.inHand.white + v.inHand.black === 15);
  assert.ok(placing > 0);
  await page.click(`#moves li:nth-child(${placing})`);
  assert.equal(await page.locator("#board .in-hand").count(), 15);
  assert.equal(await page.locator("#board [data-point] .stone").count(),
    Object.values(rec.views[placing].points).filter((p) => p).length);
  await page.screenshot({ path: join(outDir, "viewer-morris.png") });
});

test("a move the referee accepted with a note shows the note", async () => {
  const rec = await openLastPly("games/morris-note.json");
  const note = rec.moves[2].note;
  assert.match(note, /ignored/);
  assert.equal(await page.locator("#moves li .note").count(), 1);
  assert.equal(await page.getAttribute("#moves li:nth-child(3) .note", "title"), note);
  await page.click("#moves li:nth-child(3)");
  assert.equal(await page.textContent("#ply-info"),
    `Ply 3/${rec.moves.length}: White ${rec.moves[2].move} (${rec.moves[2].time_ms} ms) (${note})`);
});

test("a Paper Soccer game is drawn with the ball's whole path, turn by turn", async () => {
  const rec = await openLastPly("games/soccer.json");
  const view = rec.views.at(-1);
  assert.equal(view.kind, "soccer");
  assert.equal(view.turns.length, rec.moves.length);
  const paths = await page.$$eval("#board svg.board-soccer polyline.path", (ps) =>
    ps.map((p) => [p.getAttribute("class"), p.getAttribute("points").split(" ").length]));
  // One polyline per turn, in its side's colour, as many points as the turn's steps + 1.
  assert.deepEqual(paths, rec.moves.map((m, i) => [
    `path ${m.side}${i === rec.moves.length - 1 ? " last" : ""}`, m.move.split(" ").length]));
  assert.equal(await page.getAttribute("#board [data-ball]", "data-ball"), view.ball.join(","));
  assert.equal(await page.locator("#board .lattice").count(), 9 * 11 + 6);
  await page.screenshot({ path: join(outDir, "viewer-soccer.png") });
});



// ---- tournaments -------------------------------------------------------------------------------

const results = () => JSON.parse(readFileSync(join(root, "event", "results.json"), "utf8"));
const wdl = (w) => `${w.wins}/${w.draws}/${w.losses}`;
const signed = (v) => `${v >= 0 ? "+" : ""}${Math.round(v)}`;
// The standings as the terminal prints them, from results.json.
const expectedStandings = (r) => [
  ["#", "name", "points", "games", "W/D/L", "as White", "as Black", "rating ± 95%", "faults"],
  ...r.standings.map((s) => [String(s.rank), s.name, String(s.points), String(s.games), `${s.wins}/${s.draws}/${s.losses}`,
    wdl(s.as_white), wdl(s.as_black), `${signed(s.rating)} ± ${Math.round(s.rating_error95)}`, String(s.fault_losses)]),
];
const tableRows = (p, sel) => p.$$eval(`${sel} tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
const ratingBars = (p) => p.$$eval("#ratings-chart .rating-bar", (gs) =>
  gs.map((g) => [g.getAttribute("data-name"), Number(g.getAttribute("data-rating")), Number(g.getAttribute("data-error"))]));

async function checkStandings(p, r) {
  await p.locator("#standings-table tr").nth(r.standings.length).waitFor({ timeout: 10000 });
  assert.deepEqual(await tableRows(p, "#standings-table"), expectedStandings(r));
  // Rank order, and one rating bar per participant with its interval.
  assert.deepEqual(r.standings.map((s) => s.rank), [...r.standings.map((s) => s.rank)].sort((a, b) => a - b));
  assert.deepEqual(await ratingBars(p), r.standings.map((s) => [s.name, s.rating, s.rating_error95]));
  // The crosstable's rows and columns in the same order.
  const cross = await tableRows(p, "#crosstable");
  assert.deepEqual(cross.slice(1).map((row) => row[1]), r.standings.map((s) => s.name));
  assert.deepEqual(cross[0].slice(2), r.standings.map((_, k) => String(k + 1)));
}

test("a tournament's page: standings as the terminal prints them, ratings chart, crosstable, endings", async () => {
  const r = results();
  assert.equal(r.standings.length, 3);
  await page.goto(baseUrl + "#tournament=event");
  await checkStandings(page, r);
  assert.equal(await page.textContent(".progress-text"), `Complete: ${r.games_played} games.`);
  assert.equal(await page.locator("#progress").count(), 0, "no progress bar for a finished event");
  const bars = await page.$$eval("#endings-chart .bar", (gs) => gs.map((g) => [g.getAttribute("data-label"), Number(g.getAttribute("data-value"))]));
  assert.deepEqual(bars, Object.entries(r.endings).map(([end, e]) => [end, e.games]));
  assert.equal(bars.reduce((n, [, v]) => n + v, 0), r.games_total);
  await page.screenshot({ path: join(outDir, "viewer-standings.png"), fullPage: true });
});

test("every crosstable result links to its game, and the link opens it", async () => {
  const r = results();
  await page.goto(baseUrl + "#tournament=event");
  await page.locator("#crosstable td.cell a").first().waitFor({ timeout: 10000 });
  const cells = await page.$$eval("#crosstable td.cell", (tds) => tds.map((td) =>
    [td.dataset.row, td.dataset.col, ...[...td.querySelectorAll("a")].map((a) => [a.textContent, decodeURIComponent(a.getAttribute("href"))])]));
  assert.equal(cells.length, 6);
  const letter = (g, me) => (g.winner === "draw" ? "D" : g.winner === (g.white === me ? "white" : "black") ? "W" : "L");
  for (const [row, col, withWhite, withBlack] of cells) {
    const w = r.games.find((g) => g.white === row && g.black === col), b = r.games.find((g) => g.white === col && g.black === row);
    assert.deepEqual(withWhite, [letter(w, row), `#game=event/${w.record}`], `${row} against ${col} with White`);
    assert.deepEqual(withBlack, [letter(b, row), `#game=event/${b.record}`], `${row} against ${col} with Black`);
  }
  // Clicking opens that game: the row's player with Black against the column's.
  const [row, col] = cells[1];
  const game = r.games.find((g) => g.white === col && g.black === row);
  await page.locator(`#crosstable td.cell[data-row="${row}"][data-col="${col}"] a`).nth(1).click();
  await page.locator("#moves li").nth(game.plies - 1).waitFor({ timeout: 10000 });
  assert.equal(await page.textContent("#game-title"), `${col} (White) – ${row} (Black)`);
  assert.equal(await page.locator("#moves li").count(), game.plies);
  assert.match(await page.textContent("#game-status"), new RegExp(game.reason));
});

test("a participant's page: its games, results by opponent and colour, time per move", async () => {
  const r = results();
  const name = r.standings[0].name;
  await page.goto(baseUrl + "#tournament=event");
  await page.locator("#standings-table a", { hasText: name }).click();
  await page.locator("#participant-games tr").nth(4).waitFor({ timeout: 10000 });
  assert.equal(await page.textContent("#participant-title"), name);
  const mine = r.games.filter((g) => g.white === name || g.black === name);
  const games = await tableRows(page, "#participant-games");
  assert.deepEqual(games.slice(1).map((row) => [row[0], row[2], row[3]]),
    mine.map((g) => [`#${g.game}`, g.white === name ? "White" : "Black", g.white === name ? g.black : g.white]));
  const opponents = await tableRows(page, "#participant-opponents");
  assert.equal(opponents.length, 3);
  const row = r.standings[0];
  assert.equal(opponents.slice(1).reduce((n, o) => n + Number(o[3]), 0), row.points, "points by opponent add up");
  assert.match(await page.textContent("#participant-summary"), new RegExp(`^Rank ${row.rank} · ${row.points} points in ${row.games} games`));
  assert.equal(await page.textContent("#participant-faults-part p"), "No games lost by a fault.");
  // The time chart: one line per game, a point per move it made, the limit drawn.
  const api = await (await fetch(baseUrl + `api/participant?path=event&name=${encodeURIComponent(name)}`)).json();
  assert.equal(api.games.length, 4);
  const series = await page.$$eval("#participant-times svg.time-chart g.series:not(.legend)", (gs) =>
    gs.map((g) => [...g.querySelectorAll("circle")].map((c) => Number(c.getAttribute("data-y")))));
  assert.deepEqual(series, api.games.map((g) => g.time_ms));
  assert.ok(series.flat().length > 4);
  assert.match(await page.textContent("#participant-times .limit-label"), /^limit \d+ ms$/);
  await page.screenshot({ path: join(outDir, "viewer-participant.png"), fullPage: true });
});

test("an event in progress: a progress bar per shard, faults with their reasons, names kept as text", async () => {
  await page.goto(baseUrl + "#tournament=faulty");
  await page.locator("#progress .progress-bar").first().waitFor({ timeout: 10000 });
  const shards = await page.$$eval("#progress .progress-bar", (gs) => gs.map((g) =>
    [g.querySelector(".row-label").textContent, g.getAttribute("data-done"), g.getAttribute("data-total")]));
  assert.deepEqual(shards, [["shard 1 of 2", "3", "6"], ["shard 2 of 2", "1", "6"]]);
  assert.equal(await page.textContent(".progress-text"), "In progress: 4 of 12 games played.");
  assert.equal(await page.locator("#standings-table tr").nth(2).locator("td").nth(1).textContent(), HOSTILE);
  // Ranked order even though the crosstable lists the participants otherwise.
  assert.deepEqual((await tableRows(page, "#crosstable")).slice(1).map((r) => r.slice(1)), [["alice", "—", "WW"], [HOSTILE, "LL", "—"]]);
  await page.locator("#standings-table a", { hasText: HOSTILE }).click();
  await page.locator("#participant-faults li").first().waitFor({ timeout: 10000 });
  assert.equal(await page.textContent("#participant-faults-part p"), "2 games lost by a fault: memory limit 1, timeout 1.");
  assert.deepEqual(await page.$$eval("#participant-faults li", (lis) => lis.map((li) => li.textContent)), [
    "memory limit game 2 with White against alice: used more than 256 MiB",
    "timeout game 3 with Black against alice: no move within 1000 ms"]);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "a name is never markup");
  assert.equal(await page.locator("#participant-body img").count(), 0);
});

test("a game's page charts each side's time per move against the limit, and the engine's evaluation and depth", async () => {
  const rec = await openLastPly("games/engine.json");
  const white = rec.moves.filter((m) => m.side === "white"), black = rec.moves.filter((m) => m.side === "black");
  assert.ok(white.every((m) => m.depth === 2 || Math.abs(m.eval) > 900000) && white.every((m) => typeof m.eval === "number"), "the engine's moves carry eval and depth");
  assert.ok(black.every((m) => m.eval === undefined && m.depth === undefined), "the random player's carry none");
  const points = (chart, name) => page.$$eval(`#game-charts svg.${chart} g.series[data-series="${name}"]:not(.legend) circle`, (cs) =>
    cs.map((c) => [Number(c.getAttribute("data-x")), Number(c.getAttribute("data-y"))]));
  assert.deepEqual(await points("time-chart", "White"), white.map((m) => [m.ply, m.time_ms]));
  assert.deepEqual(await points("time-chart", "Black"), black.map((m) => [m.ply, m.time_ms]));
  assert.equal(await page.textContent("#game-charts .time-chart .limit-label"), `limit ${rec.settings.move_time_ms} ms`);
  assert.deepEqual(await points("depth-chart", "White"), white.map((m) => [m.ply, m.depth]));
  assert.equal((await points("eval-chart", "White's engine")).length, white.length);
  assert.equal((await points("eval-chart", "Black's engine")).length, 0);
  // A point of a chart takes the board to that ply.
  await page.locator(`#game-charts .time-chart g.series[data-series="White"] circle`).nth(1).click();
  assert.match(await page.textContent("#ply-info"), new RegExp(`^Ply ${white[1].ply}/${rec.moves.length}:`));
  await page.screenshot({ path: join(outDir, "viewer-charts.png"), fullPage: true });
});

test("the report opens from file:// without a server: the same standings, and a game plays", async () => {
  const r = results();
  const p = await context.newPage();
  const errors = [], requests = [];
  p.on("pageerror", (e) => errors.push(String(e)));
  p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  p.on("request", (q) => requests.push(q.url()));
  await p.goto(pathToFileURL(join(site, "index.html")).href);
  await checkStandings(p, r);
  assert.equal(await p.textContent(".progress-text"), `Complete: ${r.games_played} games.`);
  // A game from the crosstable, stepped through ply by ply against the server's positions.
  const game = r.games[0];
  await p.locator(`#crosstable td.cell[data-row="${game.white}"][data-col="${game.black}"] a`).first().click();
  await p.locator("#moves li").nth(game.plies - 1).waitFor({ timeout: 10000 });
  assert.equal(await p.textContent("#game-title"), `${game.white} (White) – ${game.black} (Black)`);
  const rec = await (await fetch(baseUrl + "api/record?path=" + encodeURIComponent(`event/${game.record}`))).json();
  const cells = () => p.$$eval("#board svg [data-cell]", (gs) =>
    Object.fromEntries(gs.map((g) => [g.getAttribute("data-cell"), g.getAttribute("data-stack")])));
  await p.keyboard.press("Home");
  assert.equal(await p.textContent("#ply-info"), `Start position (${rec.moves.length} plies)`);
  assert.deepEqual(await cells(), cellsOfView(rec.views[0]));
  for (let ply = 1; ply <= rec.moves.length; ply++) {
    await p.keyboard.press("d");
    assert.deepEqual(await cells(), cellsOfView(rec.views[ply]), `ply ${ply}`);
  }
  assert.match(await p.textContent("#ply-info"), new RegExp(`^Ply ${rec.moves.length}/${rec.moves.length}: `));
  assert.equal(await p.getAttribute("#game-status a", "href"), `files/${game.record}`);
  // A participant's page works there too.
  await p.goto(pathToFileURL(join(site, "index.html")).href + "#participant=&name=" + encodeURIComponent(r.standings[0].name));
  await p.locator("#participant-times svg.time-chart").waitFor({ timeout: 10000 });
  await p.screenshot({ path: join(outDir, "report-file.png"), fullPage: true });
  assert.deepEqual(requests.filter((u) => !u.startsWith("file://")), [], "nothing but the folder's own files");
  assert.deepEqual(errors, []);
  await p.close();
});

test("the page made no script errors", () => {
  assert.deepEqual(pageErrors, []);
});
