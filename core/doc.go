// Package core is the vocabulary every other cairn package shares: messages and
// their content blocks, token usage and cost, models, thinking levels and tool
// specifications. It is a leaf: it imports nothing of ours but jsonscan (a
// leaf too, for reading and writing its JSON fast), so the provider layer,
// the tools, the session store and the front ends can all speak it without
// depending on each other.
//
// The JSON shapes of these types follow pi's (see shared/reference/pi.md §2) on
// purpose: session files and the pi-compatible event stream serialise them
// directly, so files and hosts written for pi work with cairn unchanged.
package core
