// Two of @earendil-works/pi-tui's components (MIT), Text and Container,
// for the pi-coding-agent shim's BorderedLoader: an extension's own
// imports of pi-tui load pi's real one (pitui.mjs), which costs far more
// than the shim's few lines need.

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** visibleWidth is the number of terminal cells text takes, without escapes. */
function visibleWidth(text) {
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

/** wrapTextWithAnsi wraps text at width cells, by words where it can. */
function wrapTextWithAnsi(text, width) {
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
