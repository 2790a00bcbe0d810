// pi's session calls of the ExtensionAPI that go to cairn's session:
// setLabel and getLabel (pi's label entries), and getCommands.

/** labelOf is the label the session's entries give the entry id: the last label entry for it, pi's getLabel. */
export function labelOf(entries, id) {
  let label;
  for (const e of entries) if (e?.type === "label" && e.targetId === id) label = e.label || undefined;
  return label;
}

/**
 * sessionCalls makes setLabel, getLabel and getCommands on syncRPC (a
 * call cairn answers at once). entries reads the session's entries;
 * own lists this extension's commands and file is its module, for their
 * sourceInfo.
 */
export function sessionCalls(syncRPC, entries, own, file, log) {
  // Labels kept here when cairn keeps no entries (a session in memory).
  const local = new Map();
  return {
    /** info is the session's id, file, directory and name (get_session); empty where cairn does not say. */
    info() {
      try {
        return syncRPC("get_session", {});
      } catch (e) {
        log(`sessionManager: ${e.message}`);
        return {};
      }
    },
    setLabel(entryId, label) {
      const text = label === undefined || label === null ? "" : String(label).trim();
      try {
        syncRPC("set_label", text ? { targetId: String(entryId), label: text } : { targetId: String(entryId) });
      } catch (e) {
        // pi throws for an entry it does not have; so does cairn.
        if (/not found|no such entry/i.test(e.message)) throw new Error(`Entry ${entryId} not found`);
        log(`setLabel: ${e.message}`);
      }
      if (text) local.set(entryId, text);
      else local.delete(entryId);
    },
    getLabel(id) {
      const s = entries();
      return s.local ? local.get(id) : labelOf(s.all, id);
    },
    getCommands() {
      const mine = own().map((c) => ({ name: c.name, description: c.description, source: "extension", sourceInfo: { path: file } }));
      let list;
      try {
        list = syncRPC("get_commands", {}).commands;
      } catch (e) {
        log(`getCommands: ${e.message}; listing this extension's own`);
        return mine;
      }
      // cairn does not know which file a pi extension's command is in:
      // this extension's own say so.
      return list.map((c) => {
        const m = c.source === "extension" ? mine.find((x) => x.name === c.name) : undefined;
        return { ...c, sourceInfo: c.sourceInfo ?? m?.sourceInfo ?? { path: "" } };
      });
    },
  };
}

/**
 * compactEvent completes session_before_compact as pi gives it: the
 * abort signal, fileOps as sets, and the branch's entries (read from
 * cairn when a handler asks for them).
 */
export function compactEvent(event, signal, branch) {
  event.signal = signal;
  const ops = event.preparation?.fileOps;
  if (ops) for (const k of ["read", "written", "edited"]) ops[k] = new Set(ops[k] || []);
  let entries;
  Object.defineProperty(event, "branchEntries", { enumerable: true, get: () => (entries ??= branch()) });
  return event;
}

/** customMessage is pi's sendMessage(message, options) as send_message's params. */
export function customMessage(message, options) {
  const c = message?.content ?? [];
  const content = (typeof c === "string" ? [{ type: "text", text: c }] : Array.isArray(c) ? c : [])
    .filter((b) => b && (b.type === "text" || b.type === "image"))
    .map((b) => (b.type === "text" ? { type: "text", text: String(b.text ?? "") } : { type: "image", data: String(b.data ?? ""), mimeType: String(b.mimeType ?? "") }));
  const p = { customType: String(message?.customType ?? ""), content };
  if (message?.display) p.display = true;
  if (message?.details !== undefined) p.details = message.details;
  if (typeof options?.triggerTurn === "boolean") p.triggerTurn = options.triggerTurn;
  if (["steer", "followUp", "nextTurn"].includes(options?.deliverAs)) p.deliverAs = options.deliverAs;
  return p;
}

/**
 * newSession is pi's ctx.newSession({parentSession, setup, withSession}):
 * cairn starts the conversation (new_session), then setup gets the session
 * manager (appendCustomEntry writes to the new conversation) and
 * withSession a context of the new session.
 */
export async function newSession(rpc, options, sessionManager, api, freshContext, unsupported) {
  const p = {};
  if (typeof options?.parentSession === "string" && options.parentSession) p.parentSession = options.parentSession;
  const r = await rpc("new_session", p);
  if (r?.cancelled) return { cancelled: true };
  if (typeof options?.setup === "function") {
    const manager = Object.create(sessionManager);
    manager.appendCustomEntry = (customType, data) => api.appendEntry(customType, data);
    for (const m of ["appendMessage", "appendCustomMessageEntry", "appendModelChange", "appendThinkingLevelChange"]) {
      manager[m] = () => {
        unsupported(`newSession setup's ${m}`);
        throw new Error(`${m} in newSession's setup is not in cairn's extension protocol yet`);
      };
    }
    await options.setup(manager);
  }
  if (typeof options?.withSession === "function") await options.withSession(freshContext());
  return { cancelled: false };
}
