// The parts of @earendil-works/pi-tui (MIT) that pi extensions use outside
// a custom component: text measuring and cutting, key names, and the
// simple components (Text, Box, Container, Spacer) whose render(width)
// gives lines. cairn draws an extension's lines itself; a component that
// needs pi's own terminal (an editor, an overlay) is refused where it is
// shown, not here.

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** visibleWidth is the number of terminal cells text takes, without escapes. */
export function visibleWidth(text) {
  let w = 0;
  for (const ch of String(text).replace(ANSI, "")) {
    const c = ch.codePointAt(0);
    if (c < 32 || (c >= 0x300 && c < 0x370) || c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f)) continue;
    w += isWide(c) ? 2 : 1;
  }
  return w;
}

function isWide(c) {
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) || (c >= 0x20000 && c <= 0x3fffd);
}

/** truncateToWidth cuts text to width cells, ending it with ellipsis when cut. */
export function truncateToWidth(text, width, ellipsis = "...") {
  text = String(text);
  if (visibleWidth(text) <= width) return text;
  const room = Math.max(0, width - visibleWidth(ellipsis));
  let out = "";
  let w = 0;
  for (const ch of text.replace(ANSI, "")) {
    const cw = visibleWidth(ch);
    if (w + cw > room) break;
    out += ch;
    w += cw;
  }
  return out + ellipsis;
}

/** wrapTextWithAnsi wraps text at width cells, by words where it can. */
export function wrapTextWithAnsi(text, width) {
  const out = [];
  for (const para of String(text).split("\n")) {
    let line = "";
    for (const word of para.split(" ")) {
      const next = line ? `${line} ${word}` : word;
      if (visibleWidth(next) <= width || !line) line = next;
      else {
        out.push(line);
        line = word;
      }
    }
    out.push(line);
  }
  return out;
}

const SYMBOLS = { backtick: "`", hyphen: "-", equals: "=", leftbracket: "[", rightbracket: "]", backslash: "\\",
  semicolon: ";", quote: "'", comma: ",", period: ".", slash: "/", exclamation: "!", at: "@", hash: "#", dollar: "$",
  percent: "%", caret: "^", ampersand: "&", asterisk: "*", leftparen: "(", rightparen: ")", underscore: "_", plus: "+",
  pipe: "|", tilde: "~", leftbrace: "{", rightbrace: "}", colon: ":", lessthan: "<", greaterthan: ">", question: "?" };

/** Key names keys as pi-tui does: Key.enter is "enter", Key.ctrlShift("p") is "ctrl+shift+p". */
export const Key = new Proxy({}, {
  get: (_t, name) => {
    if (typeof name !== "string") return undefined;
    if (name in SYMBOLS) return SYMBOLS[name];
    const mods = name.split(/(?=[A-Z])/).map((m) => m.toLowerCase());
    if (mods.every((m) => ["ctrl", "shift", "alt", "super"].includes(m))) return (k) => `${mods.join("+")}+${k}`;
    return name;
  },
});

/** matchesKey reports whether raw input data is the key named by key ("ctrl+c", "enter", "a"). */
export function matchesKey(data, key) {
  return parseKey(data) === String(key).toLowerCase();
}

/** parseKey names the key raw terminal input is, pi-tui's way. */
export function parseKey(data) {
  const named = { "\r": "enter", "\n": "enter", "\x1b": "escape", "\t": "tab", "\x7f": "backspace", " ": "space",
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left" };
  if (named[data]) return named[data];
  if (data.length === 1 && data.charCodeAt(0) < 27) return "ctrl+" + String.fromCharCode(data.charCodeAt(0) + 96);
  return data.toLowerCase();
}

export function isKeyRelease() {
  return false;
}

export const CURSOR_MARKER = "\x1b_pi:c\x07";

/** Text renders its text wrapped to the width, with padding. */
export class Text {
  constructor(text = "", paddingX = 1, paddingY = 1) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
  }
  setText(text) {
    this.text = text;
  }
  invalidate() {}
  render(width) {
    if (!this.text) return [];
    const pad = " ".repeat(this.paddingX);
    const lines = wrapTextWithAnsi(this.text, Math.max(1, width - 2 * this.paddingX)).map((l) => pad + l);
    const blank = Array(this.paddingY).fill("");
    return [...blank, ...lines, ...blank];
  }
}

/** Container renders its children one after another. */
export class Container {
  constructor() {
    this.children = [];
  }
  addChild(c) {
    this.children.push(c);
  }
  removeChild(c) {
    this.children = this.children.filter((x) => x !== c);
  }
  clear() {
    this.children = [];
  }
  invalidate() {}
  render(width) {
    return this.children.flatMap((c) => c.render(width));
  }
}

/** Box is a Container with padding. */
export class Box extends Container {
  constructor(paddingX = 1, paddingY = 1) {
    super();
    this.paddingX = paddingX;
    this.paddingY = paddingY;
  }
  render(width) {
    const pad = " ".repeat(this.paddingX);
    const blank = Array(this.paddingY).fill("");
    return [...blank, ...super.render(Math.max(1, width - 2 * this.paddingX)).map((l) => pad + l), ...blank];
  }
}

/** Spacer renders blank lines. */
export class Spacer {
  constructor(lines = 1) {
    this.lines = lines;
  }
  invalidate() {}
  render() {
    return Array(this.lines).fill("");
  }
}

/** Markdown renders its text as it is (cairn renders markdown itself). */
export class Markdown extends Text {}

function needsPiTerminal(name) {
  return class {
    constructor() {
      throw new Error(`${name} is a pi-tui component that needs pi's own terminal; cairn's pi extension host cannot show it`);
    }
  };
}

export const Editor = needsPiTerminal("Editor");
export const Input = needsPiTerminal("Input");
export const SelectList = needsPiTerminal("SelectList");
export const SettingsList = needsPiTerminal("SettingsList");
export const Loader = needsPiTerminal("Loader");
export const CancellableLoader = needsPiTerminal("CancellableLoader");
export const TUI = needsPiTerminal("TUI");
export const Image = needsPiTerminal("Image");
