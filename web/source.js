// Where the page's data comes from: the JSON API of `arena web`, or, in a folder written by
// `arena tournament report`, the same answers embedded in data.js and data/*.js (a page opened
// from file:// cannot fetch; it can load scripts). docs/viewer.md describes both.
"use strict";

const Source = (() => {
  const exported = window.ARENA_EXPORT;
  const query = (params) =>
    Object.entries(params || {}).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");

  if (!exported) {
    // An error answer is {"error": reason}; anything else is shown as it came.
    const reason = async (r) => {
      const text = (await r.text()).trim();
      try {
        return JSON.parse(text).error || text;
      } catch {
        return text;
      }
    };
    return {
      exported: null,
      // GET /api/WHAT?params: the answer, or an Error with the server's reason.
      async get(what, params) {
        // Relative: the viewer answers at /api/ under `arena web`, at /view/api/ on a course server.
        const r = await fetch(`api/${what}?${query(params)}`, { cache: "no-store" });
        if (!r.ok) throw new Error(`${r.status}: ${await reason(r)}`);
        return r.json();
      },
      fileUrl: () => null,
    };
  }

  // The key an answer is stored under (src/view/static_export.cpp writes the same).
  const key = (what, params) => `${what}\n${params.path || ""}\n${params.name || ""}`;
  const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const loading = new Map();

  function load(src) {
    if (!loading.has(src))
      loading.set(src, new Promise((resolve, reject) => {
        const s = h("script", { src });
        s.onload = resolve;
        s.onerror = () => reject(new Error("cannot load " + src));
        document.head.append(s);
      }));
    return loading.get(src);
  }

  return {
    exported,
    async get(what, params) {
      const k = key(what, params || {});
      if (!has(exported.answers, k) && has(exported.scripts, k)) await load(exported.scripts[k]);
      if (!has(exported.answers, k)) throw new Error("not in this report");
      return exported.answers[k];
    },
    // The copy of an event file (a record, results.json) beside the page.
    fileUrl: (path) => exported.files + path.split("/").map(encodeURIComponent).join("/"),
  };
})();
