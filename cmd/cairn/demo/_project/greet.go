// Package greet says hello. It is the sample project of cairn's demo.
package greet

// Greet returns the greeting for name.
func Greet(name string) string {
	return "Hello, world!"
}
