// pi-tui (pi's own, vendored under node_modules) as an extension imports
// it. Its index pulls in every component, marked and Unicode tables:
// about 150 ms of CPU in each extension's thread. So an extension that
// imports it starts without it (the exports are read when used, and an
// extension uses them when it draws or reads keys). The worker loads it
// whole, natively, before the extension's first tool call, command,
// drawing or component; until then an export read loads its own file
// alone, through jiti (Text or matchesKey cost a fraction of the whole).
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * lazyPiTUI is pi-tui's index dir/index.js as a module object whose
 * exports are read on use: from the native module once preload() has
 * imported it, else from the export's own file, loaded with load(file)
 * (one module cache, so pi-tui's classes stay the same wherever they are
 * reached from).
 */
export function lazyPiTUI(dir, load) {
  const index = path.join(dir, "index.js");
  let native;
  const module = { __esModule: true };
  // index.js is a list of `export { A, B as C } from "./file.js";`.
  const re = /export\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g;
  const text = readFileSync(index, "utf8");
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const spec = m[2];
    const file = spec.startsWith(".") ? path.join(dir, spec) : spec;
    for (const part of m[1].split(",")) {
      const [orig, alias] = part.trim().split(/\s+as\s+/);
      const name = alias || orig;
      if (!name) continue;
      Object.defineProperty(module, name, { enumerable: true, get: () => (native ?? load(file))[orig] });
    }
  }
  return {
    module,
    preload: async () => {
      native = await import(pathToFileURL(index).href);
    },
  };
}
