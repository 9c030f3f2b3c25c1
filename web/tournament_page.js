// A tournament's page and a participant's page, drawn from the tournament's results.json
// (docs/tournament.md) as /api/tournament gives it, and a participant's move times
// (/api/participant). Standings are shown as the terminal prints them.
"use strict";

const TournamentPage = (() => {
  const wdl = (w) => (w && typeof w === "object" ? `${w.wins}/${w.draws}/${w.losses}` : "");
  const signed = (v) => `${v >= 0 ? "+" : ""}${Math.round(v)}`;
  const number = (v) => (typeof v === "number" && isFinite(v) ? v : 0);
  const isObject = (v) => v && typeof v === "object" && !Array.isArray(v);
  const list = (v) => (Array.isArray(v) ? v.filter(isObject) : []);

  // Categories of a game's end that are not a player's fault (docs/tournament.md).
  const NOT_FAULTS = new Set(["win", "draw", "aborted"]);
  const REASONS = {
    timeout: "timeout", "illegal-move": "illegal move", crash: "crash", disconnect: "disconnect",
    "memory-limit": "memory limit", "too-many-processes": "too many processes",
  };
  const reasonText = (code) => REASONS[code] || code || "?";

  function part(id, title, ...content) {
    return h("div", { className: "part", id }, h("h3", { textContent: title }), ...content);
  }

  function table(className, head, rows) {
    const t = h("table", { className });
    t.append(h("tr", {}, ...head.map((c) => h("th", { textContent: c }))));
    for (const r of rows) t.append(h("tr", {}, ...r.map((c) => (c instanceof Node ? h("td", {}, c) : h("td", { textContent: String(c) })))));
    return t;
  }

  // The game of `white` against `black` in results.games (one per ordered pair in a double
  // round-robin).
  function gameIndex(results) {
    const byPair = new Map();
    for (const g of list(results.games)) byPair.set(`${g.white}\n${g.black}`, g);
    return (white, black) => byPair.get(`${white}\n${black}`);
  }

  // Progress of an event in progress: one bar, or one per shard when results.json lists them.
  function progress(results) {
    const played = number(results.games_played), total = number(results.games_total);
    const text = h("p", { className: "progress-text", textContent:
      results.complete ? `Complete: ${played} games.` : `In progress: ${played} of ${total} games played.` });
    if (results.complete) return text;
    const shards = list(results.shards);
    const rows = shards.length
      ? shards.map((s) => ({ label: `shard ${number(s.shard)} of ${number(s.of)}`, done: number(s.games_played), total: number(s.games_total) }))
      : [{ label: "games", done: played, total }];
    return h("div", { id: "progress" }, text, Charts.progress(rows));
  }

  function standings(results, folder) {
    const rows = list(results.standings).map((r) => [
      number(r.rank), h("a", { href: Links.participant(folder, String(r.name)), textContent: String(r.name) }),
      number(r.points), number(r.games), `${number(r.wins)}/${number(r.draws)}/${number(r.losses)}`,
      wdl(r.as_white), wdl(r.as_black), `${signed(number(r.rating))} ± ${Math.round(number(r.rating_error95))}`,
      number(r.fault_losses)]);
    const t = table("standings", ["#", "name", "points", "games", "W/D/L", "as White", "as Black", "rating ± 95%", "faults"], rows);
    t.id = "standings-table";
    return t;
  }

  function ratings(results, folder) {
    const rows = list(results.standings).map((r) => ({
      name: String(r.name), rating: number(r.rating), error: number(r.rating_error95), href: Links.participant(folder, String(r.name)) }));
    const note = isObject(results.ratings) && results.ratings.regularised
      ? "One virtual draw between every pair was added: someone won or lost everything." : "";
    return part("ratings-chart", "Ratings (Bradley-Terry, Elo scale, 95% intervals)", Charts.ratings(rows),
      note ? h("p", { className: "note", textContent: note }) : null);
  }

  // A result letter linking to its game, or "." for a game not played yet.
  function resultLink(letter, game, folder) {
    if (!game || !letter) return h("span", { className: "unplayed", textContent: "." });
    return h("a", { className: `result ${letter}`, href: Links.game(Links.inFolder(folder, String(game.record))),
      textContent: letter, title: `game ${game.game}: ${game.white} – ${game.black}, ${game.reason}` });
  }

  // Rows and columns in rank order; each cell the row's game with White, then with Black.
  function crosstable(results, folder) {
    const rows = list(results.standings), names = rows.map((r) => String(r.name));
    const ct = isObject(results.crosstable) ? results.crosstable : {};
    const order = Array.isArray(ct.participants) ? ct.participants.map(String) : [];
    const cells = Array.isArray(ct.cells) ? ct.cells : [];
    const cell = (a, b) => { const row = cells[order.indexOf(a)]; return Array.isArray(row) && isObject(row[order.indexOf(b)]) ? row[order.indexOf(b)] : null; };
    const game = gameIndex(results);
    const t = h("table", { className: "standings crosstable", id: "crosstable" });
    t.append(h("tr", {}, h("th", { textContent: "#" }), h("th", { textContent: "name" }), ...names.map((_, k) => h("th", { textContent: String(k + 1) }))));
    rows.forEach((r, i) => {
      const tr = h("tr", { }, h("td", { textContent: String(number(r.rank)) }), h("td", { textContent: names[i] }));
      names.forEach((other, j) => {
        if (i === j) return tr.append(h("td", { className: "self", textContent: "—" }));
        const c = cell(names[i], other) || {};
        const td = h("td", { className: "cell" }, resultLink(c.as_white, game(names[i], other), folder), resultLink(c.as_black, game(other, names[i]), folder));
        td.dataset.row = names[i];
        td.dataset.col = other;
        tr.append(td);
      });
      t.append(tr);
    });
    return part("crosstable-part", "Crosstable (the row's result with White, then with Black)", t);
  }

  function endings(results) {
    const ends = isObject(results.endings) ? results.endings : {};
    const rows = Object.entries(ends).filter(([, v]) => isObject(v)).map(([end, v]) => ({
      label: end, value: number(v.games), cls: NOT_FAULTS.has(end) ? "" : "fault",
      note: isObject(v.reasons) ? "(" + Object.entries(v.reasons).map(([k, n]) => `${k} ${number(n)}`).join(", ") + ")" : "" }));
    return part("endings-chart", "How the games ended", rows.length ? Charts.bars(rows) : h("p", { className: "none", textContent: "no games yet" }));
  }

  // Standings as another tool wrote them (standings.json): every list of objects as a table.
  function genericTables(s) {
    const box = h("div");
    const isRows = (v) => Array.isArray(v) && v.length && v.every(isObject);
    const generic = (rows) => {
      const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      return table("standings", keys, rows.map((r) => keys.map((k) => (r[k] === undefined ? "" : typeof r[k] === "object" ? JSON.stringify(r[k]) : String(r[k])))));
    };
    if (isRows(s)) box.append(generic(s));
    else if (isObject(s))
      for (const [k, v] of Object.entries(s)) {
        if (isRows(v)) box.append(h("h4", { textContent: k }), generic(v));
        else if (v === null || typeof v !== "object") box.append(h("div", { textContent: `${k}: ${v}` }));
      }
    if (!box.children.length) box.append(h("pre", { className: "json", textContent: JSON.stringify(s, null, 2) }));
    return box;
  }

  // The page of a tournament (the /api/tournament answer).
  function render(t) {
    const folder = t.path || "";
    const r = t.results;
    if (!isObject(r)) {
      if (t.standings) return genericTables(t.standings);
      return h("p", { className: "none", textContent: "no standings yet" });
    }
    return h("div", {}, progress(r), standings(r, folder), ratings(r, folder), crosstable(r, folder), endings(r));
  }

  // ---- one participant ---------------------------------------------------------------------

  function timeCharts(moves, gameOf) {
    const games = list(moves && moves.games);
    if (!games.length) return h("p", { className: "none", textContent: "no moves yet" });
    const limits = games.map((g) => g.limit).filter((l) => isObject(l) && l.ms > 0);
    const limit = limits.length ? limits.reduce((a, b) => (b.ms > a.ms ? b : a)) : null;
    const hlines = Charts.limitLines(limit);
    const seriesOf = (key) => games.map((g) => {
      const played = gameOf(g.path);
      return { name: played ? `game ${played.game} vs ${g.opponent}` : `${g.path}`, cls: `game ${g.side}`,
        points: (Array.isArray(g[key]) ? g[key] : []).map((v, i) => [i + 1, v]).filter(([, v]) => typeof v === "number") };
    });
    const all = games.flatMap((g) => (Array.isArray(g.time_ms) ? g.time_ms : [])).filter((v) => typeof v === "number");
    const over = limit && limit.clock === "wall" ? all.filter((v) => v > limit.ms).length : 0;
    const stats = all.length ? `${all.length} moves: mean ${Math.round(all.reduce((a, b) => a + b, 0) / all.length)} ms, ` +
      `longest ${Math.max(...all)} ms${limit && limit.clock === "wall" ? `, ${over} over the limit` : ""}.` : "";
    const box = h("div", {}, h("p", { textContent: stats }));
    const dots = all.length <= 400;
    box.append(Charts.lines({ cls: "time-chart", series: seriesOf("time_ms").map((s) => ({ ...s, dots })), hlines, xLabel: "its move number", yLabel: "ms", legend: false }));
    if (games.some((g) => Array.isArray(g.cpu_ms)))
      box.append(h("h4", { textContent: "CPU time per move" }),
        Charts.lines({ cls: "cpu-chart", series: seriesOf("cpu_ms").map((s) => ({ ...s, dots })), hlines, xLabel: "its move number", yLabel: "CPU ms", legend: false }));
    return box;
  }

  // The page of one participant: its row of the standings, its games, its results by opponent
  // and colour, its faults with their reasons, its time per move.
  function renderParticipant(t, moves, name) {
    const folder = t.path || "";
    const r = isObject(t.results) ? t.results : {};
    const row = list(r.standings).find((s) => s.name === name);
    const mine = list(r.games).filter((g) => g.white === name || g.black === name);
    const colourOf = (g) => (g.white === name ? "white" : "black");
    const letter = (g) => (g.winner === "draw" ? "D" : g.winner === colourOf(g) ? "W" : g.winner === "white" || g.winner === "black" ? "L" : "?");
    const byRecord = new Map(mine.map((g) => [Links.inFolder(folder, String(g.record)), g]));
    const gameLink = (g, text) => h("a", { href: Links.game(Links.inFolder(folder, String(g.record))), textContent: text });
    const box = h("div");

    box.append(h("p", { id: "participant-summary", textContent: row
      ? `Rank ${number(row.rank)} · ${number(row.points)} points in ${number(row.games)} games · W/D/L ${number(row.wins)}/${number(row.draws)}/${number(row.losses)} · ` +
        `rating ${signed(number(row.rating))} ± ${Math.round(number(row.rating_error95))} · ${number(row.fault_losses)} fault losses`
      : "Not in the standings (yet)." }),
      h("p", {}, h("a", { href: Links.tournament(folder), textContent: "← the tournament" })));

    const games = table("standings", ["game", "round", "colour", "opponent", "result", "how", "plies"], mine.map((g) => {
      const opp = colourOf(g) === "white" ? g.black : g.white;
      return [gameLink(g, `#${number(g.game)}`), number(g.round), colourOf(g) === "white" ? "White" : "Black",
        h("a", { href: Links.participant(folder, String(opp)), textContent: String(opp) }), letter(g),
        `${g.end === "win" || g.end === "draw" ? "" : g.end + ": "}${g.reason}${g.detail ? " — " + g.detail : ""}`, number(g.plies)];
    }));
    games.id = "participant-games";
    box.append(part("participant-games-part", "Games", mine.length ? games : h("p", { className: "none", textContent: "no games finished yet" })));

    const opponents = [...new Set(mine.map((g) => (colourOf(g) === "white" ? g.black : g.white)))];
    const points = isObject(r.points) ? r.points : { win: 3, draw: 1, loss: 0 };
    const score = { W: number(points.win), D: number(points.draw), L: number(points.loss) };
    const byOpp = table("standings", ["opponent", "with White", "with Black", "points"], opponents.map((o) => {
      const w = mine.find((g) => g.white === name && g.black === o), b = mine.find((g) => g.black === name && g.white === o);
      const cell = (g) => (g ? gameLink(g, letter(g)) : ".");
      return [h("a", { href: Links.participant(folder, String(o)), textContent: String(o) }), cell(w), cell(b),
        (w ? score[letter(w)] || 0 : 0) + (b ? score[letter(b)] || 0 : 0)];
    }));
    byOpp.id = "participant-opponents";
    box.append(part("participant-opponents-part", "Results by opponent and colour", byOpp));

    const faults = mine.filter((g) => letter(g) === "L" && !NOT_FAULTS.has(g.end));
    const faultList = h("ul", { id: "participant-faults" }, ...faults.map((g) => h("li", {},
      h("span", { className: "fault-reason", textContent: reasonText(g.reason) }), " ",
      gameLink(g, `game ${number(g.game)}`), ` with ${colourOf(g) === "white" ? "White" : "Black"} against ${colourOf(g) === "white" ? g.black : g.white}`,
      g.detail ? `: ${g.detail}` : "")));
    const counts = {};
    for (const g of faults) counts[reasonText(g.reason)] = (counts[reasonText(g.reason)] || 0) + 1;
    box.append(part("participant-faults-part", "Faults",
      h("p", { textContent: faults.length ? `${faults.length} games lost by a fault: ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(", ")}.` : "No games lost by a fault." }),
      faultList));

    box.append(part("participant-times", "Time per move", timeCharts(moves, (path) => byRecord.get(path))));
    return box;
  }

  return { render, renderParticipant };
})();
