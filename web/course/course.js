// The course server's page (docs/course.md): log in, hand in and follow the check live, the
// caller's versions and their games, the leaderboard, and for staff the roster, the deadline and
// the event log. Everything comes from the JSON API (docs/course-api.md).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { me: null, selected: null, timer: null, tab: "handin" };

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
  for (const id of ["login-page", "password-page", "tabs", "handin", "leaderboard", "staff"])
    $(id).hidden = !ids.includes(id);
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
  state.me = null;
  render();
});

// ---- tabs ---------------------------------------------------------------------------------

function route() {
  const tab = (location.hash || "#handin").slice(1).split("=")[0];
  state.tab = ["handin", "leaderboard", "staff"].includes(tab) ? tab : "handin";
  if (state.tab === "staff" && state.me.role !== "staff") state.tab = "handin";
  show(["tabs", state.tab]);
  for (const a of document.querySelectorAll("nav a[data-tab]")) a.classList.toggle("active", a.dataset.tab === state.tab);
  refresh();
}
window.addEventListener("hashchange", () => state.me && !state.me.must_change_password && route());

async function refresh() {
  clearTimeout(state.timer);
  let again = false;
  try {
    if (state.tab === "handin") again = await refreshSubmissions();
    else if (state.tab === "leaderboard") await refreshBoard();
    else if (state.tab === "staff") await refreshStaff();
  } catch (err) {
    if (err.status === 401) { state.me = null; return render(); }
  }
  // While a hand-in is being checked its state is followed every second; else now and then.
  state.timer = setTimeout(refresh, again ? 1000 : 10000);
}

// ---- hand-ins -----------------------------------------------------------------------------

const unfinished = (s) => !["accepted", "rejected"].includes(s.state);

async function refreshSubmissions() {
  const { submissions } = await api("GET", "/api/submissions");
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
  return submissions.some(unfinished);
}

async function select(id) {
  state.selected = id;
  await refresh();
}

async function showDetail(id) {
  const s = await api("GET", `/api/submissions/${id}`);
  const { games } = await api("GET", `/api/games?submission=${id}`);
  $("detail").hidden = false;
  $("detail-title").textContent = `Hand-in #${s.id}: ${s.file_name} (${s.login})`;
  $("detail-reason").replaceChildren(el("span", { className: `state-${s.state}` }, s.state),
    s.reason ? `: ${s.reason}` : (s.stage ? ` — ${s.stage}` : ""));
  $("detail-stages").replaceChildren(...((s.verdict && s.verdict.stages) || []).map((st) =>
    el("li", { className: st.ok ? "stage-ok" : "stage-bad" }, `${st.stage}: ${st.detail}`)));
  // Each game in the viewer, and this hand-in's own log of it.
  $("detail-games").replaceChildren(...games.map((g) => {
    const side = g.white_submission === id ? "white" : "black";
    return el("li", {}, el("a", { href: `/view/#game=${g.id}`, textContent: `${g.white} – ${g.black}` }),
      ` ${g.kind}, ${g.result} (${g.reason}), ${g.plies} plies · `,
      el("a", { href: `/api/games/${g.id}/log/${side}`, textContent: "its log", target: "_blank" }));
  }));
  if (!games.length) $("detail-games").append(el("li", { className: "hint" }, "none yet"));
  $("detail-log").textContent = s.build_log || "(empty)";
  $("detail-file").href = `/api/submissions/${id}/file`;
  $("detail-staff").hidden = state.me.role !== "staff";
  $("exclude").textContent = s.excluded ? "Include in the ladder again" : "Exclude from the ladder";
  $("exclude").onclick = () => staffAction(`/api/submissions/${id}/excluded`, { excluded: !s.excluded });
  $("recheck").onclick = () => staffAction(`/api/submissions/${id}/recheck`, {});
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

// ---- leaderboard --------------------------------------------------------------------------

async function refreshBoard() {
  const { rows } = await api("GET", "/api/leaderboard");
  const body = $("board").tBodies[0];
  body.replaceChildren(...rows.map((r) => el("tr", { className: r.login === state.me.login ? "mine" : "" },
    el("td", {}, r.rank), el("td", {}, `${r.name} (${r.login})`),
    el("td", {}, r.rating === null ? "not rated yet" : `${Math.round(r.rating)} ± ${Math.round(r.error)}`),
    el("td", {}, r.games), el("td", {}, `#${r.submission}`))));
  if (!rows.length) body.append(el("tr", {}, el("td", { colSpan: 5, className: "hint" }, "No accepted version yet.")));
}

// ---- staff --------------------------------------------------------------------------------

async function refreshStaff() {
  const [{ users }, { events }] = await Promise.all([api("GET", "/api/roster"), api("GET", "/api/events")]);
  const body = $("roster").tBodies[0];
  body.replaceChildren(...users.map((u) => el("tr", { id: `user-${u.login}` },
    el("td", {}, u.login), el("td", {}, u.name), el("td", {}, u.role),
    el("td", { className: "pw" }, u.has_password ? (u.must_change_password ? "one-time" : "set") : "none"),
    el("td", {}, u.disabled ? "disabled" : "active"),
    el("td", {},
      el("button", { className: "plain", textContent: "New password", onclick: () => resetPassword(u.login) }), " ",
      el("button", { className: "plain", textContent: u.disabled ? "Enable" : "Disable",
        onclick: () => rosterAction(`/api/roster/${encodeURIComponent(u.login)}/disabled`, { disabled: !u.disabled }) })))));
  $("events").tBodies[0].replaceChildren(...events.slice(0, 100).map((e) =>
    el("tr", {}, el("td", {}, e.at.replace("T", " ")), el("td", {}, e.actor), el("td", {}, e.action), el("td", {}, e.detail))));
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

start();
