// The arena viewer page: lists the folder's games and tournaments, shows one, follows games
// being played by polling the JSON API (no reloading). API: docs/viewer.md. The same page is
// the report `arena tournament report` writes, with its answers embedded (source.js).
"use strict";

const LIST_EVERY_MS = 2000, LIVE_EVERY_MS = 500;
const LIVE = !Source.exported;  // a report is a snapshot: nothing to poll

const state = {
  list: null,
  kind: null,      // "game", "tournament" or "participant"
  path: null,
  game: null,      // /api/record answer
  ply: 0,
  follow: true,    // at the last ply of a live game: move on with it
  autoplay: null,  // interval id
  poll: null,      // timeout id of the live poll
  charts: null,    // the game's charts ({element, mark})
};

function resultText(rec) {
  const r = rec.result || {};
  if (rec.live) return "being played";
  const who = { white: "White wins", black: "Black wins", draw: "Draw" }[r.winner] || "not finished";
  return r.reason ? `${who} (${r.reason}${r.detail ? ": " + r.detail : ""})` : who;
}

function shortResult(g) {
  if (g.live) return h("span", { className: "badge live", textContent: "live" });
  return h("span", { className: "badge", textContent: { white: "1-0", black: "0-1", draw: "½-½" }[g.winner] || g.reason || "?" });
}

// ---- the list on the left ----------------------------------------------------------------

async function refreshList() {
  try {
    state.list = await Source.get("list", {});
    $("connection").className = "ok";
  } catch (e) {
    $("connection").className = "bad";
    return;
  } finally {
    if (LIVE) setTimeout(refreshList, LIST_EVERY_MS);
  }
  $("folder").textContent = Source.exported
    ? `${Source.exported.title}: report of ${Source.exported.exported_at}`
    : state.list.root ? `showing ${state.list.root}/` : "";
  const games = $("games"), tours = $("tournaments");
  games.replaceChildren();
  tours.replaceChildren();
  for (const g of state.list.games) {
    const a = h("a", { href: Links.game(g.path) },
      shortResult(g), ` ${g.white} – ${g.black}`,
      h("span", { className: "sub", textContent: `${g.game} · ${g.plies} plies · ${g.path}` }));
    if (state.kind === "game" && state.path === g.path) a.classList.add("selected");
    games.append(h("li", {}, a));
  }
  for (const t of state.list.tournaments) {
    const a = h("a", { href: Links.tournament(t.path), textContent: t.path || (Source.exported ? Source.exported.title : "(this folder)") });
    if ((state.kind === "tournament" || state.kind === "participant") && state.path === t.path) a.classList.add("selected");
    tours.append(h("li", {}, a));
  }
  if (!state.list.games.length) games.append(h("li", { className: "none", textContent: "none yet" }));
  if (!state.list.tournaments.length) tours.append(h("li", { className: "none", textContent: "none" }));
}

// ---- one game ------------------------------------------------------------------------------

function lastPly() {
  return state.game ? state.game.views.length - 1 : 0;
}

function setPly(p) {
  if (!state.game) return;
  state.ply = Math.max(0, Math.min(lastPly(), p));
  state.follow = state.ply === lastPly();
  drawGame();
}

function plyText(rec, ply) {
  if (ply === 0) return `Start position (${rec.moves.length} plies)`;
  const m = rec.moves[ply - 1];
  const side = m.side === "white" ? "White" : "Black";
  const note = m.note ? ` (${m.note})` : "";
  return `Ply ${ply}/${rec.moves.length}: ${side} ${m.move} (${m.time_ms} ms)${note}`;
}

function drawMoves() {
  const rec = state.game, ol = $("moves");
  ol.replaceChildren();
  rec.moves.forEach((m, i) => {
    const li = h("li", { className: m.side },
      h("span", { className: "side", textContent: m.side === "white" ? "White" : "Black" }), " ",
      h("span", { className: "move", textContent: m.move }),
      h("span", { className: "time", textContent: `${m.time_ms} ms` }),
      m.note ? h("span", { className: "note", title: m.note, textContent: "note" }) : "");
    li.dataset.ply = String(i + 1);
    li.addEventListener("click", () => setPly(i + 1));
    ol.append(li);
  });
}

function drawGame() {
  const rec = state.game;
  const view = rec.views[state.ply], prev = state.ply > 0 ? rec.views[state.ply - 1] : null;
  $("board").replaceChildren(Boards.draw(view, prev));
  $("caption").textContent = (view && view.caption) || "";
  $("ply-info").textContent = plyText(rec, state.ply);
  const slider = $("slider");
  slider.max = String(lastPly());
  slider.value = String(state.ply);
  for (const li of $("moves").children) {
    const current = Number(li.dataset.ply) === state.ply;
    li.classList.toggle("current", current);
    if (current) li.scrollIntoView({ block: "nearest" });
  }
  if (state.charts) state.charts.mark(state.ply);
}

function showGame(rec, keepPly) {
  const firstLoad = !state.game || state.game.path !== rec.path;
  state.game = rec;
  $("game-title").textContent = `${rec.players.white.name} (White) – ${rec.players.black.name} (Black)`;
  const status = $("game-status");
  status.replaceChildren(
    rec.live ? h("span", { className: "badge live", textContent: "live" }) : "",
    ` ${rec.game} · ${resultText(rec)}` + (rec.started_at ? ` · started ${rec.started_at}` : ""));
  if (rec.replay_error) status.append(h("div", { className: "error", textContent: "Replay stopped: " + rec.replay_error }));
  const file = Source.fileUrl(rec.path);
  if (file) status.append(" · ", h("a", { href: file, textContent: "record (JSON)" }));
  drawMoves();
  state.charts = GameCharts.draw(rec, (ply) => setPly(ply));
  $("game-charts").replaceChildren(state.charts.element);
  if (firstLoad || state.follow) state.ply = lastPly();
  else state.ply = Math.min(keepPly, lastPly());
  state.follow = state.ply === lastPly();
  drawGame();
}

async function pollGame(path) {
  if (state.kind !== "game" || state.path !== path) return;
  try {
    const rec = await Source.get("record", { path, known: state.game.version });
    if (state.kind !== "game" || state.path !== path) return;
    if (!rec.unchanged) showGame(rec, state.ply);
  } catch (e) {
    // The file may be between two writes: try again.
  }
  if (state.game && state.game.live && LIVE) state.poll = setTimeout(() => pollGame(path), LIVE_EVERY_MS);
}

async function openGame(path) {
  enter("game", path);
  $("game-title").textContent = path;
  $("game-status").textContent = "loading…";
  $("moves").replaceChildren();
  $("board").replaceChildren();
  $("game-charts").replaceChildren();
  try {
    const rec = await Source.get("record", { path });
    if (state.path !== path) return;
    showGame(rec, 0);
    if (rec.live && LIVE) state.poll = setTimeout(() => pollGame(path), LIVE_EVERY_MS);
  } catch (e) {
    $("game-status").textContent = "Cannot show this game: " + e.message;
  }
}

function stopAutoplay() {
  clearInterval(state.autoplay);
  state.autoplay = null;
  $("play").textContent = "▶ play";
}

function toggleAutoplay() {
  if (state.autoplay) return stopAutoplay();
  if (!state.game) return;
  if (state.ply === lastPly()) setPly(0);
  $("play").textContent = "⏸ pause";
  state.autoplay = setInterval(() => {
    if (state.ply >= lastPly() && !(state.game && state.game.live)) return stopAutoplay();
    if (state.ply < lastPly()) setPly(state.ply + 1);
  }, Number($("speed").value));
}

// ---- one tournament and its participants ------------------------------------------------

function tournamentGames(t) {
  const ul = $("tournament-games");
  ul.replaceChildren();
  for (const g of t.games)
    ul.append(h("li", {}, h("a", { href: Links.game(g.path) }, shortResult(g), ` ${g.white} – ${g.black} (${g.plies} plies) ${g.path}`)));
}

async function pollTournament(path) {
  if (state.kind !== "tournament" || state.path !== path) return;
  try {
    const t = await Source.get("tournament", { path });
    if (state.kind !== "tournament" || state.path !== path) return;
    $("tournament-status").textContent = t.standings_error || "";
    $("tournament-body").replaceChildren(TournamentPage.render(t));
    tournamentGames(t);
  } catch (e) {
    $("tournament-status").textContent = "Cannot show this tournament: " + e.message;
  }
  if (LIVE) state.poll = setTimeout(() => pollTournament(path), LIST_EVERY_MS);
}

// Switches the page to another game, tournament or participant: stops what the last one did.
function enter(kind, path) {
  stopAutoplay();
  clearTimeout(state.poll);
  state.kind = kind;
  state.path = path;
  state.game = null;
  state.charts = null;
  show(kind);
}

function openTournament(path) {
  enter("tournament", path);
  $("tournament-title").textContent = "Tournament " + (path || (Source.exported ? Source.exported.title : "(this folder)"));
  pollTournament(path);
}

async function openParticipant(path, name) {
  enter("participant", path);
  $("participant-title").textContent = name;
  $("participant-status").textContent = "loading…";
  $("participant-body").replaceChildren();
  try {
    const [t, moves] = await Promise.all([Source.get("tournament", { path }), Source.get("participant", { path, name })]);
    if (state.kind !== "participant" || state.path !== path) return;
    $("participant-status").textContent = t.standings_error || "";
    $("participant-body").replaceChildren(TournamentPage.renderParticipant(t, moves, name));
  } catch (e) {
    $("participant-status").textContent = "Cannot show this participant: " + e.message;
  }
}

// ---- page ----------------------------------------------------------------------------------

function show(section) {
  for (const id of ["welcome", "game", "tournament", "participant"]) $(id).hidden = id !== section;
}

// #game=PATH, #tournament=PATH, #participant=PATH&name=NAME (each part URI-encoded).
function route() {
  const m = /^#(game|tournament|participant)=([^&]*)(?:&name=(.*))?$/.exec(location.hash);
  if (!m) {
    // A report opens on its tournament.
    if (Source.exported) return openTournament("");
    state.kind = null;
    return show("welcome");
  }
  const path = decodeURIComponent(m[2]);
  if (m[1] === "game") openGame(path);
  else if (m[1] === "participant") openParticipant(path, decodeURIComponent(m[3] || ""));
  else openTournament(path);
}

document.addEventListener("keydown", (e) => {
  if (state.kind !== "game" || !state.game || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const keys = { d: 1, D: 1, ArrowRight: 1, a: -1, A: -1, ArrowLeft: -1 };
  if (e.key in keys) setPly(state.ply + keys[e.key]);
  else if (e.key === "Home") setPly(0);
  else if (e.key === "End") setPly(lastPly());
  else if (e.key === " ") toggleAutoplay();
  else return;
  e.preventDefault();
});

$("first").addEventListener("click", () => setPly(0));
$("prev").addEventListener("click", () => setPly(state.ply - 1));
$("next").addEventListener("click", () => setPly(state.ply + 1));
$("last").addEventListener("click", () => setPly(lastPly()));
$("play").addEventListener("click", toggleAutoplay);
$("speed").addEventListener("change", () => { if (state.autoplay) { stopAutoplay(); toggleAutoplay(); } });
$("slider").addEventListener("input", (e) => setPly(Number(e.target.value)));
window.addEventListener("hashchange", route);

refreshList();
route();
