module github.com/cairn-dev/cairn

go 1.26.0

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	go.uber.org/goleak v1.3.0
	mvdan.cc/sh/v3 v3.14.1
)
