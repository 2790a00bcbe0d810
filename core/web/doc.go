// Package web holds the tools that reach the web: web_fetch (a page as
// Markdown) and web_search (a search API the person configures). Both are
// of the network approval kind (core.CategoryNetwork): the gate asks per
// host, and the sandbox's network setting, when the sandbox is on, can
// refuse them outright (SandboxAllows). They send none of cairn's
// credentials.
package web
