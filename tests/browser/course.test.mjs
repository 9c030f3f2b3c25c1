// `arena course serve` in headless Chromium: a student logs in with a one-time password and
// chooses her own, hands in a zip through the page and follows its check live to "accepted",
// opens its smoke games in the viewer; another student sees none of it (404s) but the
// leaderboard, and hands in too; both are on the leaderboard, not rated yet; alice challenges the
// engine (the games wait: this server plays none), bob sees none of it; staff see the ladder's
// queue and pause and resume it; staff set a deadline in the past, after which a hand-in is
// refused; students have no Staff tab, no roster and no ladder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const arena = process.env.ARENA_BINARY;
const outDir = process.env.ARENA_BROWSER_OUT;
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
assert.ok(arena && outDir, "ARENA_BINARY and ARENA_BROWSER_OUT must be set (see run.sh)");
mkdirSync(outDir, { recursive: true });

const work = mkdtempSync(join(tmpdir(), "arena-course-browser-"));
const courseDir = join(work, "course");
const zipPath = join(work, "handin.zip");
const children = [];
let server, browser, baseUrl;
const pageErrors = [];

// A check builds with g++ and plays two smoke games: seconds, more on a loaded machine.
const CHECK_MS = 180000;

// The Paper Soccer bot the C++ tests hand in (kSoccerBot in tests/support/soccer_bot_source.hpp):
// it plays legal turns.
const SOCCER_BOT = /R"CPP\(([\s\S]*?)\)CPP"/.exec(
  readFileSync(new URL("../support/soccer_bot_source.hpp", import.meta.url), "utf8"))[1];
// The build waits 3 s so that the page, polling every second, surely sees it under way.
const MAKEFILE = "build:\n\tsleep 3\n\tg++ -std=c++17 -o bot bot.cpp\nclean:\n\trm -f bot\n";

// A child process whose stdout and stderr we can wait on.
function start(args) {
  const child = spawn(arena, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.output = "";
  child.stdout.on("data", (d) => { child.output += d; });
  child.stderr.on("data", (d) => { child.output += d; });
  child.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  children.push(child);
  return child;
}

// `what`: a text, or a function giving it when the wait fails (to tell what was seen).
async function waitFor(what, predicate, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await predicate();
    if (v) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const arenaOut = (args) => execFileSync(arena, args, { encoding: "utf8" });
const has = (cmd) => { try { execFileSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }); return true; } catch { return false; } };

// student/bot.cpp and student/Makefile in one zip: with zip(1), else python3's zipfile.
function makeZip() {
  const src = join(work, "src");
  mkdirSync(join(src, "student"), { recursive: true });
  writeFileSync(join(src, "student", "bot.cpp"), SOCCER_BOT);
  writeFileSync(join(src, "student", "Makefile"), MAKEFILE);
  if (has("zip")) {
    execFileSync("zip", ["-q", "-r", zipPath, "student"], { cwd: src });
  } else {
    execFileSync("python3", ["-c", `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.write("student/", "student/")
    for name in ("bot.cpp", "Makefile"):
        z.write("student/" + name, "student/" + name)`, zipPath], { cwd: src });
  }
  assert.ok(existsSync(zipPath), "the hand-in zip was made");
}

// One-time passwords, from the console as staff would get them.
const oneTime = {};
const chosen = { alice: "alice-own-password-1", bob: "bob-own-password-22", prof: "prof-own-password-333" };
const sessions = {};  // login -> { context, page }

before(async () => {
  const t0 = Date.now();
  makeZip();
  const roster = join(work, "roster.csv");
  writeFileSync(roster, "login,name,role\nalice,Alice Liddell,student\nbob,Bob Builder,student\nprof,Pat Professor,staff\n");
  arenaOut(["course", "init", courseDir, "--game", "soccer", "--roster", roster, "--title", "Test course"]);
  for (const login of ["alice", "bob", "prof"]) {
    const out = arenaOut(["course", "password", courseDir, login]).trim();
    assert.equal(out.split("\n").length, 1, `arena course password prints one line, got: ${out}`);
    assert.ok(out.length >= 8, `a one-time password for ${login}: '${out}'`);
    oneTime[login] = out;
  }

  server = start(["course", "serve", courseDir, "--port", "0", "--no-grade", "--check-options", "--move-time 1000",
                  "--local-games", "0"]);
  const port = await waitFor("the course server to listen", () => {
    const m = /arena course server on http:\/\/127\.0\.0\.1:(\d+)\//.exec(server.output);
    if (!m && server.exitCode !== null) throw new Error(`the course server stopped: ${server.output}`);
    return m && m[1];
  }, 15000);
  baseUrl = `http://127.0.0.1:${port}/`;

  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  console.log(`# course made, server and browser started in ${Date.now() - t0} ms`);
});

const running = (c) => c.exitCode === null && c.signalCode === null;

// The server is stopped in the last test; whatever failed, nothing is left running: SIGTERM (the
// server then stops a check under way), SIGKILL after 10 s.
after(async () => {
  if (browser) await browser.close().catch(() => {});
  for (const c of children.filter(running)) {
    c.kill("SIGTERM");
    let timer;
    await Promise.race([c.exited, new Promise((r) => { timer = setTimeout(r, 10000); })]);
    clearTimeout(timer);
    if (running(c)) c.kill("SIGKILL");
  }
  rmSync(work, { recursive: true, force: true });
});
process.on("exit", () => { for (const c of children) if (running(c)) c.kill("SIGKILL"); });

// A browser context of its own (its own cookies) for each user.
async function openSession(login) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(`${login}: ${e}`));
  // A 4xx answer is logged as "Failed to load resource": those are expected here (401 before
  // logging in, the 404s and 403s this test asks for); any other error is not.
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) pageErrors.push(`${login}: ${m.text()}`);
  });
  sessions[login] = { context, page };
  return page;
}

const visible = (page, sel) => page.locator(sel).isVisible();

// The viewer's line under the board for a ply (web/app.js).
function plyText(rec, ply) {
  const m = rec.moves[ply - 1];
  return `Ply ${ply}/${rec.moves.length}: ${m.side === "white" ? "White" : "Black"} ${m.move} (${m.time_ms} ms)${m.note ? ` (${m.note})` : ""}`;
}

// Logs in on the page with the one-time password and chooses a new one; ends on the Hand-in tab.
async function firstLogin(login) {
  const t0 = Date.now();
  const page = await openSession(login);
  await page.goto(baseUrl);
  await page.locator("#login-page").waitFor({ state: "visible", timeout: 10000 });
  assert.equal(await page.getAttribute("#tabs", "hidden"), "", "no tabs before logging in");
  await page.fill("#login-name", login);
  await page.fill("#login-password", oneTime[login]);
  await page.click("#login-form button[type=submit]");
  await page.locator("#password-page").waitFor({ state: "visible", timeout: 10000 })
    .catch(async () => { throw new Error(`${login}: the one-time password should lead to #password-page; login status: '${await page.textContent("#login-status")}'`); });
  assert.equal(await page.getAttribute("#tabs", "hidden"), "", `${login}: no tabs before choosing a password`);
  assert.equal(await visible(page, "#handin"), false, `${login}: no hand-in tab before choosing a password`);
  // The API agrees: nothing but the account until the password is chosen.
  const blocked = await page.evaluate(async () => (await fetch("/api/submissions")).status);
  assert.equal(blocked, 403, `${login}: GET /api/submissions before choosing a password`);
  // Too short a password is refused with a reason, and the page stays.
  await page.fill("#password-old", oneTime[login]);
  await page.fill("#password-new", "short");
  await page.evaluate(() => { document.getElementById("password-new").removeAttribute("minlength"); });
  await page.click("#password-form button[type=submit]");
  await waitFor(`${login}: a refusal of a short password`, async () => (await page.textContent("#password-status")).length > 0, 10000);
  assert.match(await page.textContent("#password-status"), /characters/);
  await page.fill("#password-old", oneTime[login]);
  await page.fill("#password-new", chosen[login]);
  await page.click("#password-form button[type=submit]");
  await page.locator("#handin").waitFor({ state: "visible", timeout: 10000 })
    .catch(async () => { throw new Error(`${login}: after choosing a password the hand-in tab should show; status: '${await page.textContent("#password-status")}'`); });
  assert.equal(await visible(page, "#password-page"), false);
  assert.equal(await visible(page, "#tabs"), true);
  assert.match(await page.textContent("#who"), new RegExp(`\\(${login}, (student|staff)\\)`));
  assert.equal(await page.textContent("#title"), "Test course");
  console.log(`# ${login} logged in and chose a password in ${Date.now() - t0} ms`);
  return page;
}

// Hands in the zip through the file input; the hand-in's id from the status line.
async function upload(page) {
  await page.setInputFiles("#upload-file", zipPath);
  await page.click("#upload-button");
  const status = await waitFor("the upload to be answered", async () => {
    const t = await page.textContent("#upload-status");
    return t && !t.startsWith("uploading") ? t : null;
  }, 30000);
  return status;
}

// Follows the row of hand-in `id` on the page until it is accepted or rejected: the states seen.
async function followCheck(page, id, who) {
  const seen = [];
  const cell = page.locator(`#submission-${id} td.state`);
  await cell.waitFor({ timeout: 10000 });
  await waitFor(() => `${who}'s hand-in #${id} to be checked (states seen: ${seen.join(" → ")})`, async () => {
    const t = (await cell.textContent()).trim();
    if (seen.at(-1) !== t) seen.push(t);
    return t === "accepted" || t === "rejected";
  }, CHECK_MS);
  return seen;
}

let aliceId, bobId, aliceGames, aliceStates = [], challengeIds = [];

test("alice logs in with a one-time password, chooses her own, hands in and follows the check live", { timeout: CHECK_MS + 60000 }, async () => {
  const page = await firstLogin("alice");
  await page.locator("#submissions tbody td.hint").waitFor({ timeout: 10000 });
  assert.equal(await page.textContent("#submissions tbody"), "No hand-ins yet.");
  assert.equal(await page.textContent("#versions-title"), "Your versions");
  assert.equal(await visible(page, "#staff-tab"), false, "a student has no Staff tab");

  await page.evaluate(() => { window.__noReload = true; });
  const t0 = Date.now();
  const status = await upload(page);
  const m = /^handin\.zip is hand-in #(\d+): queued for checking$/.exec(status);
  assert.ok(m, `the upload status should name the new hand-in, got: '${status}'`);
  aliceId = Number(m[1]);
  const states = await followCheck(page, aliceId, "alice");
  aliceStates = states;
  console.log(`# alice's hand-in #${aliceId}: ${states.join(" → ")} in ${Date.now() - t0} ms`);
  assert.equal(states.at(-1), "accepted", `the hand-in should be accepted; states: ${states.join(" → ")}; ` +
    `reason: '${await page.textContent(`#submission-${aliceId} td:nth-child(7)`)}'; log: ${await page.textContent("#detail-log")}`);
  const unfinished = states.slice(0, -1);
  assert.ok(unfinished.length >= 1, `the row should show the check under way before its verdict, saw: ${states.join(" → ")}`);
  for (const s of unfinished)
    assert.match(s, /^(queued|building|checking)( \([\w ]+\))?$/, `states before the verdict: ${states.join(" → ")}`);
  assert.ok(states.some((s) => s.startsWith("checking")) || states.some((s) => s.startsWith("building")),
    `the row should show building or checking live, saw: ${states.join(" → ")}`);
  assert.equal(await page.evaluate(() => window.__noReload), true, "the page must not reload while following the check");
  const row = await page.$$eval(`#submission-${aliceId} td`, (tds) => tds.map((td) => td.textContent));
  assert.equal(row[0], `#${aliceId}`);
  assert.equal(row[2], "alice");
  assert.equal(row[3], "handin.zip");
  await page.screenshot({ path: join(outDir, "course-handin.png"), fullPage: true });
});

test("alice's details show the stages and two smoke games, which open in the viewer", { timeout: 120000 }, async () => {
  assert.ok(aliceId, "needs alice's accepted hand-in");
  const page = sessions.alice.page;
  await page.click(`#submission-${aliceId} button`);
  await page.locator("#detail").waitFor({ state: "visible", timeout: 10000 });
  await waitFor("the detail of alice's hand-in", async () =>
    (await page.textContent("#detail-title")) === `Hand-in #${aliceId}: handin.zip (alice)`, 10000);
  assert.match(await page.textContent("#detail-reason"), /^accepted/);
  const stages = await page.$$eval("#detail-stages li", (lis) => lis.map((li) => [li.className, li.textContent]));
  assert.ok(stages.length >= 3, `the check's stages should be listed, got ${JSON.stringify(stages)}`);
  for (const name of ["unpack", "build", "run", "game 1", "game 2"])
    assert.ok(stages.some(([, t]) => t.startsWith(`${name}:`)), `a '${name}' stage in ${JSON.stringify(stages)}`);
  assert.ok(stages.some(([, t]) => /^game \d: as White: /.test(t)) && stages.some(([, t]) => /^game \d: as Black: /.test(t)),
    `a smoke game with each colour: ${JSON.stringify(stages)}`);
  assert.ok(stages.every(([c]) => c === "stage-ok"), `every stage passed: ${JSON.stringify(stages)}`);
  assert.notEqual(await page.textContent("#detail-log"), "", "the build log is shown");
  assert.equal(await visible(page, "#detail-staff"), false, "a student has no staff buttons");

  const links = await page.$$eval("#detail-games a[href^='/view/']", (as) => as.map((a) => [a.getAttribute("href"), a.textContent]));
  assert.equal(links.length, 2, `two smoke games, got ${JSON.stringify(links)}`);
  // Beside each game, the hand-in's own log of it.
  const logs = await page.$$eval("#detail-games a[href^='/api/games/']", (as) => as.map((a) => a.getAttribute("href")));
  assert.equal(logs.length, 2, `a log link per game: ${JSON.stringify(logs)}`);
  for (const href of logs) assert.equal(await page.evaluate(async (u) => (await fetch(u)).status, href), 200, href);
  aliceGames = links.map(([href]) => {
    const m = /^\/view\/#game=(\d+)$/.exec(href);
    assert.ok(m, `a game link is /view/#game=ID, got ${href}`);
    return Number(m[1]);
  });
  // One with each colour, against the random player.
  assert.deepEqual(links.map(([, t]) => t).sort(), [`alice #${aliceId} – random`, `random – alice #${aliceId}`].sort());
  // Newest first, each with its kind and its outcome for alice's version.
  assert.equal(await page.textContent("#detail-games-count"), "2 games.");
  const cells = await page.$$eval("#detail-games tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(cells.map((c) => c[1]), ["smoke", "smoke"], JSON.stringify(cells));
  assert.ok(cells.every((c) => ["won", "lost", "draw"].includes(c[2])), `an outcome per game: ${JSON.stringify(cells)}`);
  const api = await page.evaluate(async (id) => (await fetch(`/api/games?submission=${id}`)).json(), aliceId);
  assert.deepEqual(api.games.map((g) => g.id), [...aliceGames].reverse());
  assert.ok(api.games.every((g) => g.kind === "smoke" && g.plies > 0), JSON.stringify(api.games));
  await page.screenshot({ path: join(outDir, "course-detail.png"), fullPage: true });

  // The first game in the viewer (same tab), stepped through with the key 'd' and the next button.
  await page.click(`#detail-games a[href="/view/#game=${aliceGames[0]}"]`);
  await page.waitForURL(`${baseUrl}view/#game=${aliceGames[0]}`, { timeout: 10000 });
  const rec = await page.evaluate(async (id) => {
    const r = await fetch(`api/record?path=${id}`);
    return r.ok ? r.json() : { status: r.status };
  }, aliceGames[0]);
  assert.ok(rec.moves, `the viewer's record of game ${aliceGames[0]}: ${JSON.stringify(rec)}`);
  const n = rec.moves.length;
  assert.ok(n >= 2, `a smoke game has moves, got ${n}`);
  await page.locator("#moves li").nth(n - 1).waitFor({ timeout: 10000 });
  assert.equal(await page.locator("#moves li").count(), n);
  // The record's names: the hand-in plays as "handin" (the course's lists say "alice #ID").
  assert.equal(await page.textContent("#game-title"), `${rec.players.white.name} (White) – ${rec.players.black.name} (Black)`);
  assert.ok([rec.players.white.name, rec.players.black.name].includes("random"), JSON.stringify(rec.players));
  await page.locator("#board svg.board-soccer").waitFor({ timeout: 10000 });
  assert.match(await page.textContent("#ply-info"), new RegExp(`^Ply ${n}/${n}: `), "a finished game opens on its last ply");
  // The game is in the list at the left, and only alice's games are.
  const listed = page.locator(`#games a[href="#game=${aliceGames[0]}"]`);
  await listed.waitFor({ timeout: 10000 });
  assert.match(await listed.textContent(), new RegExp(`alice #${aliceId}`));
  assert.equal(await page.locator("#games a").count(), 2, "the viewer lists alice's two games");

  const ball = () => page.getAttribute("#board [data-ball]", "data-ball");
  const paths = () => page.locator("#board svg.board-soccer polyline.path").count();
  await page.keyboard.press("Home");
  assert.equal(await page.textContent("#ply-info"), `Start position (${n} plies)`);
  assert.equal(await paths(), 0, "no path at the start");
  assert.equal(await ball(), rec.views[0].ball.join(","));
  await page.keyboard.press("d");
  assert.equal(await page.textContent("#ply-info"), plyText(rec, 1), "'d' steps forward");
  assert.equal(await paths(), 1);
  assert.equal(await ball(), rec.views[1].ball.join(","), "the ball after ply 1");
  await page.click("#next");
  assert.equal(await page.textContent("#ply-info"), plyText(rec, 2), "the next button steps forward");
  assert.equal(await paths(), 2);
  assert.equal(await ball(), rec.views[2].ball.join(","), "the ball after ply 2");
  await page.screenshot({ path: join(outDir, "course-viewer.png") });
  await page.goto(baseUrl);
  await page.locator("#handin").waitFor({ state: "visible", timeout: 10000 });
});

test("bob sees none of alice's hand-ins or games, but the leaderboard; his own hand-in joins it", { timeout: CHECK_MS + 60000 }, async () => {
  assert.ok(aliceId && aliceGames, "needs alice's hand-in and games");
  const page = await firstLogin("bob");
  await page.locator("#submissions tbody td.hint").waitFor({ timeout: 10000 });
  assert.equal(await page.textContent("#submissions tbody"), "No hand-ins yet.", "bob's list has none of alice's");
  assert.equal(await page.locator(`#submission-${aliceId}`).count(), 0);
  assert.equal(await visible(page, "#staff-tab"), false, "a student has no Staff tab");

  const statuses = await page.evaluate(async ([id, games]) => {
    const status = async (url) => (await fetch(url)).status;
    const out = {};
    out[`/api/submissions/${id}`] = await status(`/api/submissions/${id}`);
    out[`/api/games?submission=${id}`] = await status(`/api/games?submission=${id}`);
    for (const g of games) {
      out[`/api/games/${g}`] = await status(`/api/games/${g}`);
      out[`/view/api/record?path=${g}`] = await status(`/view/api/record?path=${g}`);
    }
    out["/api/roster"] = await status("/api/roster");
    out["/api/events"] = await status("/api/events");
    return out;
  }, [aliceId, aliceGames]);
  const expected = { [`/api/submissions/${aliceId}`]: 404, [`/api/games?submission=${aliceId}`]: 404, "/api/roster": 403, "/api/events": 403 };
  for (const g of aliceGames) Object.assign(expected, { [`/api/games/${g}`]: 404, [`/view/api/record?path=${g}`]: 404 });
  assert.deepEqual(statuses, expected, "what bob may not see");
  const list = await page.evaluate(async () => (await fetch("/view/api/list")).json());
  assert.deepEqual(list.games, [], "the viewer lists none of alice's games for bob");

  // The leaderboard lists alice's accepted version.
  await page.click('nav a[data-tab="leaderboard"]');
  await page.locator("#leaderboard").waitFor({ state: "visible", timeout: 10000 });
  const boardRows = () => page.$$eval("#board tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  await waitFor("alice on the leaderboard", async () => (await boardRows()).some((r) => r[1] === "Alice Liddell (alice)"), 10000);
  assert.deepEqual((await boardRows()).map((r) => [r[1], r[4]]), [["Alice Liddell (alice)", `#${aliceId}`]]);

  // Bob hands in the same zip; once accepted, the leaderboard lists both.
  await page.click('nav a[data-tab="handin"]');
  await page.locator("#handin").waitFor({ state: "visible", timeout: 10000 });
  const status = await upload(page);
  const m = /^handin\.zip is hand-in #(\d+): queued for checking$/.exec(status);
  assert.ok(m, `bob's upload status should name the new hand-in, got: '${status}'`);
  const theirId = Number(m[1]);
  assert.notEqual(theirId, aliceId);
  const t0 = Date.now();
  const states = await followCheck(page, theirId, "bob");
  console.log(`# bob's hand-in #${theirId}: ${states.join(" → ")} in ${Date.now() - t0} ms`);
  assert.equal(states.at(-1), "accepted", `bob's hand-in should be accepted; states: ${states.join(" → ")}`);
  assert.equal(await page.locator("#submissions tbody tr").count(), 1, "bob's list has his own hand-in only");

  await page.click('nav a[data-tab="leaderboard"]');
  await waitFor("bob on the leaderboard", async () => (await boardRows()).length === 2, 10000);
  // Both versions, in whatever order the ranking puts them.
  assert.deepEqual((await boardRows()).map((r) => [r[1], r[4]]).sort(),
    [["Alice Liddell (alice)", `#${aliceId}`], ["Bob Builder (bob)", `#${theirId}`]]);
  assert.deepEqual((await boardRows()).map((r) => r[0]), ["1", "2"], "ranks 1 and 2");
  assert.equal(await page.locator("#board tbody tr.mine").count(), 1, "bob's own row is marked");
  assert.equal(await page.locator("#board tbody tr.mine td").nth(1).textContent(), "Bob Builder (bob)");
  await page.screenshot({ path: join(outDir, "course-leaderboard.png"), fullPage: true });
  bobId = theirId;
});

// No ladder game is played here (--local-games 0): both versions are as yet unrated.
test("the leaderboard says the versions without games are not rated yet and provisional", async () => {
  assert.ok(bobId, "needs both hand-ins on the leaderboard");
  const page = sessions.bob.page;
  const rows = await page.$$eval("#board tbody tr", (trs) => trs.map((tr) =>
    [tr.className, ...[...tr.children].map((c) => c.textContent)]));
  assert.equal(rows.length, 2, JSON.stringify(rows));
  for (const r of rows) {
    assert.equal(r[3], "not rated yet", `the rating cell: ${JSON.stringify(r)}`);
    assert.equal(r[4], "0", `no games: ${JSON.stringify(r)}`);
    assert.match(r[0], /\bprovisional\b/, `an unsettled row is marked: ${JSON.stringify(r)}`);
  }
  const board = await page.evaluate(async () => (await fetch("/api/leaderboard")).json());
  assert.deepEqual(board.rows.map((r) => [r.rating, r.error, r.games, r.settled]), [[null, null, 0, false], [null, null, 0, false]]);
  assert.equal(board.paused, false);
  assert.equal(await visible(page, "#board-paused"), false, "no note of a pause while the ladder runs");
});

test("alice challenges the engine from the Challenges tab; the games wait in her list, not in bob's", { timeout: 60000 }, async () => {
  assert.ok(aliceId && bobId, "needs both accepted hand-ins");
  const page = sessions.alice.page;
  await page.click('nav a[data-tab="challenges"]');
  await page.locator("#challenges").waitFor({ state: "visible", timeout: 10000 });
  await page.locator("#challenge-list tbody td.hint").waitFor({ timeout: 10000 });
  assert.equal(await page.textContent("#challenge-list tbody"), "No challenges yet.");
  assert.deepEqual(await page.$$eval("#challenge-version option", (os) => os.map((o) => o.value)), [String(aliceId)],
    "alice's one accepted version to play with");
  const opponents = await page.$$eval("#challenge-opponent option", (os) => os.map((o) => o.value));
  assert.deepEqual(opponents, [1, 2, 3, 4, 5].map((k) => `engine level=${k}`).concat(["login"]), "the engine's levels, or a login");

  // A login that has no version on the ladder is refused with the server's reason.
  assert.equal(await visible(page, "#challenge-login"), false, "no login field until a classmate is chosen");
  await page.selectOption("#challenge-opponent", "login");
  assert.equal(await visible(page, "#challenge-login"), true);
  await page.fill("#challenge-login", "prof");
  await page.click("#challenge-button");
  await waitFor("the refusal of a login without a version", async () => (await page.textContent("#challenge-status")).length > 0, 10000);
  assert.equal(await page.textContent("#challenge-status"), "that student has no version on the ladder");
  assert.equal(await page.getAttribute("#challenge-status", "class"), "status bad");

  await page.selectOption("#challenge-opponent", "engine level=1");
  assert.equal(await visible(page, "#challenge-login"), false);
  await page.fill("#challenge-games", "2");
  await page.click("#challenge-button");
  await waitFor("the challenge to be queued", async () => /queued/.test(await page.textContent("#challenge-status")), 10000);
  assert.equal(await page.textContent("#challenge-status"), "2 games against engine level=1 queued.");
  const rows = () => page.$$eval("#challenge-list tbody tr[id^=challenge-]", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  await waitFor("two challenge rows", async () => (await rows()).length === 2, 10000);
  const seen = await rows();
  // One game with each colour; nothing plays them here, so they wait.
  assert.deepEqual(seen.map((r) => [r[2], r[3]]).sort(),
    [[`alice #${aliceId}`, "engine level=1"], ["engine level=1", `alice #${aliceId}`]].sort(), JSON.stringify(seen));
  assert.deepEqual(seen.map((r) => r[4]), ["queued", "queued"]);
  assert.deepEqual(seen.map((r) => r[5]), ["", ""], "no game yet");
  const api = await page.evaluate(async () => (await fetch("/api/challenges")).json());
  assert.deepEqual(api.challenges.map((c) => [c.kind, c.state, c.game]), [["challenge", "queued", null], ["challenge", "queued", null]]);
  challengeIds = api.challenges.map((c) => c.id);
  await page.screenshot({ path: join(outDir, "course-challenges.png"), fullPage: true });

  // Bob's list is his own: empty.
  const bob = sessions.bob.page;
  await bob.click('nav a[data-tab="challenges"]');
  await bob.locator("#challenges").waitFor({ state: "visible", timeout: 10000 });
  await bob.locator("#challenge-list tbody td.hint").waitFor({ timeout: 10000 });
  assert.equal(await bob.textContent("#challenge-list tbody"), "No challenges yet.");
  assert.deepEqual(await bob.$$eval("#challenge-version option", (os) => os.map((o) => o.value)), [String(bobId)]);
  assert.deepEqual(await bob.evaluate(async () => (await fetch("/api/challenges")).json()), { challenges: [] });
});

test("staff set a deadline in the past; then a student's hand-in is refused; students have no staff rights", { timeout: 120000 }, async () => {
  const page = await firstLogin("prof");
  assert.equal(await visible(page, "#staff-tab"), true, "staff see the Staff tab");
  assert.equal(await page.textContent("#versions-title"), "Every hand-in");
  await waitFor("staff to see every hand-in", async () => (await page.locator("#submissions tbody tr[id^=submission-]").count()) === 2, 10000);

  await page.click("#staff-tab");
  await page.locator("#staff").waitFor({ state: "visible", timeout: 10000 });
  await page.locator("#user-alice").waitFor({ timeout: 10000 });
  const roster = await page.$$eval("#roster tbody tr", (trs) => trs.map((tr) => [...tr.children].slice(0, 5).map((c) => c.textContent)));
  assert.deepEqual(roster.sort(), [
    ["alice", "Alice Liddell", "student", "set", "active"],
    ["bob", "Bob Builder", "student", "set", "active"],
    ["prof", "Pat Professor", "staff", "set", "active"]]);
  await page.fill("#deadline-input", "2020-01-01T00:00");
  await page.click("#deadline-form button[type=submit]");
  await waitFor("the deadline to be set", async () => (await page.textContent("#deadline-status")).length > 0, 10000);
  assert.equal(await page.textContent("#deadline-status"), "Hand-ins close at 2020-01-01T00:00:00Z (UTC).");
  assert.equal(await page.getAttribute("#deadline-status", "class"), "status ok");
  await page.screenshot({ path: join(outDir, "course-staff.png"), fullPage: true });

  // Alice, on a fresh load, sees the deadline, and her next hand-in is refused for it.
  const alice = sessions.alice.page;
  await alice.goto(baseUrl);
  await alice.locator("#handin").waitFor({ state: "visible", timeout: 10000 });
  assert.equal(await alice.textContent("#deadline"), "Hand-ins close at 2020-01-01T00:00:00Z (UTC).");
  const status = await upload(alice);
  assert.match(status, /deadline/, `alice's late upload should be refused for the deadline, got: '${status}'`);
  assert.equal(await alice.getAttribute("#upload-status", "class"), "status bad");
  await alice.screenshot({ path: join(outDir, "course-deadline.png"), fullPage: true });
  const rows = await alice.$$eval("#submissions tbody tr[id^=submission-]", (trs) => trs.map((tr) => tr.id));
  assert.deepEqual(rows, [`submission-${aliceId}`], "no new hand-in after the deadline");

  // Neither student has the Staff tab, and the staff routes answer 403 to them.
  for (const login of ["alice", "bob"]) {
    const p = sessions[login].page;
    await p.goto(baseUrl + "#staff");
    await p.locator("#handin").waitFor({ state: "visible", timeout: 10000 });
    assert.equal(await visible(p, "#staff-tab"), false, `${login} has no Staff tab`);
    assert.equal(await visible(p, "#staff"), false, `${login} is not shown the staff section at #staff`);
    assert.equal(await visible(p, "#ladder"), false, `${login} is not shown the ladder`);
    const answers = await p.evaluate(async () => {
      const csrf = document.querySelector("input.csrf").value;
      const post = (url, body) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) });
      const answer = async (r) => [r.status, (await r.json()).error];
      return [await answer(await fetch("/api/roster")), await answer(await post("/api/deadline", { deadline: "" })),
        await answer(await fetch("/api/ladder")), await answer(await post("/api/ladder", { paused: true }))];
    });
    assert.deepEqual(answers, [[403, "for staff only"], [403, "for staff only"], [403, "for staff only"], [403, "for staff only"]],
      `${login}: GET /api/roster, POST /api/deadline, GET and POST /api/ladder`);
  }
});

test("staff see the ladder running with the challenge's games queued, and pause and resume it", { timeout: 60000 }, async () => {
  assert.equal(challengeIds.length, 2, "needs alice's challenge");
  const page = sessions.prof.page;
  await page.goto(baseUrl + "#staff");
  await page.locator("#ladder").waitFor({ state: "visible", timeout: 10000 });
  const ladderState = () => page.textContent("#ladder-state");
  await waitFor(async () => `the ladder shown running, not '${await ladderState()}'`, async () => (await ladderState()) === "running", 10000);
  assert.equal(await page.textContent("#ladder-pause"), "Pause");

  // Alice's two challenge games wait in the queue (among the ladder's own alice–bob games).
  const row = (id) => page.$$eval(`#ladder-queued tbody tr#job-${id} td`, (tds) => tds.map((td) => td.textContent));
  await waitFor("the challenge's games in the queue", async () => (await row(challengeIds[1])).length > 0, 10000);
  const challengeRows = [await row(challengeIds[0]), await row(challengeIds[1])];
  assert.deepEqual(challengeRows.map((r) => [r[1], r[2], r[3]]).sort(),
    [["challenge", `alice #${aliceId}`, "engine level=1"], ["challenge", "engine level=1", `alice #${aliceId}`]].sort(),
    JSON.stringify(challengeRows));
  const ladder = await page.evaluate(async () => (await fetch("/api/ladder")).json());
  assert.equal(ladder.paused, false);
  assert.deepEqual(ladder.playing, [], "nothing plays here");
  assert.deepEqual(ladder.queued.filter((j) => j.kind === "challenge").map((j) => j.id).sort(), [...challengeIds].sort());
  assert.equal(await page.locator("#ladder-queued tbody tr[id^=job-]").count(), ladder.queued.length, "every queued game is listed");
  assert.match(await page.textContent("#ladder-queued-count"), new RegExp(`^${ladder.queued.length} games?$`));
  assert.equal(await page.textContent("#ladder-playing tbody"), "No game is being played.");
  await page.screenshot({ path: join(outDir, "course-ladder.png"), fullPage: true });

  // Pause: the page and the API say so, and so does the students' leaderboard; then resume.
  const apiPaused = async () => (await page.evaluate(async () => (await fetch("/api/ladder")).json())).paused;
  await page.click("#ladder-pause");
  await waitFor(async () => `the ladder shown paused, not '${await ladderState()}'`, async () => (await ladderState()) === "paused", 10000);
  assert.equal(await page.textContent("#ladder-pause"), "Resume");
  assert.equal(await apiPaused(), true, "GET /api/ladder after Pause");
  const alice = sessions.alice.page;
  await alice.click('nav a[data-tab="leaderboard"]');
  await alice.locator("#board-paused").waitFor({ state: "visible", timeout: 10000 });
  await page.click("#ladder-pause");
  await waitFor(async () => `the ladder shown running again, not '${await ladderState()}'`, async () => (await ladderState()) === "running", 10000);
  assert.equal(await page.textContent("#ladder-pause"), "Pause");
  assert.equal(await apiPaused(), false, "GET /api/ladder after Resume");
});

// The check's stages reach the page while it runs: the build (3 s) is seen at its stage.
test("the row shows the check's progress live", () => {
  assert.ok(aliceStates.some((s) => /^building \((recipe|build)\)$/.test(s)), `states seen: ${aliceStates.join(" → ")}`);
});

test("the tab bar is not shown before logging in", async () => {
  const page = await openSession("nobody");
  await page.goto(baseUrl);
  await page.locator("#login-page").waitFor({ state: "visible", timeout: 10000 });
  assert.equal(await page.getAttribute("#tabs", "hidden"), "");
  assert.equal(await visible(page, "#tabs"), false, "the tab bar (#tabs, hidden) is drawn on the login page");
});

test("the course server stops on SIGTERM", { timeout: 30000 }, async () => {
  for (const { context } of Object.values(sessions)) await context.close();
  server.kill("SIGTERM");
  let timer;
  const code = await Promise.race([server.exited, new Promise((r) => { timer = setTimeout(() => r("still running after 20 s"), 20000); })]);
  clearTimeout(timer);
  assert.equal(code, 0, `the server's exit after SIGTERM; its output:\n${server.output}`);
});

test("the pages made no script errors", () => {
  assert.deepEqual(pageErrors, []);
});
