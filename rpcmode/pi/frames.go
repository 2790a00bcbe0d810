package pi

// MaxFrameBytes is the longest command line Serve accepts: 64 MiB, room for
// a prompt with several large images. A longer line is answered with an
// error and skipped up to the next newline.
const MaxFrameBytes = 64 << 20

// idPrefixBytes is how much of an oversized frame is kept to find its id.
const idPrefixBytes = 64 << 10
