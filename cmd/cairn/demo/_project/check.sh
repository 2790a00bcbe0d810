#!/bin/sh
# The demo project's checks: a stand-in for `go test`, so the demo runs
# without Go installed.
echo "checking greet.go"
sleep 0.3
if grep -q 'fmt.Sprintf("Hello, %s!", name)' greet.go; then
	echo "ok    Greet uses the name"
else
	echo "FAIL  Greet ignores the name"
	exit 1
fi
sleep 0.3
if grep -q '^import "fmt"' greet.go; then
	echo "ok    greet.go imports fmt"
else
	echo "FAIL  greet.go does not import fmt"
	exit 1
fi
sleep 0.3
echo "PASS  2 checks"
