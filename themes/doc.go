// Package themes will hold the theme schema, the built-in themes embedded in
// the binary, the loader for user themes and the bridge to chroma styles for
// syntax highlighting.
package themes
