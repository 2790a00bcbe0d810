// pi's ctx.ui.custom inside a worker: the component an extension's
// factory makes stays here, in the extension's thread. cairn shows the
// lines it renders and sends it the keys the person types (raw terminal
// bytes, which pi-tui's matchesKey reads) and the terminal's size
// (protocol version 2's custom_* methods, docs/extensions.md).
import { threadId } from "node:worker_threads";

// FRAME_MS coalesces the renders a component asks for (requestRender)
// into one drawing a frame: games ask every tick.
const FRAME_MS = 16;

/**
 * makeCustom is ctx.ui.custom for a worker. rpc calls cairn, notify tells
 * it something, canDo says whether the front end shows components.
 * loader(component) shows pi's BorderedLoader cairn's way (its message in
 * the status line, the editor left free) and returns what clears it, or
 * undefined for any other component.
 */
export function makeCustom({ rpc, notify, canDo, theme, log, loader }) {
  const open = new Map(); // id -> shown component
  let next = 1;

  function custom(factory, options) {
    if (!canDo("custom")) return undefined;
    const id = `${threadId}-${next++}`;
    const overlay = options?.overlay === true;
    const s = { id, overlay, options, cols: 0, rows: 0, component: undefined, timer: undefined, closed: false };
    return new Promise((resolve, reject) => {
      const tui = tuiFor(s);
      const close = (value) => {
        if (s.closed) return;
        s.closed = true;
        clearTimeout(s.timer);
        open.delete(id);
        // cairn closed it already when the person dismissed it.
        if (!s.dismissed && !s.clear) notify("custom_close", { id });
        s.clear?.();
        resolve(value);
        try {
          s.component?.dispose?.();
        } catch {}
      };
      s.close = close;
      open.set(id, s);
      Promise.resolve(factory(tui, theme, keybindings(), close)).then(
        (c) => {
          if (s.closed) return;
          s.component = c;
          s.clear = loader?.(c);
          if (s.clear) return;
          if (overlay) options?.onHandle?.(handleFor(s));
          // cairn answers when the component ends; done() has then
          // resolved this call already, a dismissal resolves it here.
          rpc("custom_show", { id, ...(overlay ? { overlay: true } : {}) }).then(
            (r) => {
              if (!s.closed && r?.dismissed) dismiss(s);
            },
            (e) => {
              log(`ui.custom: ${e.message}`);
              dismiss(s);
            },
          );
        },
        (e) => {
          if (s.closed) return;
          s.closed = true;
          open.delete(id);
          reject(e);
        },
      );
    });
  }

  function dismiss(s) {
    s.dismissed = true;
    s.close(undefined);
  }

  function tuiFor(s) {
    return {
      requestRender: () => schedule(s),
      get terminal() {
        return { columns: s.cols || 80, rows: s.rows || 24 };
      },
      setFocus() {},
      showOverlay: () => {
        throw new Error("tui.showOverlay inside ui.custom is not shown by cairn yet");
      },
      hideOverlay() {},
      hasOverlay: () => false,
    };
  }

  function handleFor(s) {
    return { hide: () => dismiss(s), setHidden() {}, isHidden: () => false, focus() {}, unfocus() {}, isFocused: () => true };
  }

  function schedule(s) {
    if (s.timer || s.closed || !s.cols) return;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      draw(s);
    }, FRAME_MS);
  }

  function draw(s) {
    if (s.closed || !s.component || !s.cols) return;
    let lines;
    let place = { row: 0, col: 0 };
    try {
      if (s.overlay) {
        const o = overlayLayout(s);
        lines = s.component.render(o.width).slice(0, o.maxHeight);
        place = placeOverlay(o, lines.length, s.cols, s.rows);
      } else {
        lines = s.component.render(s.cols);
      }
    } catch (e) {
      log(`ui.custom render: ${e?.stack || e}`);
      lines = [`render failed: ${e?.message || e}`];
    }
    notify("custom_render", { id: s.id, lines: lines.map(String), ...place });
  }

  function overlayLayout(s) {
    let o = s.options?.overlayOptions;
    if (typeof o === "function") o = o();
    o = o || (s.component?.width ? { width: s.component.width } : {});
    const margin = typeof o.margin === "number" ? { top: o.margin, right: o.margin, bottom: o.margin, left: o.margin } : { top: 0, right: 0, bottom: 0, left: 0, ...o.margin };
    const room = Math.max(1, s.cols - margin.left - margin.right);
    let width = size(o.width, s.cols) ?? Math.min(80, room);
    if (o.minWidth) width = Math.max(width, o.minWidth);
    width = Math.max(1, Math.min(width, room));
    const maxHeight = Math.max(1, Math.min(size(o.maxHeight, s.rows) ?? s.rows, s.rows - margin.top - margin.bottom));
    return { ...o, margin, width, maxHeight };
  }

  function input(m) {
    const s = open.get(m.id);
    if (!s || s.closed || !s.component) return;
    try {
      s.component.handleInput?.(m.data);
    } catch (e) {
      log(`ui.custom handleInput: ${e?.stack || e}`);
    }
    schedule(s);
  }

  function resize(m) {
    const s = open.get(m.id);
    if (!s || s.closed) return;
    s.cols = Math.max(1, Math.min(1000, m.width | 0));
    s.rows = Math.max(1, Math.min(1000, m.height | 0));
    s.component?.invalidate?.();
    draw(s);
  }

  return { custom, input, resize };
}

/** size reads a SizeValue: cells, or "50%" of total. */
function size(v, total) {
  if (typeof v === "number") return Math.floor(v);
  if (typeof v === "string" && v.endsWith("%")) return Math.floor((total * parseFloat(v)) / 100);
  return undefined;
}

/** placeOverlay is where an overlay's top left goes, by its anchor, offsets and row/col. */
export function placeOverlay(o, height, cols, rows) {
  const w = o.width;
  const m = o.margin;
  const anchor = o.anchor || "center";
  let row;
  let col;
  if (anchor.includes("top")) row = m.top;
  else if (anchor.includes("bottom")) row = rows - m.bottom - height;
  else row = Math.floor((rows - height) / 2);
  if (anchor.includes("left")) col = m.left;
  else if (anchor.includes("right")) col = cols - m.right - w;
  else col = Math.floor((cols - w) / 2);
  if (o.row !== undefined) row = size(o.row, rows) ?? row;
  if (o.col !== undefined) col = size(o.col, cols) ?? col;
  row += o.offsetY || 0;
  col += o.offsetX || 0;
  return { row: Math.max(0, Math.min(row, rows - height)), col: Math.max(0, Math.min(col, cols - w)) };
}

// keybindings is the third argument pi passes a factory: its key
// bindings. Components read pi-tui's own through getKeybindings().
function keybindings() {
  return { matches: () => false, getKeys: () => [] };
}
