// Package rpcmode holds cairn's headless front ends, each in its own
// subpackage, all driving the same core session: pi (the pi-compatible
// newline-delimited JSON protocol of `--mode rpc`) now; ACP, aionrs
// json-stream, synaps and a JSON-RPC socket later.
package rpcmode
