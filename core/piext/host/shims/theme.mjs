// pi's theme as an extension sees it (ctx.ui.theme). Where cairn shows the
// text itself (its TUI, ACP) the theme is plain: fg("dim", s) is s, since
// cairn draws escapes as visible characters. In --mode rpc the text goes
// to a pi host as pi writes it: fg and bg wrap it in pi's dark theme's
// colours (pi-dark-theme.json), 256 colours unless COLORTERM says
// truecolor, as pi does; bold, italic and the like stay plain there, as
// pi's chalk leaves them when its output is a pipe.
import { readFileSync } from "node:fs";

const BG_KEYS = new Set(["selectedBg", "searchMatchBg", "userMessageBg", "customMessageBg", "toolPendingBg", "toolSuccessBg", "toolErrorBg"]);
const CUBE = [0, 95, 135, 175, 215, 255];

function nearest(list, v) {
  let best = 0;
  for (let i = 1; i < list.length; i++) if (Math.abs(v - list[i]) < Math.abs(v - list[best])) best = i;
  return best;
}

// weighted is the squared distance of two colours, green weighing most.
function weighted(a, b) {
  return (a[0] - b[0]) ** 2 * 0.299 + (a[1] - b[1]) ** 2 * 0.587 + (a[2] - b[2]) ** 2 * 0.114;
}

/** xterm256 is the 256-colour index pi uses for an RGB colour. */
export function xterm256(r, g, b) {
  const idx = [r, g, b].map((v) => nearest(CUBE, v));
  const cube = 16 + 36 * idx[0] + 6 * idx[1] + idx[2];
  const cubeDist = weighted([r, g, b], idx.map((i) => CUBE[i]));
  const grays = Array.from({ length: 24 }, (_, i) => 8 + i * 10);
  const gi = nearest(grays, Math.round(0.299 * r + 0.587 * g + 0.114 * b));
  const grayDist = weighted([r, g, b], [grays[gi], grays[gi], grays[gi]]);
  // A tinted colour keeps its tint: the gray ramp only for near-neutral ones.
  return Math.max(r, g, b) - Math.min(r, g, b) < 10 && grayDist < cubeDist ? 232 + gi : cube;
}

function ansi(hex, layer, truecolor) {
  if (hex === "") return layer === 38 ? "\x1b[39m" : "\x1b[49m";
  if (typeof hex === "number") return `\x1b[${layer};5;${hex}m`;
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return truecolor ? `\x1b[${layer};2;${r};${g};${b}m` : `\x1b[${layer};5;${xterm256(r, g, b)}m`;
}

const plainStyle = (s) => String(s);

/** makeTheme is the theme for a mode: pi's colours in rpc, plain elsewhere. */
export function makeTheme(mode, env = process.env) {
  const colored = mode === "rpc";
  const palette = JSON.parse(readFileSync(new URL("./pi-dark-theme.json", import.meta.url), "utf8")).colors;
  const colors = { ...palette };
  colors.scrollbarTrack ??= colors.muted;
  colors.scrollbarThumb ??= colors.text;
  colors.thinkingMax ??= colors.thinkingXhigh;
  colors.searchMatchBg ??= colors.selectedBg;
  colors.searchMatchText ??= colors.text;
  const truecolor = ["truecolor", "24bit"].includes((env.COLORTERM || "").toLowerCase());
  const fg = new Map();
  const bg = new Map();
  for (const [k, v] of Object.entries(colors)) (BG_KEYS.has(k) ? bg : fg).set(k, ansi(v, BG_KEYS.has(k) ? 48 : 38, truecolor));
  const pick = (map, kind, color) => {
    const a = map.get(color);
    if (!a) throw new Error(`Unknown theme ${kind}: ${color}`);
    return a;
  };
  return {
    name: "dark",
    fg: (color, text) => (colored ? `${pick(fg, "color", color)}${text}\x1b[39m` : (pick(fg, "color", color), String(text))),
    bg: (color, text) => (colored ? `${pick(bg, "background color", color)}${text}\x1b[49m` : (pick(bg, "background color", color), String(text))),
    bold: plainStyle,
    italic: plainStyle,
    underline: plainStyle,
    inverse: plainStyle,
    strikethrough: plainStyle,
    getFgAnsi: (color) => (colored ? pick(fg, "color", color) : ""),
    getBgAnsi: (color) => (colored ? pick(bg, "background color", color) : ""),
    getColorMode: () => (truecolor ? "truecolor" : "256color"),
    getThinkingBorderColor: (level) => (s) => {
      const key = { off: "thinkingOff", minimal: "thinkingMinimal", low: "thinkingLow", medium: "thinkingMedium", high: "thinkingHigh", xhigh: "thinkingXhigh", max: "thinkingMax" }[level] || "thinkingOff";
      return colored ? `${pick(fg, "color", key)}${s}\x1b[39m` : String(s);
    },
    getBashModeBorderColor: () => (s) => (colored ? `${pick(fg, "color", "bashMode")}${s}\x1b[39m` : String(s)),
  };
}
