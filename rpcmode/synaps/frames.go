package synaps

// MaxFrameBytes is the longest inbound line the protocol allows: 1 MiB,
// not counting its line ending.
const MaxFrameBytes = 1 << 20
