// Package rpcmode will hold cairn's headless front ends: the pi-compatible
// newline-delimited JSON protocol of `--mode rpc` first, and later ACP,
// aionrs json-stream, synaps and a JSON-RPC socket, each in its own
// subpackage, all driving the same core session.
package rpcmode
