// Building the page from data: every name, number and message goes in as text
// (textContent / attributes), never as markup, so a player called <img onerror=…>
// shows as those characters.

const SVG = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") {
      for (const [type, handler] of Object.entries(value)) el.addEventListener(type, handler);
    } else if (key === "data") {
      for (const [name, v] of Object.entries(value)) el.dataset[name] = String(v);
    } else if (key === "class") {
      el.setAttribute("class", value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** h("button", {class: "primary", on: {click}}, "Record deal") */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** s("circle", {cx: 1, cy: 2, r: 3}) — an SVG element, its text as text too. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

export function clear(el, ...children) {
  el.replaceChildren();
  return fill(el, {}, children);
}

/** +3 / −2 / 0, as the command line signs points. */
export function signed(n) {
  const v = Number(n);
  return v > 0 ? "+" + n : String(n).replace(/^-/, "−");
}

/** A money string from the engine ("-8.00") signed the same way. */
export function signedMoney(text) {
  const v = String(text);
  if (v.startsWith("-")) return "−" + v.slice(1);
  return Number(v) > 0 ? "+" + v : v;
}

export function tone(n) {
  const v = Number(n);
  return v > 0 ? "up" : v < 0 ? "down" : "even";
}
