// Draws a position's view (docs/viewer.md) as SVG, one function per "kind". The C++ side of each
// game describes positions; nothing here knows a game's rules.
"use strict";

const Boards = (() => {
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (parent) parent.appendChild(e);
    return e;
  }

  function text(parent, x, y, s, cls) {
    const t = el("text", { x, y, class: cls || "label", "text-anchor": "middle", "dominant-baseline": "central" }, parent);
    t.textContent = s;
    return t;
  }

  function svg(width, height) {
    return el("svg", { xmlns: NS, viewBox: `0 0 ${width} ${height}`, width, height, role: "img" });
  }

  const sideOf = (piece) => (piece === "W" ? "white" : "black");

  // A stack of stones drawn as discs shifted upwards (a Murus tower is two); more than two also
  // get their count.
  function stack(parent, cx, cy, r, pieces) {
    const n = pieces.length;
    const shift = Math.min(6, r / 3);
    for (let i = 0; i < n; i++) {
      el("circle", { cx, cy: cy + (n - 1) * shift / 2 - i * shift, r, class: `stone ${sideOf(pieces[i])}` }, parent);
    }
    if (n > 2) text(parent, cx, cy - (n - 1) * shift / 2, String(n), `stack-count ${sideOf(pieces[n - 1])}`);
  }

  // kind "grid": rows x cols cells, each a string of stones bottom to top ("", "W", "BB").
  function grid(view, prev) {
    const rows = view.rows, cols = view.cols, size = 48, margin = 26;
    const root = svg(cols * size + 2 * margin, rows * size + 2 * margin);
    root.classList.add("board-grid");
    el("rect", { x: margin, y: margin, width: cols * size, height: rows * size, class: "board-bg" }, root);
    const before = prev && prev.kind === "grid" && prev.cells && prev.cells.length === view.cells.length ? prev.cells : null;
    const rowLabel = (r) => (view.rowLabels && view.rowLabels[r]) || String(r + 1);
    const colLabel = (c) => (view.colLabels && view.colLabels[c]) || String(c + 1);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c, x = margin + c * size, y = margin + r * size;
        const cell = view.cells[i] || "";
        const g = el("g", { "data-cell": rowLabel(r) + colLabel(c), "data-stack": cell }, root);
        const changed = before && before[i] !== cell;
        el("rect", { x, y, width: size, height: size, class: changed ? "cell changed" : "cell" }, g);
        if (cell) stack(g, x + size / 2, y + size / 2, size * 0.36, cell);
      }
    }
    for (let r = 0; r <= rows; r++)
      el("line", { x1: margin, y1: margin + r * size, x2: margin + cols * size, y2: margin + r * size, class: "grid-line" }, root);
    for (let c = 0; c <= cols; c++)
      el("line", { x1: margin + c * size, y1: margin, x2: margin + c * size, y2: margin + rows * size, class: "grid-line" }, root);
    for (let r = 0; r < rows; r++) {
      text(root, margin / 2, margin + r * size + size / 2, rowLabel(r));
      text(root, margin + cols * size + margin / 2, margin + r * size + size / 2, rowLabel(r));
    }
    for (let c = 0; c < cols; c++) {
      text(root, margin + c * size + size / 2, margin / 2, colLabel(c));
      text(root, margin + c * size + size / 2, margin + rows * size + margin / 2, colLabel(c));
    }
    return root;
  }

  // kind "morris": the 24 points a1..g7 (column letter, row number, a1 bottom left).
  const MORRIS_POINTS = ["a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3",
    "d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"];
  const MORRIS_LINES = [[0, 0, 6, 0], [6, 0, 6, 6], [6, 6, 0, 6], [0, 6, 0, 0], [1, 1, 5, 1], [5, 1, 5, 5],
    [5, 5, 1, 5], [1, 5, 1, 1], [2, 2, 4, 2], [4, 2, 4, 4], [4, 4, 2, 4], [2, 4, 2, 2],
    [3, 0, 3, 2], [3, 4, 3, 6], [0, 3, 2, 3], [4, 3, 6, 3]];

  function morris(view, prev) {
    const step = 60, margin = 40, hand = 70;
    const root = svg(6 * step + 2 * margin + hand, 6 * step + 2 * margin);
    root.classList.add("board-morris");
    el("rect", { x: 0, y: 0, width: 6 * step + 2 * margin, height: 6 * step + 2 * margin, class: "board-bg" }, root);
    const X = (col) => margin + col * step, Y = (row) => margin + (6 - row) * step;
    for (const [x1, y1, x2, y2] of MORRIS_LINES)
      el("line", { x1: X(x1), y1: Y(y1), x2: X(x2), y2: Y(y2), class: "morris-line" }, root);
    const points = view.points || {}, before = prev && prev.kind === "morris" ? prev.points || {} : null;
    for (const name of MORRIS_POINTS) {
      const col = name.charCodeAt(0) - 97, row = Number(name[1]) - 1;
      const piece = points[name] || "";
      const changed = before && (before[name] || "") !== piece;
      const g = el("g", { "data-point": name, "data-piece": piece, class: changed ? "point changed" : "point" }, root);
      el("circle", { cx: X(col), cy: Y(row), r: 25, class: "ring" }, g);
      el("circle", { cx: X(col), cy: Y(row), r: 6, class: "morris-point" }, g);
      if (piece) stack(g, X(col), Y(row), 18, piece);
    }
    for (let i = 0; i < 7; i++) {
      text(root, X(i), 6 * step + margin + 24, String.fromCharCode(97 + i));
      text(root, margin - 26, Y(i), String(i + 1));
    }
    // Pieces still in hand, in two columns beside the board.
    const inHand = view.inHand || {};
    const hx = 6 * step + 2 * margin + 10;
    ["white", "black"].forEach((side, k) => {
      const n = Math.max(0, Math.min(12, inHand[side] || 0));
      for (let i = 0; i < n; i++)
        el("circle", { cx: hx + 15 + k * 30, cy: margin + i * 28, r: 11, class: `stone ${side} in-hand` }, root);
    });
    return root;
  }

  // kind "soccer": lattice points x in [xMin, xMax], y in [yMin, yMax] (+y is north, drawn up),
  // goals of |x| <= goalWidth one step beyond each end line; "turns" is the ball's whole path.
  function soccer(view) {
    const xMin = view.xMin ?? -4, xMax = view.xMax ?? 4, yMin = view.yMin ?? -5, yMax = view.yMax ?? 5;
    const gw = view.goalWidth ?? 1, step = 40, margin = 30;
    const top = yMax + 1, bottom = yMin - 1;
    const root = svg((xMax - xMin) * step + 2 * margin, (top - bottom) * step + 2 * margin);
    root.classList.add("board-soccer");
    const X = (x) => margin + (x - xMin) * step, Y = (y) => margin + (top - y) * step;
    el("rect", { x: 0, y: 0, width: (xMax - xMin) * step + 2 * margin, height: (top - bottom) * step + 2 * margin, class: "field" }, root);
    for (let y = yMin; y <= yMax; y++)
      for (let x = xMin; x <= xMax; x++) el("circle", { cx: X(x), cy: Y(y), r: 2.5, class: "lattice" }, root);
    for (let x = -gw; x <= gw; x++) {
      el("circle", { cx: X(x), cy: Y(top), r: 2.5, class: "lattice" }, root);
      el("circle", { cx: X(x), cy: Y(bottom), r: 2.5, class: "lattice" }, root);
    }
    const border = [[-gw, yMax], [xMin, yMax], [xMin, yMin], [-gw, yMin], [-gw, bottom], [gw, bottom], [gw, yMin],
      [xMax, yMin], [xMax, yMax], [gw, yMax], [gw, top], [-gw, top], [-gw, yMax]];
    el("polyline", { points: border.map(([x, y]) => `${X(x)},${Y(y)}`).join(" "), class: "field-line" }, root);
    if (view.attacks) {
      const north = Object.keys(view.attacks).find((s) => view.attacks[s] === "north");
      const south = Object.keys(view.attacks).find((s) => view.attacks[s] === "south");
      if (north) text(root, X(xMin) + 40, Y(top) - 4, `${north} attacks ↑`, "goal-label");
      if (south) text(root, X(xMin) + 40, Y(bottom) + 4, `${south} attacks ↓`, "goal-label");
    }
    const turns = Array.isArray(view.turns) ? view.turns : [];
    turns.forEach((turn, i) => {
      const pts = (turn.points || []).map(([x, y]) => `${X(x)},${Y(y)}`).join(" ");
      const last = i === turns.length - 1;
      el("polyline", { points: pts, class: `path ${turn.side === "white" ? "white" : "black"}${last ? " last" : ""}`, "data-turn": i }, root);
    });
    if (Array.isArray(view.ball)) {
      const b = el("circle", { cx: X(view.ball[0]), cy: Y(view.ball[1]), r: 8, class: "ball" }, root);
      b.setAttribute("data-ball", view.ball.join(","));
    }
    return root;
  }

  // kind "text" (a game without a view function yet): its render() as it is.
  function textBoard(view) {
    const pre = document.createElement("pre");
    pre.className = "text-board";
    pre.textContent = view.text || "";
    return pre;
  }

  const kinds = { grid, morris, soccer, text: textBoard };

  function draw(view, prev) {
    const f = view && kinds[view.kind];
    if (!f) {
      const pre = document.createElement("pre");
      pre.className = "json";
      pre.textContent = "No drawing for this position:\n" + JSON.stringify(view, null, 1);
      return pre;
    }
    return f(view, prev);
  }

  return { draw, kinds };
})();
