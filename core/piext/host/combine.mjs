// How cairn's pi extension host runs one extension's handlers of an event,
// with pi's runner's rules: handlers run in order, each seeing what the
// ones before changed, and the first that blocks or handles ends the
// event. The result is what the host tells cairn (protocol version 1's
// shapes, and version 2's context), or null for no change.

/** textOf is a message's text: a string, or its text blocks joined. */
export function textOf(content) {
  if (typeof content === "string") return content;
  return (content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
}

/**
 * combine runs the handlers of event (its type and fields) with ctx;
 * unsupported names a part of a result cairn does not carry yet.
 */
export async function combine(type, event, list, ctx, unsupported) {
  switch (type) {
    case "tool_call": {
      const before = JSON.stringify(event.input);
      for (const h of list) {
        const r = await h(event, ctx);
        if (r?.block) return { block: true, ...(r.reason ? { reason: String(r.reason) } : {}) };
      }
      const after = JSON.stringify(event.input);
      return after !== before ? { input: event.input } : null;
    }
    case "input": {
      let changed = false;
      for (const h of list) {
        const r = await h(event, ctx);
        if (r?.action === "handled") return { action: "handled" };
        if (r?.action === "transform") {
          event.text = r.text;
          if (r.images) event.images = r.images;
          changed = true;
        }
      }
      return changed ? { action: "transform", text: event.text, ...(event.images?.length ? { images: event.images } : {}) } : null;
    }
    case "before_agent_start": {
      const messages = [];
      let prompt;
      for (const h of list) {
        const r = await h(event, ctx);
        if (r?.systemPrompt !== undefined) event.systemPrompt = prompt = r.systemPrompt;
        if (r?.message) messages.push(textOf(r.message.content));
      }
      if (prompt === undefined && !messages.length) return null;
      return { ...(prompt !== undefined ? { systemPrompt: prompt } : {}), ...(messages.length ? { messages } : {}) };
    }
    case "tool_result": {
      let changed = false;
      for (const h of list) {
        const r = await h(event, ctx);
        if (!r) continue;
        for (const k of ["content", "details", "isError"]) {
          if (r[k] !== undefined) {
            event[k] = r[k];
            changed = true;
          }
        }
      }
      return changed ? { content: event.content, details: event.details, isError: event.isError } : null;
    }
    case "context": {
      // Each handler sees the messages the ones before returned.
      let changed = false;
      for (const h of list) {
        const r = await h(event, ctx);
        if (Array.isArray(r?.messages)) {
          event.messages = r.messages;
          changed = true;
        }
      }
      return changed ? { messages: event.messages } : null;
    }
    case "before_provider_request": {
      // A handler returns the payload to send instead, or nothing.
      let changed = false;
      for (const h of list) {
        const r = await h(event, ctx);
        if (r !== undefined) {
          event.payload = r;
          changed = true;
        }
      }
      return changed ? { payload: event.payload } : null;
    }
    case "resources_discover": {
      const out = {};
      for (const h of list) {
        const r = await h(event, ctx);
        for (const k of ["skillPaths", "promptPaths", "themePaths"]) {
          if (Array.isArray(r?.[k]) && r[k].length) out[k] = [...(out[k] || []), ...r[k].map(String)];
        }
      }
      return Object.keys(out).length ? out : null;
    }
    case "session_before_compact": {
      // pi's runner: a cancel ends it; else the last compaction given.
      let out = null;
      for (const h of list) {
        const r = await h(event, ctx);
        if (r?.cancel) return { cancel: true };
        if (r?.compaction) out = { compaction: compactionOf(r.compaction) };
      }
      return out;
    }
    case "session_before_switch":
    case "session_before_fork": {
      for (const h of list) {
        const r = await h(event, ctx);
        if (r?.cancel) return { cancel: true };
      }
      return null;
    }
    case "user_bash": {
      for (const h of list) {
        const r = await h(event, ctx);
        if (r?.result) return { result: { output: String(r.result.output ?? ""), exitCode: r.result.exitCode ?? 0 } };
        if (r?.operations) unsupported("user_bash operations");
      }
      return null;
    }
    default:
      for (const h of list) await h(event, ctx);
      return null;
  }
}

/** compactionOf is the part of pi's CompactionResult cairn keeps. */
function compactionOf(c) {
  const out = { summary: String(c.summary ?? "") };
  if (typeof c.firstKeptEntryId === "string") out.firstKeptEntryId = c.firstKeptEntryId;
  if (Number.isInteger(c.tokensBefore)) out.tokensBefore = c.tokensBefore;
  if (c.details !== undefined) out.details = c.details;
  if (c.usage && typeof c.usage === "object") out.usage = c.usage;
  return out;
}
