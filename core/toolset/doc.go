// Package toolset is the live registry of the tools a session may call: the
// one place that decides what tools exist.
//
// A Registry holds the built-in tools, fixed when it is made, and any number
// of Sources whose tools come and go while the session runs (the MCP
// servers today; extensions later). Each model request reads Tools, so a
// server that connects mid-session, or says its tools changed, changes the
// next request's tools. Find answers a call by name among every tool
// callable now, declared or not: the model may name a tool it saw in an
// earlier turn or in a search.
//
// Wait is the one bounded wait for sources still starting, used before a
// run's first request in every front end: it says which parts it waits
// for, gives up on those still starting at the limit (never waiting for
// them again), and reports parts that failed to start, once each.
//
// A View is the registry narrowed by a filter (a mode, an agent
// definition): it can only remove tools, never add them.
package toolset
