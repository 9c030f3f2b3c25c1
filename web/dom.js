// Small helpers every page script shares: building elements (text always as text, never as
// HTML: records and results come from outside) and the page's links.
"use strict";

const $ = (id) => document.getElementById(id);

// An HTML element with properties and children (strings become text nodes).
function h(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// An SVG element with attributes, appended to `parent` when given.
function svgEl(name, attrs, parent) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// The page's own addresses (everything after '#'): a game, a tournament, one participant.
const Links = {
  game: (path) => "#game=" + encodeURIComponent(path),
  tournament: (path) => "#tournament=" + encodeURIComponent(path),
  participant: (path, name) =>
    "#participant=" + encodeURIComponent(path) + "&name=" + encodeURIComponent(name),
  // A file named relative to a tournament folder, as the served folder names it.
  inFolder: (folder, file) => (folder ? folder + "/" + file : file),
};
