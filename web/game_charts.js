// A game's charts under its board: each side's time per move against the limit (and the CPU
// time where the referee measured it), and, where arena's engine played in-process, its
// evaluation and search depth per move (the record's optional per-move fields, docs/records.md).
"use strict";

const GameCharts = (() => {
  // Engine scores at least this large are forced wins or losses (search/search.hpp: 1000000
  // less the plies to it); they are drawn at the edge of the chart.
  const DECIDED = 900000;

  const points = (rec, side, value) =>
    rec.moves.filter((m) => m.side === side && typeof value(m) === "number").map((m) => [m.ply, value(m)]);

  function timeChart(rec, onPly) {
    const series = [
      { name: "White", cls: "white", points: points(rec, "white", (m) => m.time_ms) },
      { name: "Black", cls: "black", points: points(rec, "black", (m) => m.time_ms) },
    ];
    if (rec.moves.some((m) => typeof m.cpu_ms === "number"))
      series.push(
        { name: "White CPU", cls: "white", dashed: true, points: points(rec, "white", (m) => m.cpu_ms) },
        { name: "Black CPU", cls: "black", dashed: true, points: points(rec, "black", (m) => m.cpu_ms) });
    return Charts.lines({ cls: "time-chart", series, hlines: Charts.limitLines(rec.limit), xLabel: "ply", yLabel: "ms", onPoint: onPly });
  }

  // The evaluation from White's side (each engine scores its own moves from its own side).
  function evalChart(rec, onPly) {
    const white = (m) => (typeof m.eval === "number" ? (m.side === "white" ? m.eval : -m.eval) : null);
    const plain = rec.moves.map(white).filter((e) => e !== null && Math.abs(e) < DECIDED);
    const cap = Math.max(100, ...plain.map(Math.abs)) * 1.2;
    const shown = (m) => { const e = white(m); return e === null ? null : Math.max(-cap, Math.min(cap, e)); };
    return Charts.lines({
      cls: "eval-chart", yFloor: -cap, xLabel: "ply", yLabel: "evaluation (White's side)", onPoint: onPly,
      hlines: [{ y: 0, label: "even" }],
      series: [
        { name: "White's engine", cls: "white", points: points(rec, "white", shown) },
        { name: "Black's engine", cls: "black", points: points(rec, "black", shown) },
      ].filter((s) => s.points.length),
    });
  }

  function depthChart(rec, onPly) {
    return Charts.lines({
      cls: "depth-chart", xLabel: "ply", yLabel: "search depth", onPoint: onPly,
      series: [
        { name: "White", cls: "white", points: points(rec, "white", (m) => m.depth) },
        { name: "Black", cls: "black", points: points(rec, "black", (m) => m.depth) },
      ].filter((s) => s.points.length),
    });
  }

  // The charts of a record (as /api/record gives it); mark(ply) moves their cursors.
  function draw(rec, onPly) {
    const box = h("div", { className: "charts" });
    const charts = [];
    const add = (title, chart) => {
      charts.push(chart);
      box.append(h("h3", { textContent: title }), chart);
    };
    if (!rec.moves.length) return { element: box, mark() {} };
    add("Time per move", timeChart(rec, onPly));
    if (rec.moves.some((m) => typeof m.eval === "number")) add("Engine evaluation", evalChart(rec, onPly));
    if (rec.moves.some((m) => typeof m.depth === "number")) add("Engine search depth", depthChart(rec, onPly));
    return { element: box, mark: (ply) => charts.forEach((c) => c.markX(ply > 0 ? ply : null)) };
  }

  return { draw };
})();
