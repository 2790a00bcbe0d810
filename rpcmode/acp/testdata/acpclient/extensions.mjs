// Drives `cairn --mode acp --approval yolo` with the official ACP
// TypeScript SDK and the three example extensions installed (CAIRN_DIR's
// extensions directory): the Python /greet command's select and confirm
// arrive as session/request_permission and its status as a notice; the Go
// word_count tool answers; the Node gate's select blocks rm -rf.
// Run by rpcmode/acp's TestOfficialClientExtensions:
//   node extensions.mjs <cairn binary> <project dir>
// Prints one JSON line with what it saw; exits 1 with the reason on failure.
import * as acp from "@agentclientprotocol/sdk";
import { connect, runFlows, startCairn } from "./harness.mjs";

const [bin, project] = process.argv.slice(2);
const cairn = startCairn(bin, project, ["--approval", "yolo"]);
const updates = [];
const asked = [];

const app = acp
  .client({ name: "cairn-extensions-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => updates.push(params.update))
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    asked.push({ title: params.toolCall.title, options: params.options.map((o) => `${o.optionId}:${o.kind}`) });
    // cairn names the extension that asks before its title.
    const t = params.toolCall.title.replace(/^Extension [^:]+: /, "");
    const pick = t.startsWith("Pick a greeting") ? "Ahoy" : t.startsWith("Send it?") ? "yes" : t.startsWith("Allow dangerous command?") ? "Block" : null;
    if (!pick) return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: pick } };
  });

const conn = connect(app, cairn);
const agent = conn.agent;
const text = (u) => u.content?.text ?? "";
await runFlows(cairn, conn, async (seen) => {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: "cairn-extensions-test", version: "0" },
  });
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const prompt = (t) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: t }] });
  // The extensions start beside the session: /greet is listed once ready.
  for (let i = 0; i < 200; i++) {
    if (updates.some((u) => u.sessionUpdate === "available_commands_update" && u.availableCommands.some((c) => c.name === "greet"))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  seen.commands = updates.filter((u) => u.sessionUpdate === "available_commands_update").pop()?.availableCommands.map((c) => c.name);
  seen.greet = (await prompt("/greet ann")).stopReason;
  seen.greetText = updates.filter((u) => u.sessionUpdate?.endsWith("_chunk")).map(text).join("");
  seen.count = (await prompt("count")).stopReason;
  seen.wordCount = updates.filter((u) => u.toolCallId === "call_wc" && u.content).flatMap((u) => u.content.map((c) => c.content?.text ?? "")).join("");
  seen.clean = (await prompt("clean up")).stopReason;
  seen.rm = updates.filter((u) => u.toolCallId === "call_rm" && u.status).map((u) => u.status).pop();
  seen.rmText = updates.filter((u) => u.toolCallId === "call_rm" && u.content).flatMap((u) => u.content.map((c) => c.content?.text ?? "")).join("");
  seen.asked = asked;
});
