module github.com/cairn-dev/cairn

go 1.26

require go.uber.org/goleak v1.3.0 // indirect
