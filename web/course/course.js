// The course server's page (docs/course.md): log in, hand in and follow the check live, the
// caller's versions and their games, challenges, the leaderboard and the final tournament's
// report, and for staff the roster, the deadline, the ladder, the final tournament and the event
// log. Everything comes from the JSON API (docs/course-api.md).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { me: null, selected: null, timer: null, tab: "handin", round: 0, names: new Map(), noFinal: false };
const TABS = ["handin", "challenges", "leaderboard", "staff"];

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

async function api(method, path, body) {
  const headers = {};
  if (state.me) headers["X-CSRF-Token"] = state.me.csrf;
  let payload = body;
  if (body && !(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const r = await fetch(path, { method, headers, body: payload, cache: "no-store", credentials: "same-origin" });
  let j = null;
  try { j = await r.json(); } catch (e) { /* not JSON: the status says enough */ }
  if (!r.ok) {
    const err = new Error((j && j.error) || `${r.status} ${r.statusText}`);
    err.status = r.status;
    throw err;
  }
  return j;
}

function say(id, text, ok) {
  $(id).textContent = text;
  $(id).className = "status " + (ok ? "ok" : "bad");
}

function show(ids) {
  for (const id of ["login-page", "password-page", "tabs", ...TABS])
    $(id).hidden = !ids.includes(id);
}

// The API's times are UTC ("2026-11-26T02:24:10Z"); the page says so in its headings.
const utc = (t) => (t ? t.replace("T", " ").replace("Z", "") : "");

// A hand-in by its owner where the page knows it ("alice #3"), else by number.
const versionName = (id) => state.names.get(id) || `#${id}`;
const learnNames = (list) => { for (const s of list) state.names.set(s.id, `${s.login} #${s.id}`); };
const learnBoard = (rows) => learnNames(rows.map((r) => ({ id: r.submission, login: r.login })));

// Replaces a table's rows unless they are drawn from the same data as last time: tables refreshed
// every few seconds then keep their buttons and the reader's text selection.
function fillRows(tableId, data, row, empty, extra) {
  const body = $(tableId).tBodies[0];
  const key = JSON.stringify([data, extra]);
  if (body.dataset.key === key) return;
  body.dataset.key = key;
  body.replaceChildren(...data.map(row));
  if (!data.length) body.append(el("tr", {}, el("td", { colSpan: $(tableId).tHead.rows[0].cells.length, className: "hint" }, empty)));
}

// ---- session ------------------------------------------------------------------------------

async function start() {
  try {
    state.me = await api("GET", "/api/me");
  } catch (e) {
    state.me = null;
  }
  render();
}

function render() {
  $("logout").hidden = !state.me;
  if (!state.me) {
    $("who").textContent = "";
    show(["login-page"]);
    $("login-name").focus();
    return;
  }
  const me = state.me;
  for (const f of document.querySelectorAll("input.csrf")) f.value = me.csrf;
  $("title").textContent = me.title || "arena course";
  $("subtitle").textContent = me.game;
  $("who").textContent = `${me.name} (${me.login}, ${me.role})`;
  if (me.must_change_password) return show(["password-page"]);
  $("staff-tab").hidden = me.role !== "staff";
  $("versions-title").textContent = me.role === "staff" ? "Every hand-in" : "Your versions";
  $("deadline").textContent = me.deadline ? `Hand-ins close at ${me.deadline} (UTC).` : "";
  route();
  refreshFinal().catch(() => { /* the tabs' own refresh tells a lost session */ });
}

$("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    state.me = await api("POST", "/api/login", { login: $("login-name").value, password: $("login-password").value });
    $("login-password").value = "";
    say("login-status", "", true);
    render();
  } catch (err) {
    say("login-status", err.message, false);
  }
});

$("password-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    state.me = await api("POST", "/api/password", { old: $("password-old").value, new: $("password-new").value });
    $("password-old").value = $("password-new").value = "";
    render();
  } catch (err) {
    say("password-status", err.message, false);
  }
});

$("logout").addEventListener("click", async () => {
  try { await api("POST", "/api/logout"); } catch (e) { /* the session is gone either way */ }
  // No tab polls on for the session that ended.
  clearTimeout(state.timer);
  state.round++;
  state.me = null;
  render();
});

// ---- tabs ---------------------------------------------------------------------------------

function route() {
  const tab = (location.hash || "#handin").slice(1).split("=")[0];
  state.tab = TABS.includes(tab) ? tab : "handin";
  if (state.tab === "staff" && state.me.role !== "staff") state.tab = "handin";
  show(["tabs", state.tab]);
  for (const a of document.querySelectorAll("nav a[data-tab]")) a.classList.toggle("active", a.dataset.tab === state.tab);
  refresh();
}
window.addEventListener("hashchange", () => state.me && !state.me.must_change_password && route());

// Each tab's refresh answers how soon to look again (ms): every second while a hand-in is being
// checked, every few seconds while challenges wait or on the Staff tab, else now and then.
const REFRESH = { handin: refreshSubmissions, challenges: refreshChallenges, leaderboard: refreshBoard, staff: refreshStaff };

async function refresh() {
  clearTimeout(state.timer);
  // A click may refresh while a timed refresh is under way: only the newest one goes on polling.
  const round = ++state.round;
  let wait = 10000;
  try {
    wait = (await REFRESH[state.tab]()) || 10000;
  } catch (err) {
    if (err.status === 401) { state.me = null; return render(); }
  }
  if (round === state.round) state.timer = setTimeout(refresh, wait);
}

// ---- hand-ins -----------------------------------------------------------------------------

const unfinished = (s) => !["accepted", "rejected"].includes(s.state);

async function refreshSubmissions() {
  const { submissions } = await api("GET", "/api/submissions");
  learnNames(submissions);
  const body = $("submissions").tBodies[0];
  body.replaceChildren();
  for (const s of submissions) {
    const tr = el("tr", { id: `submission-${s.id}` },
      el("td", {}, `#${s.id}`), el("td", {}, s.created.replace("T", " ").replace("Z", "")),
      el("td", {}, s.login), el("td", {}, s.file_name), el("td", { className: "hash" }, s.hash.slice(0, 12)),
      el("td", { className: `state state-${s.state}` }, s.state + (unfinished(s) && s.stage ? ` (${s.stage.split(":")[0]})` : "")),
      el("td", {}, s.reason), el("td", { className: "grade" }, s.grade && s.grade.points !== undefined ? `${s.grade.points}` : ""),
      el("td", {}, el("button", { className: "plain", textContent: "Details", onclick: () => select(s.id) })));
    if (state.selected === s.id) tr.classList.add("selected");
    body.append(tr);
  }
  if (!submissions.length) body.append(el("tr", {}, el("td", { colSpan: 9, className: "hint" }, "No hand-ins yet.")));
  if (state.selected !== null) await showDetail(state.selected);
  return submissions.some(unfinished) ? 1000 : 10000;
}

async function select(id) {
  state.selected = id;
  await refresh();
}

async function showDetail(id) {
  const s = await api("GET", `/api/submissions/${id}`);
  const { games, total } = await api("GET", `/api/games?submission=${id}&limit=${DETAIL_GAMES}`);
  $("detail").hidden = false;
  $("detail-title").textContent = `Hand-in #${s.id}: ${s.file_name} (${s.login})`;
  $("detail-reason").replaceChildren(el("span", { className: `state-${s.state}` }, s.state),
    s.reason ? `: ${s.reason}` : (s.stage ? ` — ${s.stage}` : ""));
  $("detail-stages").replaceChildren(...((s.verdict && s.verdict.stages) || []).map((st) =>
    el("li", { className: st.ok ? "stage-ok" : "stage-bad" }, `${st.stage}: ${st.detail}`)));
  showDetailGames(id, games, total);
  $("detail-log").textContent = s.build_log || "(empty)";
  $("detail-file").href = `/api/submissions/${id}/file`;
  $("detail-staff").hidden = state.me.role !== "staff";
  $("exclude").textContent = s.excluded ? "Include in the ladder again" : "Exclude from the ladder";
  $("exclude").onclick = () => staffAction(`/api/submissions/${id}/excluded`, { excluded: !s.excluded });
  $("recheck").onclick = () => staffAction(`/api/submissions/${id}/recheck`, {});
}

// A version plays on the ladder all term: its newest games only, newest first, with how many.
const DETAIL_GAMES = 50;

function showDetailGames(id, games, total = games.length) {
  const shown = games.slice(-DETAIL_GAMES).reverse();
  $("detail-games-count").textContent = total > shown.length
    ? `${total} games; the newest ${shown.length} are shown.` : `${total} game${total === 1 ? "" : "s"}.`;
  fillRows("detail-games", shown, (g) => detailGameRow(id, g), "none yet", id);
}

// A game in the viewer, its outcome for this version, and the version's own log of it.
function detailGameRow(id, g) {
  const side = g.white_submission === id ? "white" : "black";
  const outcome = g.result === "draw" ? "draw" : g.result === side ? "won" : g.result ? "lost" : "";
  // A ladder game played again (or of an excluded version) no longer counts.
  const kind = g.kind === "ladder" && !g.rated ? "ladder (not counted)" : g.kind;
  return el("tr", { id: `game-${g.id}` },
    el("td", {}, el("a", { href: `/view/#game=${g.id}`, textContent: `${g.white} – ${g.black}` })),
    el("td", {}, kind), el("td", { className: `outcome-${outcome}` }, outcome),
    el("td", {}, `${g.reason}, ${g.plies} plies`), el("td", {}, utc(g.created)),
    el("td", {}, el("a", { href: `/api/games/${g.id}/log/${side}`, textContent: "its log", target: "_blank" })));
}

// A staff POST, its outcome said in the status line `statusId`, then the page refreshed.
async function postAndRefresh(path, body, statusId) {
  try {
    await api("POST", path, body);
    say(statusId, "done", true);
  } catch (err) {
    say(statusId, err.message, false);
  }
  refresh();
}
const staffAction = (path, body) => postAndRefresh(path, body, "upload-status");
const rosterAction = (path, body) => postAndRefresh(path, body, "roster-status");

$("upload-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const file = $("upload-file").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("file", file, file.name);
  $("upload-button").disabled = true;
  say("upload-status", `uploading ${file.name} …`, true);
  try {
    const r = await api("POST", "/api/submissions", form);
    say("upload-status", `${file.name} is hand-in #${r.id}: queued for checking`, true);
    $("upload-file").value = "";
    state.selected = r.id;
  } catch (err) {
    say("upload-status", err.message, false);
  } finally {
    $("upload-button").disabled = false;
  }
  refresh();
});

// ---- challenges ---------------------------------------------------------------------------

const openJob = (j) => j.state === "queued" || j.state === "leased";

// A side of a job (a challenge's or the ladder's): a hand-in, or a built-in player.
const sideName = (j, side) => j[`${side}_name`] ||
  (j[`${side}_submission`] !== null ? versionName(j[`${side}_submission`]) : j[`${side}_agent`]);

// "leased" is the API's word: to the reader the game is being played, on that worker.
function jobState(j) {
  const text = j.state === "leased" ? `playing${j.worker ? ` on ${j.worker}` : ""}` : j.state;
  return el("td", { className: `state state-${j.state}` }, text + (j.attempts > 1 ? ` (attempt ${j.attempts})` : ""));
}

const gameLink = (j) => (j.game !== null
  ? el("a", { href: `/view/#game=${j.game}`, textContent: `game ${j.game}${j.result ? ` (${j.result}${j.reason ? `, ${j.reason}` : ""})` : ""}` })
  : "");

async function refreshChallenges() {
  // The leaderboard names a classmate's version that was challenged.
  const [{ submissions }, { challenges }, board] = await Promise.all([
    api("GET", "/api/submissions"), api("GET", "/api/challenges"), api("GET", "/api/leaderboard")]);
  learnBoard(board.rows);
  learnNames(submissions);
  fillVersions(submissions.filter((s) => s.state === "accepted"));
  fillRows("challenge-list", challenges, (c) => el("tr", { id: `challenge-${c.id}` },
    el("td", {}, c.id), el("td", {}, utc(c.created)), el("td", {}, sideName(c, "white")), el("td", {}, sideName(c, "black")),
    jobState(c), el("td", {}, gameLink(c)), el("td", {}, utc(c.finished))),
  "No challenges yet.", [...state.names]);
  return challenges.some(openJob) ? 3000 : 10000;
}

// The versions that may play (a student's own accepted hand-ins; staff: any), newest first; the
// choice made is kept across refreshes.
function fillVersions(accepted) {
  const select = $("challenge-version");
  const key = JSON.stringify(accepted.map((s) => s.id));
  if (select.dataset.key !== key) {
    const chosen = select.value;
    select.dataset.key = key;
    select.replaceChildren(...accepted.map((s) => el("option", { value: s.id, textContent: versionLabel(s) })));
    if (accepted.some((s) => String(s.id) === chosen)) select.value = chosen;
    state.accepted = accepted;
    fillOpponents();
  }
  $("challenge-button").disabled = !accepted.length;
  $("challenge-none").hidden = accepted.length > 0;
}

const versionLabel = (s) => `${state.me.role === "staff" ? `${s.login} ` : ""}#${s.id}, ${s.file_name} (${utc(s.created)})`;

// The engine's levels, the other versions, or a classmate by login (their current version).
function fillOpponents() {
  const select = $("challenge-opponent");
  const chosen = select.value;
  const mine = $("challenge-version").value;
  const options = [1, 2, 3, 4, 5].map((k) => el("option", { value: `engine level=${k}`, textContent: `engine level ${k}` }));
  for (const s of state.accepted || [])
    if (String(s.id) !== mine) options.push(el("option", { value: `version:${s.id}`, textContent: `${state.me.role === "staff" ? s.login : "your"} #${s.id}` }));
  options.push(el("option", { value: "login", textContent: "a classmate (by login) …" }));
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  showLoginField();
}

function showLoginField() {
  const byLogin = $("challenge-opponent").value === "login";
  $("challenge-login-label").hidden = !byLogin;
  $("challenge-login").required = byLogin;
}

$("challenge-version").addEventListener("change", fillOpponents);
$("challenge-opponent").addEventListener("change", showLoginField);

// The API's opponent: a hand-in id (a number), a login, or "engine level=K".
function challengeOpponent() {
  const v = $("challenge-opponent").value;
  if (v.startsWith("version:")) return Number(v.slice("version:".length));
  if (v === "login") return $("challenge-login").value.trim();
  return v;
}

$("challenge-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("challenge-button").disabled = true;
  try {
    const r = await api("POST", "/api/challenges", {
      submission: Number($("challenge-version").value), opponent: challengeOpponent(), games: Number($("challenge-games").value) });
    say("challenge-status", `${r.games} game${r.games === 1 ? "" : "s"} against ${r.opponent} queued.`, true);
  } catch (err) {
    say("challenge-status", err.message, false);
  } finally {
    $("challenge-button").disabled = false;
  }
  refresh();
});

// ---- leaderboard --------------------------------------------------------------------------

async function refreshBoard() {
  const [{ rows, paused }] = await Promise.all([api("GET", "/api/leaderboard"), refreshFinal()]);
  learnBoard(rows);
  $("board-paused").hidden = !paused;
  fillRows("board", rows, boardRow, "No accepted version yet.", state.me.login);
}

// A rating is provisional until its version has played enough games for it to settle.
function boardRow(r) {
  const classes = [r.login === state.me.login ? "mine" : "", r.settled ? "" : "provisional"];
  return el("tr", { className: classes.join(" ").trim() },
    el("td", {}, r.rank), el("td", {}, `${r.name} (${r.login})`),
    el("td", { className: "rating" }, r.rating === null ? "not rated yet" : `${r.rating} ± ${r.error}`),
    el("td", {}, r.games), el("td", {}, `#${r.submission}`),
    el("td", {}, r.settled || r.rating === null ? "" :
      el("span", { className: "tag", title: "too few games yet for the rating to settle" }, "provisional")));
}

// ---- staff --------------------------------------------------------------------------------

// The ladder's games are followed every few seconds while the Staff tab shows.
async function refreshStaff() {
  await Promise.all([refreshRoster(), refreshLadder(), refreshFinal()]);
  return 3000;
}

async function refreshRoster() {
  const [{ users }, { events }] = await Promise.all([api("GET", "/api/roster"), api("GET", "/api/events")]);
  fillRows("roster", users, (u) => el("tr", { id: `user-${u.login}` },
    el("td", {}, u.login), el("td", {}, u.name), el("td", {}, u.role),
    el("td", { className: "pw" }, u.has_password ? (u.must_change_password ? "one-time" : "set") : "none"),
    el("td", {}, u.disabled ? "disabled" : "active"),
    el("td", {},
      el("button", { className: "plain", textContent: "New password", onclick: () => resetPassword(u.login) }), " ",
      el("button", { className: "plain", textContent: u.disabled ? "Enable" : "Disable",
        onclick: () => rosterAction(`/api/roster/${encodeURIComponent(u.login)}/disabled`, { disabled: !u.disabled }) }))),
  "Nobody yet.");
  fillRows("events", events.slice(0, 100), (e) =>
    el("tr", {}, el("td", {}, e.at.replace("T", " ")), el("td", {}, e.actor), el("td", {}, e.action), el("td", {}, e.detail)),
  "Nothing yet.");
}


async function resetPassword(login) {
  try {
    const r = await api("POST", `/api/roster/${encodeURIComponent(login)}/password`, {});
    $("roster-status").replaceChildren(`One-time password for ${r.login}: `, el("span", { className: "password", textContent: r.password }),
      " (shown once; they choose their own at the first login)");
    $("roster-status").className = "status ok";
  } catch (err) {
    say("roster-status", err.message, false);
  }
}

$("roster-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  await rosterAction("/api/roster", { login: $("roster-login").value, name: $("roster-name").value, role: $("roster-role").value });
  $("roster-login").value = $("roster-name").value = "";
});

async function setDeadline(value) {
  try {
    const r = await api("POST", "/api/deadline", { deadline: value });
    state.me.deadline = r.deadline;
    say("deadline-status", r.deadline ? `Hand-ins close at ${r.deadline} (UTC).` : "No deadline.", true);
    $("deadline").textContent = r.deadline ? `Hand-ins close at ${r.deadline} (UTC).` : "";
  } catch (err) {
    say("deadline-status", err.message, false);
  }
}
$("deadline-form").addEventListener("submit", (e) => { e.preventDefault(); setDeadline($("deadline-input").value); });
$("deadline-clear").addEventListener("click", () => setDeadline(""));

// ---- staff: the ladder --------------------------------------------------------------------

async function refreshLadder() {
  // The versions' owners, to name the jobs' sides (the leaderboard has every current version).
  const [ladder, board] = await Promise.all([api("GET", "/api/ladder"), api("GET", "/api/leaderboard")]);
  learnBoard(board.rows);
  showLadder(ladder);
}

const QUEUED_SHOWN = 50;

function showLadder(l) {
  state.ladderPaused = l.paused;
  $("ladder-state").textContent = l.paused ? "paused" : "running";
  $("ladder-state").className = l.paused ? "ladder-paused" : "ladder-running";
  $("ladder-pause").textContent = l.paused ? "Resume" : "Pause";
  const names = [...state.names];
  fillRows("ladder-workers", l.workers, (w) => el("tr", {},
    el("td", {}, w.name), el("td", {}, w.address), el("td", {}, utc(w.last_seen)), el("td", {}, w.games), el("td", {}, utc(w.created))),
  "No worker has asked for a game yet.");
  fillRows("ladder-playing", l.playing, (j) => el("tr", { id: `job-${j.id}` },
    el("td", {}, j.id), el("td", {}, j.kind), el("td", {}, sideName(j, "white")), el("td", {}, sideName(j, "black")),
    el("td", {}, j.worker), el("td", {}, leaseEnd(j)), el("td", {}, j.attempts)),
  "No game is being played.", names);
  $("ladder-queued-count").textContent = l.queued.length > QUEUED_SHOWN
    ? `${l.queued.length} games (the first ${QUEUED_SHOWN} shown)` : `${l.queued.length} game${l.queued.length === 1 ? "" : "s"}`;
  fillRows("ladder-queued", l.queued.slice(0, QUEUED_SHOWN), (j) => el("tr", { id: `job-${j.id}` },
    el("td", {}, j.id), el("td", {}, j.kind), el("td", {}, sideName(j, "white")), el("td", {}, sideName(j, "black")),
    el("td", {}, j.attempts), el("td", {}, utc(j.created))),
  "Nothing is waiting.", names);
  fillRows("ladder-finished", l.finished, (j) => el("tr", { id: `job-${j.id}` },
    el("td", {}, j.id), el("td", {}, j.kind), el("td", {}, sideName(j, "white")), el("td", {}, sideName(j, "black")),
    jobState(j), el("td", {}, j.worker), el("td", {}, utc(j.finished)), el("td", {}, gameLink(j))),
  "No game has finished yet.", names);
}

// The lease's end: seconds since the epoch in the API.
const leaseEnd = (j) => (j.lease_expires ? utc(new Date(j.lease_expires * 1000).toISOString().replace(/\.\d+Z$/, "Z")) : "");

$("ladder-pause").addEventListener("click", async () => {
  try {
    showLadder(await api("POST", "/api/ladder", { paused: !state.ladderPaused }));
    say("ladder-status", state.ladderPaused ? "Paused: no new games are handed out." : "Running again.", true);
  } catch (err) {
    say("ladder-status", err.message, false);
  }
});

// Either bound of the span may be left out; a datetime-local's value is taken as UTC.
$("rerun-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = {};
  if ($("rerun-submission").value) body.submission = Number($("rerun-submission").value);
  if ($("rerun-from").value) body.from = `${$("rerun-from").value}Z`;
  if ($("rerun-to").value) body.to = `${$("rerun-to").value}Z`;
  if (!Object.keys(body).length) return say("rerun-status", "Give a hand-in or a time span.", false);
  try {
    const r = await api("POST", "/api/ladder/rerun", body);
    say("rerun-status", `${r.games} ladder game${r.games === 1 ? "" : "s"} no longer count${r.games === 1 ? "s" : ""} and will be played again.`, true);
  } catch (err) {
    say("rerun-status", err.message, false);
  }
  refresh();
});

// ---- the final tournament -----------------------------------------------------------------

// Everyone sees the report once it is done; staff start it and follow it. A server without the
// final (404) shows none of it.
async function refreshFinal() {
  if (state.noFinal) return showFinal(null);
  let f;
  try {
    f = await api("GET", "/api/final");
  } catch (err) {
    if (err.status !== 404) throw err;
    state.noFinal = true;
    f = null;
  }
  showFinal(f);
}

function showFinal(f) {
  const done = !!f && f.state === "done";
  $("final-link").hidden = $("final-results").hidden = !done;
  if (done) {
    $("final-link").href = $("final-report").href = $("final-staff-report").href = f.report;
    $("final-download").href = $("final-staff-download").href = f.download;
  }
  $("final-staff").hidden = !f || state.me.role !== "staff";
  if (f && state.me.role === "staff") showFinalStaff(f);
}

// What the final is at, in a sentence.
function finalSentence(f) {
  const cutoff = `hand-ins up to ${utc(f.cutoff)} (UTC)`;
  if (f.state === "none") return "Not started.";
  if (f.state === "running") return `Running: ${cutoff}; the ladder ${f.ladder === "continue" ? "plays on" : "pauses"} meanwhile.`;
  if (f.state === "done") return `Done: ${cutoff}.`;
  if (f.state === "failed") return `Failed: ${f.error || "no reason given"} (${cutoff}).`;
  return f.state;
}

function showFinalStaff(f) {
  const running = f.state === "running";
  $("final-state").textContent = finalSentence(f);
  $("final-state").className = f.state === "failed" ? "status bad" : "";
  $("final-progress-line").hidden = f.state === "none" || !f.total;
  $("final-progress").max = f.total || 1;
  $("final-progress").value = f.played || 0;
  $("final-played").textContent = `${f.played || 0}/${f.total || 0} games played`;
  $("final-links").hidden = f.state !== "done";
  const who = f.participants || [];
  $("final-participants").textContent = who.length
    ? `${who.length} participant${who.length === 1 ? "" : "s"}: ${who.map((p) => `${p.login} #${p.submission}`).join(", ")}` : "";
  $("final-start").disabled = running;
  // The course's deadline is the likely cut-off.
  if (!$("final-cutoff").value && state.me.deadline) $("final-cutoff").value = state.me.deadline.slice(0, 16);
}

$("final-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    showFinal(await api("POST", "/api/final", { cutoff: `${$("final-cutoff").value}Z`, ladder: $("final-ladder").value }));
    say("final-status", "Started.", true);
  } catch (err) {
    say("final-status", err.message, false);
  }
});

start();
