// cairn.mjs - the cliPath handed to pi's RpcClient, which always runs
// `node <cliPath> --mode rpc ...` (0.87.1 as 0.73.1). It execs the cairn
// binary named by CAIRN_BIN with the same arguments and inherited stdio,
// forwards SIGTERM and SIGINT, and exits with cairn's exit code.
import { spawn } from "node:child_process";
import { constants } from "node:os";

const bin = process.env.CAIRN_BIN;
if (!bin) {
  process.stderr.write("cairn.mjs: set CAIRN_BIN to the cairn binary\n");
  process.exit(2);
}
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
child.on("error", (err) => {
  process.stderr.write(`cairn.mjs: cannot run ${bin}: ${err.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
