// pi's ctx.ui.setEditorComponent inside a worker: the extension's editor
// (a pi-tui Editor, usually pi's CustomEditor) is a ui.custom component
// (customui.mjs) shown in the editor's place until it is replaced or
// unset. It is wired as pi's interactive mode wires one: what it submits,
// its Escape and its ctrl+d in an empty editor go to cairn as actions
// (custom_action), which cairn's TUI acts on as its own editor's.
// Without a TUI (headless modes) it is ignored, as in pi's rpc mode.

// tuiHook is where the worker leaves pi-tui (its lazy module and how to
// load it whole), for the pi-coding-agent shim's CustomEditor.
export const tuiHook = Symbol.for("cairn.pi.tui");

// appKeys are pi's default keys of the app actions a CustomEditor reads
// through its keybindings; cairn keeps its other keys itself.
const appKeys = { "app.interrupt": ["escape"], "app.exit": ["ctrl+d"] };

/**
 * makeEditor is setEditorComponent and getEditorComponent for a worker.
 * custom is customUI.custom, canDo says whether the front end shows
 * components, theme is ctx.ui.theme, restore(text) puts text in cairn's
 * editor (the unset editor's, as pi hands it back).
 */
export function makeEditor({ custom, canDo, theme, log, restore }) {
  let factory;
  let current; // { close, ed, tui } of the editor set

  function set(f) {
    if (!canDo("custom")) return;
    if (f !== undefined && typeof f !== "function") throw new TypeError("setEditorComponent takes a factory function or undefined");
    factory = f;
    // The text goes on to the next editor, or back to cairn's.
    let carried = "";
    try {
      carried = current?.ed?.getText?.() ?? "";
    } catch {}
    current?.close();
    current = undefined;
    if (!f) {
      if (carried) restore?.(carried);
      return;
    }
    const shown = {};
    current = shown;
    custom(
      (tui, _theme, _kb, done, act) => {
        shown.close = () => done(undefined);
        if (current !== shown) return done(undefined);
        const ed = f(tui, editorTheme(theme), keybindings());
        Object.assign(shown, { ed, tui });
        if (carried) ed.setText?.(carried);
        ed.onSubmit = (text) => act("submit", String(text));
        ed.onChange ??= () => {};
        // pi's CustomEditor asks the app for Escape and ctrl+d.
        if (ed.actionHandlers instanceof Map) {
          ed.onEscape ??= () => act("interrupt");
          ed.onCtrlD ??= () => act("exit");
        }
        return ed;
      },
      { editor: true },
    )?.catch((e) => log(`ui.setEditorComponent: ${e?.stack || e}`));
    shown.close ??= () => {};
  }

  // While an editor is shown, ctx.ui's editor text is its text, as in
  // pi; text(), setText() and paste() answer false when none is.
  const text = () => (current?.ed ? (current.ed.getExpandedText?.() ?? current.ed.getText?.() ?? "") : false);
  function setText(t) {
    if (!current?.ed?.setText) return false;
    current.ed.setText(t);
    current.tui.requestRender();
    return true;
  }

  // paste puts text in at the editor's cursor, as a terminal pastes.
  function paste(t) {
    if (!current?.ed?.handleInput) return false;
    current.ed.handleInput(`\x1b[200~${t}\x1b[201~`);
    current.tui.requestRender();
    return true;
  }

  return { ui: { setEditorComponent: set, getEditorComponent: () => factory }, text, setText, paste };
}

// editorTheme is pi's editor theme (getEditorTheme) from ctx.ui.theme.
function editorTheme(theme) {
  const fg = (name) => (text) => theme.fg(name, text);
  return {
    borderColor: fg("borderMuted"),
    selectList: { selectedPrefix: fg("accent"), selectedText: fg("accent"), description: fg("muted"), scrollInfo: fg("muted"), noMatch: fg("muted") },
  };
}

// keybindings is pi's KeybindingsManager as an editor reads it: the app
// actions' default keys, pi-tui's own for the editor's.
function keybindings() {
  const tui = globalThis[tuiHook].module;
  const keys = (action) => appKeys[action] ?? tui.getKeybindings().getKeys(action) ?? [];
  return {
    matches: (data, action) => keys(action).some((k) => tui.matchesKey(data, k)),
    getKeys: keys,
  };
}
