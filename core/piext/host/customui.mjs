// pi's ctx.ui.custom inside a worker: the component an extension's
// factory makes stays here, in the extension's thread. cairn shows the
// lines it renders and sends it the keys the person types (raw terminal
// bytes, which pi-tui's matchesKey reads) and the terminal's size
// (protocol version 2's custom_* methods, docs/extensions.md).
import { threadId } from "node:worker_threads";

// FRAME_MS coalesces the renders a component asks for (requestRender)
// into one drawing a frame: games ask every tick.
const FRAME_MS = 16;

// layout is pi-tui's TUI (TuiBase), whose resolveOverlayLayout places overlays;
// loaded when the first overlay is shown.
let layout;
async function loadLayout() {
  const { TuiBase } = await import("./node_modules/@earendil-works/pi-tui/dist/tui.js");
  layout = { resolveOverlayLayout: (o, h, w, rows) => TuiBase.prototype.resolveOverlayLayout.call(TuiBase.prototype, o, h, w, rows) };
}

/**
 * makeCustom is ctx.ui.custom for a worker. rpc calls cairn, notify tells
 * it something, canDo says whether the front end shows components.
 * loader(component) shows pi's BorderedLoader cairn's way (its message in
 * the status line, the editor left free) and returns what clears it, or
 * undefined for any other component. prepare() settles when what the
 * factory needs is loaded.
 */
export function makeCustom({ rpc, notify, canDo, theme, log, loader, prepare }) {
  const open = new Map(); // id -> shown component
  let next = 1;

  function custom(factory, options) {
    if (!canDo("custom")) return undefined;
    const id = `${threadId}-${next++}`;
    const overlay = options?.overlay === true;
    // An editor (editorui.mjs) stays in the editor's place and sends
    // cairn its actions (custom_action).
    const editor = options?.editor === true;
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
      // pi-tui loads whole before the factory makes its components.
      Promise.resolve(prepare?.())
        .then(() => factory(tui, theme, keybindings(), close, editor ? (action, text) => notify("custom_action", { id, action, ...(text === undefined ? {} : { text }) }) : undefined))
        .then((c) => {
          if (s.closed) return;
          s.component = c;
          s.clear = loader?.(c);
          if (s.clear) return;
          if (overlay) options?.onHandle?.(handleFor(s));
          return overlay && !layout ? loadLayout() : undefined;
        })
        .then(() => {
          if (s.closed || s.clear) return;
          // cairn answers when the component ends; done() has then
          // resolved this call already, a dismissal resolves it here.
          rpc("custom_show", { id, ...(overlay ? { overlay: true } : {}), ...(editor ? { editor: true } : {}) }).then(
            (r) => {
              if (!s.closed && r?.dismissed) dismiss(s);
            },
            (e) => {
              log(`ui.custom: ${e.message}`);
              dismiss(s);
            },
          );
        })
        .catch((e) => {
          if (s.closed) return;
          s.closed = true;
          open.delete(id);
          reject(e);
        });
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
    return { hide: () => s.close(undefined), setHidden() {}, isHidden: () => false, focus() {}, unfocus() {}, isFocused: () => true };
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
        // pi-tui's own layout, as its TUI composites an overlay.
        const o = overlayOptions(s);
        if (o?.visible && !o.visible(s.cols, s.rows)) {
          lines = [];
        } else {
          const { width, maxHeight } = layout.resolveOverlayLayout(o, 0, s.cols, s.rows);
          lines = s.component.render(width);
          if (maxHeight !== undefined) lines = lines.slice(0, maxHeight);
          const { row, col } = layout.resolveOverlayLayout(o, lines.length, s.cols, s.rows);
          place = { row, col };
        }
      } else {
        lines = s.component.render(s.cols);
      }
    } catch (e) {
      log(`ui.custom render: ${e?.stack || e}`);
      lines = [`render failed: ${e?.message || e}`];
    }
    notify("custom_render", { id: s.id, lines: lines.map(String), ...place });
  }

  // overlayOptions are the options of an overlay, as pi resolves them:
  // given (or given by a function), else the component's width.
  function overlayOptions(s) {
    const o = s.options?.overlayOptions;
    if (o) return typeof o === "function" ? o() : o;
    return s.component?.width ? { width: s.component.width } : undefined;
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

// keybindings is the third argument pi passes a factory: its key
// bindings. Components read pi-tui's own through getKeybindings().
function keybindings() {
  return { matches: () => false, getKeys: () => [] };
}
