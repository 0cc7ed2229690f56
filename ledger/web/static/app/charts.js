// Charts drawn here as SVG from the engine's numbers, for a phone: type of 13 px or
// more at 360 px wide, names drawn as text (陳大文 too), an evening by deal number.

import { s, signed } from "./dom.js";

const COLOURS = ["#d1495b", "#2e86ab", "#edae49", "#3f8f4f", "#8e6bbf", "#c76d2d", "#5d6d7e", "#e07a9f"];
const W = 340;
const FONT = 14;

function ticks(lo, hi, count) {
  const span = Math.max(1, hi - lo);
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((m) => m >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 100) / 100);
  return out;
}

function frame(height, label) {
  return s("svg", { viewBox: `0 0 ${W} ${height}`, class: "chart", role: "img", "aria-label": label,
    "font-size": FONT, "font-family": 'system-ui, "Noto Sans", "Noto Sans CJK TC", "Noto Sans CJK SC", sans-serif' },
  s("title", {}, label));
}

/** Lines of running totals, one per player: series = [{name, values: [y at x = 0, 1, 2…]}]. */
export function lineChart(series, { label, xLabel }) {
  const H = 220;
  const left = 44;
  const right = 10;
  const top = 12;
  const bottom = 40;
  const n = Math.max(1, ...series.map((x) => x.values.length - 1));
  const all = series.flatMap((x) => x.values).concat([0]);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const X = (i) => left + (i / n) * (W - left - right);
  const Y = (v) => top + (hi === lo ? 0.5 : (hi - v) / (hi - lo)) * (H - top - bottom);
  const svg = frame(H + 26 * Math.ceil(series.length / 2), label);
  for (const v of ticks(lo, hi, 4)) {
    svg.append(s("line", { x1: left, x2: W - right, y1: Y(v), y2: Y(v), class: v === 0 ? "zero" : "grid" }),
      s("text", { x: left - 6, y: Y(v) + 5, "text-anchor": "end", class: "axis" }, signed(v)));
  }
  for (const v of ticks(0, n, Math.min(n, 6))) {
    if (!Number.isInteger(v)) continue;
    svg.append(s("text", { x: X(v), y: H - bottom + 20, "text-anchor": "middle", class: "axis" }, String(v)));
  }
  svg.append(s("text", { x: (left + W) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, xLabel));
  series.forEach((x, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const d = x.values.map((v, i) => (i ? "L" : "M") + X(i).toFixed(1) + " " + Y(v).toFixed(1)).join(" ");
    svg.append(s("path", { d, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    const last = x.values[x.values.length - 1];
    svg.append(s("circle", { cx: X(x.values.length - 1), cy: Y(last), r: 3.5, fill: colour }));
    const lx = 8 + (k % 2) * (W / 2);
    const ly = H + 18 + Math.floor(k / 2) * 26;
    svg.append(s("rect", { x: lx, y: ly - 11, width: 14, height: 14, rx: 3, fill: colour }),
      s("text", { x: lx + 20, y: ly, class: "legend" }, x.name + " " + signed(last)));
  });
  return svg;
}

/** One player's result per session as bars, with the running total as a line. */
export function barChart(values, { label, xLabel }) {
  const H = 220;
  const left = 50;
  const right = 10;
  const top = 12;
  const bottom = 40;
  const run = [];
  values.reduce((sum, v, i) => { run[i] = sum + v; return run[i]; }, 0);
  const all = values.concat(run, [0]);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const n = Math.max(1, values.length);
  const slot = (W - left - right) / n;
  const Y = (v) => top + (hi === lo ? 0.5 : (hi - v) / (hi - lo)) * (H - top - bottom);
  const svg = frame(H, label);
  for (const v of ticks(lo, hi, 4)) {
    svg.append(s("line", { x1: left, x2: W - right, y1: Y(v), y2: Y(v), class: v === 0 ? "zero" : "grid" }),
      s("text", { x: left - 6, y: Y(v) + 5, "text-anchor": "end", class: "axis" }, signed(v)));
  }
  values.forEach((v, i) => {
    const x = left + i * slot + slot * 0.15;
    svg.append(s("rect", { x, width: Math.max(2, slot * 0.7), y: Math.min(Y(v), Y(0)), height: Math.max(1, Math.abs(Y(v) - Y(0))),
      class: v >= 0 ? "bar up" : "bar down" }));
  });
  const d = run.map((v, i) => (i ? "L" : "M") + (left + (i + 0.5) * slot).toFixed(1) + " " + Y(v).toFixed(1)).join(" ");
  svg.append(s("path", { d, fill: "none", class: "run", "stroke-width": 2.5 }));
  for (const v of ticks(1, n, Math.min(n, 6))) {
    if (Number.isInteger(v)) svg.append(s("text", { x: left + (v - 0.5) * slot, y: H - bottom + 20, "text-anchor": "middle", class: "axis" }, String(v)));
  }
  svg.append(s("text", { x: (left + W) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, xLabel));
  return svg;
}
