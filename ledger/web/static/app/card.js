// The settlement card: a PNG drawn here on a canvas (names drawn as text, never as
// markup), for the share sheet or a download.

import { signedMoney } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle, when } from "./names.js";

const FONT = 'system-ui, "Noto Sans", "Noto Sans CJK TC", "Noto Sans CJK SC", sans-serif';

/** What of the `i`th of the fewest payments is paid, for the share text and the card:
 * "" while nothing of it is. */
export function paidNote(st, i) {
  const p = (st.progress || [])[i];
  if (!p || Number(p.paid) === 0) return "";
  return Number(p.outstanding) === 0 ? t("paid_in_full")
    : t("paid_outstanding", { paid: p.paid, outstanding: p.outstanding, currency: st.currency });
}

export function drawCard(s, st) {
  const nets = Object.entries(st.nets);
  const width = 720;
  const rowH = 56;
  const notes = st.payments.map((p, i) => paidNote(st, i));
  const height = 170 + nets.length * rowH + 40 + Math.max(1, st.payments.length) * 44
    + notes.filter(Boolean).length * 34 + 40;
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.className = "card-image";
  const g = canvas.getContext("2d");
  g.fillStyle = "#fbf8f1";
  g.fillRect(0, 0, width, height);
  g.fillStyle = "#b00020";
  g.fillRect(0, 0, width, 12);
  g.fillStyle = "#1b1b1b";
  g.textBaseline = "alphabetic";
  g.font = `700 40px ${FONT}`;
  g.fillText(fit(g, sessionTitle(s), width - 80), 40, 78);
  g.font = `400 26px ${FONT}`;
  g.fillStyle = "#5d5d5d";
  g.fillText(fit(g, when(s.started_at) + " · " + s.rules + " · " + st.currency, width - 80), 40, 120);
  let y = 180;
  for (const [name, value] of nets) {
    g.font = `600 34px ${FONT}`;
    g.fillStyle = "#1b1b1b";
    g.fillText(fit(g, name, width - 320), 40, y);
    g.textAlign = "right";
    g.fillStyle = Number(value) > 0 ? "#0a7a2f" : Number(value) < 0 ? "#b00020" : "#5d5d5d";
    g.font = `700 36px ${FONT}`;
    g.fillText(signedMoney(value), width - 40, y);
    g.textAlign = "left";
    y += rowH;
  }
  y += 20;
  g.fillStyle = "#1b1b1b";
  g.font = `400 28px ${FONT}`;
  if (!st.payments.length) g.fillText(t("all_square"), 40, y);
  st.payments.forEach((p, i) => {
    g.font = `400 28px ${FONT}`;
    g.fillStyle = "#1b1b1b";
    g.fillText(fit(g, t("pays", { payer: p.from, payee: p.to }) + "  " + p.amount + " " + st.currency, width - 80), 40, y);
    if (notes[i]) {
      y += 34;
      g.font = `400 24px ${FONT}`;
      g.fillStyle = "#5d5d5d";
      g.fillText(fit(g, notes[i], width - 120), 80, y);
    }
    y += 44;
  });
  return canvas;
}

function fit(g, text, room) {
  if (g.measureText(text).width <= room) return text;
  let cut = text;
  while (cut.length > 1 && g.measureText(cut + "…").width > room) cut = cut.slice(0, -1);
  return cut + "…";
}
