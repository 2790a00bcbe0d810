// Package e2e holds cairn's end-to-end tests: the real binary runs in a real
// terminal (tmux) against a fake OpenAI-compatible server in the test
// process, and the tests type keys and read the screen as a person would.
//
// The package has no code of its own outside its tests. Run it with
//
//	go test ./e2e/
//
// It needs tmux; without it the tests skip, unless the CI environment
// variable is set, when they fail. The screenshots in docs/screenshots come
// from the same harness:
//
//	go test ./e2e/ -run TestScreenshots -screenshots ../docs/screenshots
package e2e
