// pi's command line, as pi extensions find it: an extension that runs
// "the agent it runs in" again (pi's subagent example spawns
// `node <process.argv[1]> --mode json -p ...`) gets cairn, which reads
// pi's command line. The host points each worker's process.argv[1] here;
// cairn's executable comes from CAIRN_PI_CLI, set by cairn when it starts
// the host.
import { spawn } from "node:child_process";
import { constants } from "node:os";

const cairn = process.env.CAIRN_PI_CLI;
if (!cairn) {
  process.stderr.write("cairn's pi extension host: CAIRN_PI_CLI is not set, so there is no cairn to run\n");
  process.exit(127);
}
const child = spawn(cairn, process.argv.slice(2), { stdio: "inherit" });
// The caller's signals (an aborted subagent is sent SIGTERM) reach cairn.
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(sig, () => child.kill(sig));
}
child.on("error", (e) => {
  process.stderr.write(`cairn's pi extension host: cannot run ${cairn}: ${e.message}\n`);
  process.exit(127);
});
// A cairn ended by a signal exits as a shell reports it: 128 + its number.
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
