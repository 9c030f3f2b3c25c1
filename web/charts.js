// Charts drawn by hand as SVG (nothing fetched, no library): lines of points against a limit,
// ratings with their error bars, horizontal bars, progress bars.
"use strict";

const Charts = (() => {
  const fmt = (v) => (Math.abs(v) >= 10000 ? `${Math.round(v / 1000)}k` : String(Math.round(v * 100) / 100));

  // About `count` round tick values (1, 2 or 5 times a power of ten) covering [lo, hi].
  function ticks(lo, hi, count) {
    if (!(hi > lo)) return [lo];
    const raw = (hi - lo) / count, p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
    return out;
  }

  function frame(width, height, cls) {
    return svgEl("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: `chart ${cls}`, role: "img" });
  }

  function label(parent, x, y, text, cls, anchor) {
    const t = svgEl("text", { x, y, class: cls || "axis-label", "text-anchor": anchor || "middle" }, parent);
    t.textContent = text;
    return t;
  }

  // Series of [x, y] points on shared axes, with horizontal reference lines (a time limit).
  // opts: {series: [{name, cls, points: [[x, y], ...], dashed, dots}], hlines: [{y, label}],
  //        xLabel, yLabel, yFloor (the lowest y shown, default 0), onPoint(x)}
  // The element gets markX(x): a vertical cursor at x (the ply shown).
  function lines(opts) {
    const W = 640, H = 236, left = 56, right = 12, top = 30, bottom = 34;
    const root = frame(W, H, opts.cls || "lines");
    const pts = opts.series.flatMap((s) => s.points);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]).concat((opts.hlines || []).map((l) => l.y));
    const x0 = Math.min(1, ...xs), x1 = Math.max(x0 + 1, ...xs);
    const y0 = Math.min(opts.yFloor ?? 0, ...ys), yTop = Math.max(y0 + 1, ...ys), y1 = yTop + (yTop - y0) * 0.05;
    const X = (x) => left + ((x - x0) / (x1 - x0)) * (W - left - right);
    const Y = (y) => top + (1 - (y - y0) / (y1 - y0)) * (H - top - bottom);
    for (const t of ticks(y0, y1, 4)) {
      svgEl("line", { x1: left, x2: W - right, y1: Y(t), y2: Y(t), class: "grid" }, root);
      label(root, left - 6, Y(t) + 4, fmt(t), "tick", "end");
    }
    for (const t of ticks(x0, x1, 8).filter((t) => Number.isInteger(t)))
      label(root, X(t), H - bottom + 16, String(t), "tick");
    svgEl("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }, root);
    svgEl("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "axis" }, root);
    if (opts.xLabel) label(root, (left + W - right) / 2, H - 4, opts.xLabel);
    if (opts.yLabel) label(root, 4, 14, opts.yLabel, "axis-label", "start");
    for (const l of opts.hlines || []) {
      svgEl("line", { x1: left, x2: W - right, y1: Y(l.y), y2: Y(l.y), class: "limit" }, root);
      label(root, W - right - 4, Y(l.y) - 4, l.label, "limit-label", "end");
    }
    const cursor = svgEl("line", { x1: 0, x2: 0, y1: top, y2: H - bottom, class: "cursor", visibility: "hidden" }, root);
    for (const s of opts.series) {
      const g = svgEl("g", { class: `series ${s.cls || ""}`, "data-series": s.name }, root);
      if (s.points.length > 1)
        svgEl("polyline", { points: s.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(" "), class: s.dashed ? "dashed" : "" }, g);
      if (s.dots !== false)
        for (const [x, y] of s.points) {
          const c = svgEl("circle", { cx: X(x), cy: Y(y), r: 3, "data-x": x, "data-y": y }, g);
          const tip = svgEl("title", {}, c);
          tip.textContent = `${s.name}: ${fmt(y)} at ${x}`;
          if (opts.onPoint) c.addEventListener("click", () => opts.onPoint(x));
        }
    }
    // The legend on the top line, right of the y axis' label.
    if (opts.series.length && opts.legend !== false) {
      let lx = Math.max(left + 40, 14 + (opts.yLabel || "").length * 6.5);
      for (const s of opts.series) {
        const g = svgEl("g", { class: `legend series ${s.cls || ""}` }, root);
        svgEl("line", { x1: lx, x2: lx + 16, y1: 10, y2: 10, class: s.dashed ? "dashed" : "" }, g);
        lx += 20 + label(g, lx + 20, 14, s.name, "legend-label", "start").textContent.length * 6.5 + 8;
      }
    }
    root.markX = (x) => {
      const on = x !== null && x >= x0 && x <= x1;
      cursor.setAttribute("visibility", on ? "visible" : "hidden");
      if (on) {
        cursor.setAttribute("x1", X(x));
        cursor.setAttribute("x2", X(x));
      }
    };
    return root;
  }

  // One row per participant: its rating as a dot, its 95% interval as a bar; zero marked.
  // rows: [{name, rating, error, href}]
  function ratings(rows) {
    const W = 640, rowH = 26, left = 150, right = 90, top = 10;
    const H = top + rows.length * rowH + 28;
    const root = frame(W, H, "ratings");
    const lo = Math.min(0, ...rows.map((r) => r.rating - r.error)), hi = Math.max(0, ...rows.map((r) => r.rating + r.error));
    const span = hi > lo ? hi - lo : 1;
    const X = (v) => left + ((v - lo) / span) * (W - left - right);
    for (const t of ticks(lo, hi, 6)) {
      svgEl("line", { x1: X(t), x2: X(t), y1: top, y2: H - 24, class: t === 0 ? "axis" : "grid" }, root);
      label(root, X(t), H - 8, (t > 0 ? "+" : "") + fmt(t), "tick");
    }
    rows.forEach((r, i) => {
      const y = top + i * rowH + rowH / 2;
      const g = svgEl("g", { class: "rating-bar", "data-name": r.name, "data-rating": r.rating, "data-error": r.error }, root);
      const a = svgEl("a", { href: r.href }, g);
      label(a, left - 8, y + 4, r.name, "row-label", "end");
      svgEl("line", { x1: X(r.rating - r.error), x2: X(r.rating + r.error), y1: y, y2: y, class: "error-bar" }, g);
      for (const end of [r.rating - r.error, r.rating + r.error])
        svgEl("line", { x1: X(end), x2: X(end), y1: y - 5, y2: y + 5, class: "error-bar" }, g);
      svgEl("circle", { cx: X(r.rating), cy: y, r: 5, class: "rating-dot" }, g);
      label(g, W - right + 8, y + 4, `${r.rating >= 0 ? "+" : ""}${Math.round(r.rating)} ± ${Math.round(r.error)}`, "value-label", "start");
    });
    return root;
  }

  // Horizontal bars: rows [{label, value, note, cls}], lengths proportional to value.
  function bars(rows) {
    const W = 640, rowH = 24, left = 120, right = 12;
    const root = frame(W, rows.length * rowH + 8, "bars");
    const max = Math.max(1, ...rows.map((r) => r.value));
    rows.forEach((r, i) => {
      const y = 4 + i * rowH;
      const g = svgEl("g", { class: `bar ${r.cls || ""}`, "data-label": r.label, "data-value": r.value }, root);
      label(g, left - 8, y + rowH / 2 + 4, r.label, "row-label", "end");
      const w = Math.max(2, (r.value / max) * (W - left - right) * 0.6);
      svgEl("rect", { x: left, y: y + 3, width: w, height: rowH - 6, class: "bar-fill" }, g);
      label(g, left + w + 6, y + rowH / 2 + 4, `${r.value}${r.note ? "  " + r.note : ""}`, "value-label", "start");
    });
    return root;
  }

  // Progress bars: rows [{label, done, total}].
  function progress(rows) {
    const W = 640, rowH = 26, left = 120, right = 110;
    const root = frame(W, rows.length * rowH + 4, "progress");
    rows.forEach((r, i) => {
      const y = 2 + i * rowH, w = W - left - right;
      const g = svgEl("g", { class: "progress-bar", "data-done": r.done, "data-total": r.total }, root);
      label(g, left - 8, y + rowH / 2 + 4, r.label, "row-label", "end");
      svgEl("rect", { x: left, y: y + 4, width: w, height: rowH - 8, class: "progress-track" }, g);
      const f = r.total > 0 ? Math.min(1, Math.max(0, r.done / r.total)) : 0;
      svgEl("rect", { x: left, y: y + 4, width: w * f, height: rowH - 8, class: "progress-fill" }, g);
      label(g, W - right + 8, y + rowH / 2 + 4, `${r.done} / ${r.total} games`, "value-label", "start");
    });
    return root;
  }

  // The reference line of a time limit as /api/record and /api/participant give it
  // ({ms, clock: "wall" | "cpu"}); none without one.
  function limitLines(limit) {
    if (!limit || !(limit.ms > 0)) return [];
    return [{ y: limit.ms, label: limit.clock === "cpu" ? `CPU limit ${limit.ms} ms` : `limit ${limit.ms} ms` }];
  }

  return { lines, ratings, bars, progress, limitLines, ticks };
})();
