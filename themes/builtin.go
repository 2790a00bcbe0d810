package themes

import (
	_ "embed"
	"fmt"
	"sync"
)

//go:embed dark.json
var darkJSON []byte

//go:embed light.json
var lightJSON []byte

// builtin parses one embedded theme on first use, so a session that only
// ever shows the dark theme never pays for the light one.
func builtin(data []byte) func() *Theme {
	return sync.OnceValue(func() *Theme {
		t, err := Parse(data)
		if err != nil {
			// The embedded files are checked by the package tests.
			panic(fmt.Sprintf("themes: built-in theme does not parse: %v", err))
		}
		return t
	})
}

var (
	darkTheme  = builtin(darkJSON)
	lightTheme = builtin(lightJSON)
)

// Dark returns the built-in theme for dark backgrounds, named "dark".
func Dark() *Theme { return darkTheme() }

// Light returns the built-in theme for light backgrounds, named "light".
func Light() *Theme { return lightTheme() }

// Builtin returns the built-in theme with the given name, or nil.
func Builtin(name string) *Theme {
	switch name {
	case "dark":
		return Dark()
	case "light":
		return Light()
	}
	return nil
}

// BuiltinNames lists the built-in theme names in sorted order.
func BuiltinNames() []string { return []string{"dark", "light"} }

// BuiltinJSON returns the source of a built-in theme, a starting point for a
// user's own theme; nil when there is no built-in by that name.
func BuiltinJSON(name string) []byte {
	switch name {
	case "dark":
		return append([]byte(nil), darkJSON...)
	case "light":
		return append([]byte(nil), lightJSON...)
	}
	return nil
}
