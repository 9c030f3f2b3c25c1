// `arena web` in headless Chromium: a game played live through `arena serve` by two
// `arena connect` engines is followed move by move without reloading; a finished game is stepped
// through with the keys, buttons and the move list; a tournament's standings are shown.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const arena = process.env.ARENA_BINARY;
const outDir = process.env.ARENA_BROWSER_OUT;
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
assert.ok(arena && outDir, "ARENA_BINARY and ARENA_BROWSER_OUT must be set (see run.sh)");

const work = mkdtempSync(join(tmpdir(), "arena-browser-"));
const root = join(work, "served");
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

test("the page made no script errors", () => {
  assert.deepEqual(pageErrors, []);
});
