// pi's getAllTools, getActiveTools and setActiveTools over the session's
// whole tool set: cairn's protocol version 2 get_tools and set_tools.
// A cairn that does not answer them (version 1) leaves each extension its
// own tools, as before.

/**
 * toolsAPI gives pi's three tool calls. syncRPC waits for cairn's answer
 * (pi's calls answer at once); own is the extension's Map of its tools;
 * file is its path, for sourceInfo; log writes to its log.
 */
export function toolsAPI(syncRPC, rpc, own, file, log) {
  function sourceInfo(t) {
    if (t.source === "extension" && own.has(t.name)) return { path: file, source: "local", scope: "temporary", origin: "top-level" };
    return { path: `<${t.source}:${t.name}>`, source: t.source, scope: "temporary", origin: "top-level" };
  }
  function session() {
    try {
      return syncRPC("get_tools", {});
    } catch (e) {
      log(`getAllTools: ${e.message}; listing this extension's tools only`);
      return null;
    }
  }
  return {
    getAllTools() {
      const got = session();
      if (!got) return [...own.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, promptGuidelines: t.promptGuidelines }));
      return got.tools.map((t) => {
        const info = { name: t.name, description: t.description, parameters: t.parameters };
        const mine = t.source === "extension" ? own.get(t.name) : undefined;
        if (mine?.promptGuidelines) info.promptGuidelines = mine.promptGuidelines;
        info.sourceInfo = sourceInfo(t);
        return info;
      });
    },
    getActiveTools() {
      const got = session();
      return got ? got.active : [...own.keys()];
    },
    setActiveTools(names) {
      const list = Array.isArray(names) ? names.map(String) : [];
      try {
        const { unknown = [] } = syncRPC("set_tools", { names: list }) ?? {};
        // pi ignores the names it has no tool of; cairn says so here.
        if (unknown.length) log(`setActiveTools: no tool is named ${unknown.map((n) => JSON.stringify(n)).join(", ")}; ignored`);
      } catch (e) {
        log(`setActiveTools: ${e.message}; switching this extension's tools only`);
        rpc("set_active_tools", { names: list.filter((n) => own.has(n)) }).catch(() => {});
      }
    },
  };
}
