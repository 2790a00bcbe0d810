// What one pi extension draws in pi's chrome and transcript, for cairn's
// TUI: the footer and header it sets (ctx.ui.setFooter, setHeader), its
// renderers of custom messages and entries (registerMessageRenderer,
// registerEntryRenderer) and its tools' renderCall and renderResult. Each
// is a pi-tui component the extension builds; cairn asks for its lines at
// a width (a "render" call) and shows them where pi would. The working
// line's message and indicator and the hidden thinking label are passed
// on as they are set. Where cairn does not draw them (pi's rpc mode and
// the other headless modes, as pi's rpc-mode.js) all of it is ignored.
import * as fs from "node:fs";
import * as path from "node:path";

// The chrome's UI methods cairn offers in a full-screen front end.
const CHROME = ["setFooter", "setHeader", "setWorkingMessage", "setWorkingIndicator", "setWorkingVisible",
  "setHiddenThinkingLabel", "requestRender"];

/**
 * makeRender gives an extension's worker its drawing: ui methods for
 * ctx.ui, the registries of its renderers, and render(p) answering
 * cairn's render call. fire(method, params) sends a UI call to cairn;
 * canDo(method) says whether cairn's front end takes it.
 */
export function makeRender({ fire, canDo, theme, cwd, tools, log }) {
  const messageRenderers = new Map();
  const entryRenderers = new Map();
  const chrome = { footer: undefined, header: undefined };
  const statuses = new Map();
  const toolState = new Map();
  let renderQueued = false;

  // requestRender coalesces an extension's redraw requests into one.
  function requestRender() {
    if (renderQueued || !canDo("requestRender")) return;
    renderQueued = true;
    setTimeout(() => {
      renderQueued = false;
      fire("requestRender", {});
    }, 16).unref?.();
  }
  const tui = { requestRender, terminal: { columns: 100, rows: 30 } };

  function setChrome(place, method, build) {
    const old = chrome[place];
    chrome[place] = undefined;
    try {
      old?.component?.dispose?.();
    } catch (e) {
      log(`${method}: dispose: ${e?.message || e}`);
    }
    old?.footerData?.dispose();
    if (!canDo(method)) return;
    if (build) {
      const footerData = place === "footer" ? footerDataFor(cwd, statuses, log) : undefined;
      try {
        chrome[place] = { component: build(tui, theme, footerData), footerData };
      } catch (e) {
        footerData?.dispose();
        log(`${method}: ${e?.message || e}`);
      }
    }
    fire(method, { component: chrome[place] !== undefined });
  }

  const ui = {
    setFooter: (factory) => setChrome("footer", "setFooter", factory),
    setHeader: (factory) => setChrome("header", "setHeader", factory),
    setWorkingMessage: (message) => canDo("setWorkingMessage") && fire("setWorkingMessage", message ? { message: String(message) } : {}),
    setWorkingIndicator: (options) => {
      if (!canDo("setWorkingIndicator")) return;
      if (!options) {
        fire("setWorkingIndicator", {});
        return;
      }
      const indicator = { frames: (options.frames ?? []).map(String) };
      if (options.intervalMs > 0) indicator.intervalMs = Math.round(options.intervalMs);
      fire("setWorkingIndicator", { indicator });
    },
    setWorkingVisible: (visible) => canDo("setWorkingVisible") && fire("setWorkingVisible", { visible: visible !== false }),
    setHiddenThinkingLabel: (label) => canDo("setHiddenThinkingLabel") && fire("setHiddenThinkingLabel", label ? { message: String(label) } : {}),
  };

  // noteStatus keeps this extension's status texts for footerData.
  function noteStatus(key, text) {
    if (text === undefined) statuses.delete(key);
    else statuses.set(key, String(text));
  }

  function lines(component, width) {
    if (!component || typeof component.render !== "function") return null;
    const out = component.render(width);
    return Array.isArray(out) ? out.map((l) => String(l)) : null;
  }

  // rowOf is a tool row's shared renderer state and the components its
  // call and result last returned (pi's context.state, lastComponent),
  // kept for the last calls only.
  function rowOf(id) {
    let s = toolState.get(id);
    if (!s) {
      s = { state: {}, last: {} };
      toolState.set(id, s);
      if (toolState.size > 200) toolState.delete(toolState.keys().next().value);
    }
    return s;
  }

  /** render answers cairn's render call: the lines, or null for "draw your own". */
  function render(p) {
    const width = Math.max(1, Math.min(1000, p.width | 0));
    switch (p.target) {
      case "footer":
      case "header":
        return chrome[p.target] ? { lines: lines(chrome[p.target].component, width) ?? [] } : null;
      case "message": {
        const r = messageRenderers.get(p.customType);
        if (!r) return null;
        const message = { role: "custom", customType: p.customType, content: piContent(p.content), display: true, details: p.details, timestamp: Date.now() };
        const l = lines(r(message, { expanded: !!p.expanded, outputPad: 1 }, theme), width);
        return l ? { lines: l } : null;
      }
      case "entry": {
        const r = entryRenderers.get(p.customType);
        if (!r) return null;
        const l = lines(r({ type: "custom", customType: p.customType, data: p.data }, { expanded: !!p.expanded }, theme), width);
        return l ? { lines: l } : null;
      }
      case "toolCall":
      case "toolResult": {
        const t = tools.get(p.toolName);
        const fn = p.target === "toolCall" ? t?.renderCall : t?.renderResult;
        if (typeof fn !== "function") return null;
        const args = p.args ?? {};
        const row = rowOf(p.toolCallId ?? "");
        const context = { args, toolCallId: p.toolCallId ?? "", invalidate: requestRender, lastComponent: row.last[p.target],
          state: row.state, cwd, executionStarted: true, argsComplete: true, isPartial: !!p.isPartial,
          expanded: !!p.expanded, showImages: false, isError: !!p.isError };
        const c = p.target === "toolCall"
          ? fn.call(t, args, theme, context)
          : fn.call(t, { content: p.content ?? [], details: p.details, isError: !!p.isError }, { expanded: !!p.expanded, isPartial: !!p.isPartial }, theme, context);
        row.last[p.target] = c;
        const l = lines(c, width);
        return l ? { lines: l } : null;
      }
    }
    throw new Error(`cannot render ${p.target}`);
  }

  /** registered names what this extension draws, for its member report. */
  function registered() {
    const toolRenderers = [...tools.values()].filter((t) => t.renderCall || t.renderResult).map((t) => t.name);
    return { messageRenderers: [...messageRenderers.keys()], entryRenderers: [...entryRenderers.keys()], toolRenderers };
  }

  return { ui, messageRenderers, entryRenderers, render, registered, noteStatus };
}

/** chromeMethods are the UI methods of pi's chrome, for the host. */
export const chromeMethods = CHROME;

// piContent is a custom message's content as pi holds it: a string when
// it is text alone (sendMessage's usual form), the blocks otherwise.
function piContent(content) {
  if (!Array.isArray(content)) return "";
  if (content.every((c) => c?.type === "text")) return content.map((c) => c.text).join("");
  return content;
}

// footerDataFor is pi's footerData: the git branch of cwd, watched, and
// this extension's status texts.
function footerDataFor(cwd, statuses, log) {
  const head = headPath(cwd);
  let branch;
  const callbacks = new Set();
  let watcher;
  let timer;
  if (head) {
    try {
      watcher = fs.watch(path.dirname(head), (_ev, name) => {
        if (name && name !== "HEAD") return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          branch = undefined;
          for (const cb of callbacks) {
            try {
              cb();
            } catch (e) {
              log(`onBranchChange: ${e?.message || e}`);
            }
          }
        }, 50);
      });
      watcher.unref?.();
    } catch (e) {
      log(`footer: cannot watch ${head}: ${e?.message || e}`);
    }
  }
  return {
    getGitBranch() {
      if (branch === undefined) branch = readBranch(head);
      return branch;
    },
    getExtensionStatuses: () => new Map(statuses),
    getAvailableProviderCount: () => 0,
    onBranchChange(cb) {
      callbacks.add(cb);
      return () => callbacks.delete(cb);
    },
    dispose() {
      clearTimeout(timer);
      watcher?.close();
      callbacks.clear();
    },
  };
}

// headPath finds the HEAD file of the git repository holding dir (a
// worktree's .git file followed), or null.
function headPath(dir) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const git = path.join(d, ".git");
    try {
      const st = fs.statSync(git);
      if (st.isDirectory()) return fs.existsSync(path.join(git, "HEAD")) ? path.join(git, "HEAD") : null;
      const text = fs.readFileSync(git, "utf8").trim();
      if (!text.startsWith("gitdir: ")) return null;
      const h = path.join(path.resolve(d, text.slice(8).trim()), "HEAD");
      return fs.existsSync(h) ? h : null;
    } catch {
      // no .git here: look further up
    }
    if (path.dirname(d) === d) return null;
  }
}

// readBranch is pi's getGitBranch: the branch HEAD names, "detached"
// when it names a commit, null outside a repository.
function readBranch(head) {
  if (!head) return null;
  try {
    const text = fs.readFileSync(head, "utf8").trim();
    return text.startsWith("ref: refs/heads/") ? text.slice("ref: refs/heads/".length) : "detached";
  } catch {
    return null;
  }
}
