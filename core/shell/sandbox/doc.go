// Package sandbox confines the commands cairn runs for the model and for a
// person (the bash tool, rpc mode's bash, `!cmd`) with the operating
// system's own sandbox, so a command can change only the project and
// cannot read the person's keys or reach the network.
//
// What a sandboxed command may do (a Policy):
//   - Write: only inside the project, the system temporary directory and the
//     directories the person adds (sandbox.allowWrite).
//   - Read: everywhere except the denied paths (sandbox.denyRead; by default
//     ~/.ssh, ~/.aws, ~/.config/gcloud and cairn's models.json, which holds
//     API keys). A denied directory's names can still be listed where its
//     parent can; its files cannot be opened.
//   - Not write cairn's control files in the project (.cairn/, AGENTS.md,
//     CLAUDE.md, .mcp.json, .git/hooks, .git/config), which steer cairn or
//     run as programs: those that exist when the command starts are mounted
//     read-only over themselves in a mount namespace of the command's own.
//     Landlock only grants, and cannot take a right back inside a granted
//     tree, so without that namespace (no user namespaces on the system)
//     they stay writable and Status says so.
//   - Network: none (TCP connect and bind refused), all, or TCP connections
//     to the listed ports only. Landlock filters TCP by port, never by host:
//     ["example.com:443"] allows port 443 to every host. UDP (and so DNS) is
//     not filtered before Landlock ABI 10.
//
// On Linux the rules are enforced by Landlock. The sandboxed command is
// started through cairn's own executable (`cairn __sandbox-exec <policy> --
// shell -c line`), which restricts itself and then executes the shell, so
// cairn itself is never restricted: every program that embeds this package
// calls RunIfChild first thing in main (tests, in TestMain). On macOS the
// same rules are a sandbox-exec profile (Profile). Elsewhere, and on a
// Linux kernel without Landlock, there is no sandbox: Probe says so.
package sandbox
