// target.mjs - the agent that client.mjs drives: cairn (the default) or, with
// RPCCLIENT_TARGET=pi, pi 0.87.1 itself, so that every expectation in
// client.mjs can be checked against the real thing.
//
// Both agents play the same scripted model. cairn reads it as a faux
// provider script (CAIRN_FAUX_SCRIPT); pi gets the same responses from the
// Go test's fake model (RPCCLIENT_FAKELLM makes one per script, in
// fakellm.js's script format) through a models.json, and runs from this project's node_modules under the Node named
// by PI_NODE (pi 0.87.1 needs Node >= 22.19; ../shared/tools/pi-install.sh
// installs one).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

// startTarget writes the agent's configuration under work and returns the
// RpcClient options, the model get_state should report, the exit code
// expected after SIGTERM, and a stop function.
// script is a faux script: {chunkSize, tokensPerSecond, responses}, where a
// response is {text} or {content: [toolCall]}; a response with
// summarize: true answers the compaction request.
export async function startTarget(work, script, settings) {
  const agentDir = path.join(work, "agent");
  const project = path.join(work, "project");
  fs.mkdirSync(agentDir);
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify(settings));
  if (process.env.RPCCLIENT_TARGET === "pi") return startPi(work, agentDir, project, script);
  return startCairn(work, agentDir, project, script);
}

function startCairn(work, agentDir, project, script) {
  const bin = process.env.CAIRN_BIN;
  if (!bin || !fs.existsSync(bin)) throw new Error(`CAIRN_BIN must name the cairn binary (got ${JSON.stringify(bin)})`);
  const scriptPath = path.join(work, "faux.json");
  fs.writeFileSync(scriptPath, JSON.stringify({ ...script, responses: script.responses.map(({ summarize, ...r }) => r) }));
  return {
    name: "cairn",
    project,
    model: { provider: "faux", id: "faux-1" },
    sigtermExit: 0,
    options: {
      cliPath: path.join(here, "cairn.mjs"),
      cwd: project,
      env: { CAIRN_BIN: bin, CAIRN_DIR: agentDir, CAIRN_FAUX_SCRIPT: scriptPath },
      provider: "faux",
      args: ["--approval", "yolo"],
    },
    stop: async () => {},
  };
}

async function startPi(work, agentDir, project, script) {
  const node = process.env.PI_NODE;
  if (!node || !fs.existsSync(node)) throw new Error(`PI_NODE must name a Node >= 22.19 binary (got ${JSON.stringify(node)})`);
  // The Go test makes a fake model per script (FakeLLMFactory).
  const factory = process.env.RPCCLIENT_FAKELLM;
  if (!factory) throw new Error("RPCCLIENT_FAKELLM is not set: run this through go test -run TestPiRpcClient087 ./rpcmode/pi/");
  // The faux script's pace, as per-chunk delays of the fake model.
  const size = script.chunkSize;
  const delayMs = Math.round((1000 * size) / script.tokensPerSecond);
  const turns = script.responses.map((r) => {
    const turn = r.summarize ? { when: "conversation to summarize" } : {};
    if (r.text !== undefined) {
      const chunks = [];
      for (let i = 0; i < r.text.length; i += size) chunks.push(r.text.slice(i, i + size));
      return { ...turn, textChunks: chunks, delayMs };
    }
    return { ...turn, toolCalls: r.content.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) };
  });
  const res = await fetch(factory, { method: "POST", body: JSON.stringify({ turns }) });
  if (!res.ok) throw new Error(`the fake model factory refused the script: ${res.status} ${await res.text()}`);
  const base = (await res.text()).trim();
  const model = { id: "fake-gpt", name: "Fake GPT", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify({ providers: { "fake-openai": {
    baseUrl: `${base}/v1`, api: "openai-completions", apiKey: "fake-key", models: [model] } } }));
  return {
    name: "pi",
    project,
    model: { provider: "fake-openai", id: "fake-gpt" },
    sigtermExit: 143,
    options: {
      cliPath: path.join(here, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js"),
      cwd: project,
      // RpcClient spawns "node" from PATH.
      env: { PATH: `${path.dirname(node)}:${process.env.PATH}`, PI_CODING_AGENT_DIR: agentDir },
      provider: "fake-openai",
      model: "fake-gpt",
      args: ["--offline"],
    },
    stop: async () => {},
  };
}
