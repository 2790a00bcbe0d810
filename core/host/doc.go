// Package host is what one cairn process shares between its sessions, and
// how other clients reach the sessions while they run.
//
// A Host is made once per process. It keeps:
//
//   - one set of MCP servers per project and configuration (MCP): every
//     session of a project that names the same servers uses the same
//     processes, each session with its own view of their tools (an
//     mcp.Source over the shared manager), and the servers stop when the
//     last session using them ends;
//   - the live sessions of the process (Register, Sessions, Find), whatever
//     front end owns them (the TUI, rpc, ACP, the adapters);
//   - the attach socket (Listen): a Unix socket in a directory only the
//     person can open (Dir, mode 0700), on which a client that proves to be
//     the same user (SO_PEERCRED on Linux) reaches the live sessions. What
//     is spoken there is up to the caller (cmd/cairn serves ACP); nothing
//     listens on the network.
//
// A nil *Host shares nothing and serves nothing: every session then gets
// parts of its own, as before hosts existed (tests build sessions that way).
package host
