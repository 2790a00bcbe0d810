// The runtime values of @earendil-works/pi-coding-agent (MIT) that pi
// extensions import, with pi 0.87.1's names and behaviour: defineTool,
// the event type guards, pi's directories, truncation limits and the
// built-in tools an extension may wrap (bash, read, write, edit), which
// here run in the extension host's process as pi runs them in its own.
// Types are erased by the loader; only values need to exist.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Type } from "./typebox.mjs";
import { Container, Text } from "./pi-tui.mjs";

export const VERSION = "0.87.1";
export const CONFIG_DIR_NAME = ".pi";
export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

/** getAgentDir is pi's agent directory: PI_CODING_AGENT_DIR or ~/.pi/agent. */
export function getAgentDir() {
  const d = process.env.PI_CODING_AGENT_DIR;
  if (d) return d === "~" ? os.homedir() : d.startsWith("~/") ? path.join(os.homedir(), d.slice(2)) : d;
  return path.join(os.homedir(), CONFIG_DIR_NAME, "agent");
}

export const defineTool = (tool) => tool;
export const isToolCallEventType = (toolName, event) => event.toolName === toolName;
export const isBashToolResult = (e) => e.toolName === "bash";
export const isReadToolResult = (e) => e.toolName === "read";
export const isEditToolResult = (e) => e.toolName === "edit";
export const isWriteToolResult = (e) => e.toolName === "write";
export const isGrepToolResult = (e) => e.toolName === "grep";
export const isFindToolResult = (e) => e.toolName === "find";
export const isLsToolResult = (e) => e.toolName === "ls";

/** formatSize writes a byte count the way pi's tools do. */
export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function truncate(content, options, fromEnd) {
  const maxLines = options?.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = content.split("\n");
  const totalLines = lines.length;
  const totalBytes = Buffer.byteLength(content);
  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return { content, truncated: false, truncatedBy: null, totalLines, totalBytes, outputLines: totalLines, outputBytes: totalBytes };
  }
  const kept = [];
  let bytes = 0;
  let by = "lines";
  const order = fromEnd ? [...lines].reverse() : lines;
  for (const line of order) {
    const b = Buffer.byteLength(line) + (kept.length ? 1 : 0);
    if (kept.length >= maxLines) break;
    if (bytes + b > maxBytes) {
      by = "bytes";
      break;
    }
    kept.push(line);
    bytes += b;
  }
  if (fromEnd) kept.reverse();
  const out = kept.join("\n");
  return { content: out, truncated: true, truncatedBy: by, totalLines, totalBytes, outputLines: kept.length, outputBytes: Buffer.byteLength(out) };
}

/** truncateHead keeps the first lines of content within pi's limits. */
export const truncateHead = (content, options) => truncate(content, options, false);
/** truncateTail keeps the last lines of content within pi's limits. */
export const truncateTail = (content, options) => truncate(content, options, true);

/** parseFrontmatter splits "---\nkey: value\n---\nbody" into its fields and body. */
export function parseFrontmatter(content) {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(content);
  if (!m) return { frontmatter: {}, body: content };
  const frontmatter = {};
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (kv) frontmatter[kv[1]] = kv[2].replace(/^["']|["']$/g, "");
  }
  return { frontmatter, body: m[2] };
}

const queues = new Map();
/** withFileMutationQueue runs fn after the earlier mutations of the same file. */
export function withFileMutationQueue(file, fn) {
  const key = path.resolve(file);
  const next = (queues.get(key) || Promise.resolve()).then(fn, fn);
  queues.set(key, next.catch(() => {}));
  return next;
}

/** convertToLlm keeps the messages a model sees (user, assistant, tool results). */
export function convertToLlm(messages) {
  return messages.filter((m) => m && ["user", "assistant", "toolResult"].includes(m.role));
}

function textOf(content) {
  if (typeof content === "string") return content;
  return (content || []).map((c) => (c.type === "text" ? c.text : c.type === "toolCall" ? `${c.name}(${JSON.stringify(c.arguments)})` : "")).join("");
}

/** serializeConversation writes messages as "[Role]: text" blocks, as pi does for summaries. */
export function serializeConversation(messages) {
  const names = { user: "User", assistant: "Assistant", toolResult: "Tool result" };
  return messages.map((m) => `[${names[m.role] || m.role}]: ${textOf(m.content)}`).join("\n\n");
}

const plainTheme = new Proxy({}, { get: () => (s) => s });
export const getMarkdownTheme = () => plainTheme;
// pi's SettingsList theme has one string among its functions: the cursor.
export const getSettingsListTheme = () => ({ label: (s) => s, value: (s) => s, description: (s) => s, cursor: "→ ", hint: (s) => s });
export const getSelectListTheme = () => plainTheme;

/** DynamicBorder renders a line across the width. */
export class DynamicBorder {
  constructor(color = (s) => s) {
    this.color = color;
  }
  invalidate() {}
  render(width) {
    return [this.color("─".repeat(Math.max(1, width)))];
  }
}

/** BorderedLoader is pi's spinner box; in cairn its message is shown in the status line while ui.custom waits. */
export class BorderedLoader extends Container {
  constructor(_tui, _theme, message) {
    super();
    this.signal = new AbortController().signal;
    this.addChild(new Text(message || "", 1, 0));
    // The worker's ui.custom shows a loader's message while it waits.
    this[Symbol.for("cairn.pi.loader")] = String(message || "Working...");
  }
  set onAbort(_f) {}
}

/**
 * CustomEditor is pi's editor: pi-tui's Editor (pi's own, loaded by the
 * worker, which leaves it under Symbol.for("cairn.pi.tui")) that first
 * hands the app's keys to the app: Escape to onEscape, ctrl+d in an
 * empty editor to onCtrlD, others to their onAction handlers. Its base
 * is joined when the first one is made, so that an extension that only
 * imports it does not load pi-tui.
 */
export class CustomEditor {
  constructor(tui, theme, keybindings, options) {
    const { Editor } = globalThis[Symbol.for("cairn.pi.tui")].module;
    if (Object.getPrototypeOf(CustomEditor.prototype) !== Editor.prototype) Object.setPrototypeOf(CustomEditor.prototype, Editor.prototype);
    const self = Reflect.construct(Editor, [tui, theme, options], new.target);
    self.keybindings = keybindings;
    self.actionHandlers = new Map();
    self.embedWorkingStatus = options?.embedWorkingStatus ?? false;
    return self;
  }
  /** onAction registers the handler of an app action. */
  onAction(action, handler) {
    this.actionHandlers.set(action, handler);
  }
  setWorkingStatusIndicator(indicator) {
    this.workingStatusIndicator = indicator;
  }
  handleInput(data) {
    const editor = Object.getPrototypeOf(CustomEditor.prototype);
    if (this.onExtensionShortcut?.(data)) return;
    const kb = this.keybindings;
    if (kb.matches(data, "app.clipboard.pasteImage")) {
      this.onPasteImage?.();
      return;
    }
    if (kb.matches(data, "app.interrupt")) {
      const handler = this.isShowingAutocomplete() ? undefined : (this.onEscape ?? this.actionHandlers.get("app.interrupt"));
      if (handler) handler();
      else editor.handleInput.call(this, data);
      return;
    }
    if (kb.matches(data, "app.exit") && this.getText().length === 0) {
      (this.onCtrlD ?? this.actionHandlers.get("app.exit"))?.();
      return;
    }
    if (!kb.matches(data, "tui.editor.historyPrevious") && !kb.matches(data, "tui.editor.historyNext")) {
      for (const [action, handler] of this.actionHandlers) {
        if (action !== "app.interrupt" && action !== "app.exit" && kb.matches(data, action)) {
          handler();
          return;
        }
      }
    }
    editor.handleInput.call(this, data);
  }
}

function runBash(command, cwd, signal, timeoutSec, onData, env) {
  return new Promise((resolve, reject) => {
    const shell = fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
    const child = spawn(shell, ["-c", command], { cwd, detached: true, env: env || process.env });
    let out = "";
    const add = (b) => {
      out += b.toString();
      onData?.(b);
    };
    child.stdout.on("data", add);
    child.stderr.on("data", add);
    const kill = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    };
    signal?.addEventListener("abort", kill, { once: true });
    const timer = timeoutSec ? setTimeout(kill, timeoutSec * 1000) : undefined;
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", kill);
      resolve({ output: out, exitCode: code });
    });
  });
}

const localBash = {
  exec: (command, cwd, { onData, signal, timeout, env } = {}) => runBash(command, cwd, signal, timeout, onData, env),
};

/** createBashTool is pi's bash tool, running commands through operations (local by default). */
export function createBashTool(cwd, options = {}) {
  const ops = options.operations || localBash;
  return {
    name: "bash",
    label: "bash",
    description: `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB.`,
    parameters: Type.Object({
      command: Type.String({ description: "Bash command to execute" }),
      timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
    }),
    async execute(_id, params, signal) {
      let spec = { command: options.commandPrefix ? `${options.commandPrefix}\n${params.command}` : params.command, cwd, env: { ...process.env } };
      if (options.spawnHook) spec = options.spawnHook(spec);
      const chunks = [];
      const r = await ops.exec(spec.command, spec.cwd, { onData: (b) => chunks.push(b), signal, timeout: params.timeout, env: spec.env });
      const text = truncateTail(Buffer.concat(chunks.map((c) => Buffer.from(c))).toString() || r.output || "").content || "(no output)";
      if (r.exitCode !== 0 && r.exitCode !== null) throw new Error(`${text}\n\nCommand exited with code ${r.exitCode}`);
      return { content: [{ type: "text", text }], details: {} };
    },
  };
}

const abs = (cwd, p) => path.resolve(cwd, p.replace(/^@/, ""));

/** createReadTool is pi's read tool over the local file system (or options.operations). */
export function createReadTool(cwd, options = {}) {
  const readFile = options.operations?.readFile || ((p) => fs.promises.readFile(p));
  return {
    name: "read",
    label: "read",
    description: `Read the contents of a file. Output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB. Use offset/limit for large files.`,
    parameters: Type.Object({
      path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
      offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
      limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
    }),
    async execute(_id, params) {
      const text = (await readFile(abs(cwd, params.path))).toString();
      let lines = text.split("\n");
      const start = Math.max(0, (params.offset || 1) - 1);
      lines = lines.slice(start, params.limit ? start + params.limit : undefined);
      return { content: [{ type: "text", text: truncateHead(lines.join("\n")).content }], details: {} };
    },
  };
}

/** createWriteTool is pi's write tool. */
export function createWriteTool(cwd, options = {}) {
  const writeFile = options.operations?.writeFile || ((p, c) => fs.promises.writeFile(p, c));
  const mkdir = options.operations?.mkdir || ((d) => fs.promises.mkdir(d, { recursive: true }));
  return {
    name: "write",
    label: "write",
    description: "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    parameters: Type.Object({
      path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
      content: Type.String({ description: "Content to write to the file" }),
    }),
    async execute(_id, params) {
      const p = abs(cwd, params.path);
      await withFileMutationQueue(p, async () => {
        await mkdir(path.dirname(p));
        await writeFile(p, params.content);
      });
      return { content: [{ type: "text", text: `Successfully wrote ${Buffer.byteLength(params.content)} bytes to ${params.path}` }], details: undefined };
    },
  };
}

/** createEditTool is pi's edit tool: each oldText must occur exactly once. */
export function createEditTool(cwd, options = {}) {
  const readFile = options.operations?.readFile || ((p) => fs.promises.readFile(p));
  const writeFile = options.operations?.writeFile || ((p, c) => fs.promises.writeFile(p, c));
  return {
    name: "edit",
    label: "edit",
    description: "Edit a file by replacing exact text. Each oldText must match exactly once.",
    parameters: Type.Object({
      path: Type.String({ description: "Path to the file to edit (relative or absolute)" }),
      edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() })),
    }),
    async execute(_id, params) {
      const p = abs(cwd, params.path);
      return withFileMutationQueue(p, async () => {
        let text = (await readFile(p)).toString();
        for (const e of params.edits || []) {
          const n = text.split(e.oldText).length - 1;
          if (n !== 1) throw new Error(`Found ${n} occurrences of the text in ${params.path}; it must be exactly one`);
          text = text.replace(e.oldText, () => e.newText);
        }
        await writeFile(p, text);
        return { content: [{ type: "text", text: `Successfully replaced ${params.edits.length} block(s) in ${params.path}.` }], details: {} };
      });
    },
  };
}

function commandTool(name, description, parameters, argv) {
  return (cwd) => ({
    name,
    label: name,
    description,
    parameters,
    async execute(_id, params, signal) {
      const r = await new Promise((resolve) => {
        const [cmd, ...args] = argv(params);
        const child = spawn(cmd, args, { cwd, signal });
        let out = "";
        child.stdout.on("data", (b) => (out += b));
        child.stderr.on("data", (b) => (out += b));
        child.on("error", (e) => resolve({ out: e.message, code: 1 }));
        child.on("close", (code) => resolve({ out, code }));
      });
      return { content: [{ type: "text", text: truncateHead(r.out).content || "(no output)" }], details: {} };
    },
  });
}

/** createGrepTool is pi's grep tool, run with grep -rn. */
export const createGrepTool = commandTool("grep", "Search file contents for a pattern.",
  Type.Object({ pattern: Type.String(), path: Type.Optional(Type.String()), glob: Type.Optional(Type.String()), ignoreCase: Type.Optional(Type.Boolean()) }),
  (p) => ["grep", "-rn", ...(p.ignoreCase ? ["-i"] : []), ...(p.glob ? [`--include=${p.glob}`] : []), "--", p.pattern, p.path || "."]);
/** createFindTool is pi's find tool, run with find -name. */
export const createFindTool = commandTool("find", "Find files by glob pattern.",
  Type.Object({ pattern: Type.String(), path: Type.Optional(Type.String()) }),
  (p) => ["find", p.path || ".", "-name", p.pattern]);
/** createLsTool is pi's ls tool. */
export const createLsTool = commandTool("ls", "List directory contents.",
  Type.Object({ path: Type.Optional(Type.String()) }),
  (p) => ["ls", "-A", p.path || "."]);
