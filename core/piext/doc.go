// Package piext runs pi's TypeScript extensions in cairn, unchanged.
//
// pi (@earendil-works/pi-coding-agent) extensions are Node modules that get
// pi's ExtensionAPI. cairn runs them in one Node process, the pi extension
// host: a JavaScript program embedded in cairn (host/) and written to
// cairn's cache directory on first use. It loads each extension with jiti,
// the TypeScript loader pi itself uses (vendored at the version pi 0.87.1
// pins, as npm's own tarball), in a worker thread of its own, gives it pi's
// API over small faithful implementations of the pi packages extensions
// import, and speaks cairn's extension protocol (core/extension) to the
// session as one extension that registers what they all register.
//
// Discover and Entries find extensions the way pi 0.87.1 does (a
// directory's *.ts and *.js files, and its subdirectories' index.ts,
// index.js or package.json "pi.extensions"); Host turns the entries into
// the one extension.Config that starts the host, or a Config whose Err says
// what to install when node is missing.
package piext
