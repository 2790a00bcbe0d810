# cairn's everyday commands. `make help` lists them.

GO       ?= go
BIN      ?= bin/cairn
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
ARGS     ?=
# cairn uses no cgo; built without it the binary is static and starts about
# 1 ms sooner in 1.3 MiB less memory (make bench-startup). CGO=1 links libc.
CGO      ?= 0

.PHONY: help build run test bench bench-startup bench-rpc bench-tui bench-soak bench-getmessages lint demo demo-tui install fuzz clean screenshots-web

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-13s %s\n", $$1, $$2}'

# Two builds of ./cmd/cairn: bin/cairn without the TUI's libraries (-tags
# headless: every headless mode, starting in a third of the time) and
# bin/cairn-tui with everything; bin/cairn hands the full-screen interface
# and HTML exports to the cairn-tui beside it. go build ./cmd/cairn alone
# makes the full build, which needs nothing beside it.
TUIBIN   := $(dir $(BIN))cairn-tui

build: ## build bin/cairn (headless modes, fast start) and bin/cairn-tui (the TUI; bin/cairn hands over to it)
	@[ -x $(BIN) ] || echo "building $(BIN) and $(TUIBIN) (the first build fetches and compiles the dependencies: about a minute)..."
	CGO_ENABLED=$(CGO) $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(TUIBIN) ./cmd/cairn
	CGO_ENABLED=$(CGO) $(GO) build -tags headless -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/cairn

run: build ## build and open cairn's TUI (ARGS are passed on, e.g. make run ARGS='-p "hello"')
	./$(BIN) $(ARGS)

# The Node projects tests drive cairn with: pi's RpcClient 0.73.1 and 0.87.1,
# the ACP TypeScript SDK, the MCP reference servers, and pi's examples that
# need npm install; PI_PACKAGES is ~/.cairn/npm as `cairn install` leaves it
# (a published pi package, installed with --legacy-peer-deps as pi does).
PIEX := core/piext/testdata/pi-examples
NODE_TESTDEPS := rpcmode/pi/testdata/rpcclient rpcmode/pi/testdata/rpcclient087 rpcmode/pi/testdata/piacp rpcmode/acp/testdata/acpclient core/mcp/testdata/servers core/lsp/testdata/tsls \
	$(PIEX)/custom-provider-anthropic $(PIEX)/with-deps $(PIEX)/sandbox $(PIEX)/gondolin
PI_PACKAGES := cmd/cairn/testdata/pipackages

test: ## vet, then every test with the race detector; installs the tests' npm packages once and says what it must skip
	@if ! command -v npm >/dev/null; then \
	  echo "make test: npm not found, so the tests that drive cairn with pi's RpcClient, the ACP SDK and the MCP reference servers will be skipped (install Node.js 18+ and npm to run them)"; \
	else for d in $(NODE_TESTDEPS); do [ -d $$d/node_modules ] && continue; \
	  echo "make test: installing the npm packages of $$d for its tests (once; needs the npm registry)"; \
	  npm ci --prefix $$d --ignore-scripts --no-audit --no-fund --loglevel=error || exit 1; done; \
	  [ -d $(PI_PACKAGES)/node_modules ] || { echo "make test: installing the pi package of $(PI_PACKAGES) for its test (once; needs the npm registry)"; \
	  npm ci --prefix $(PI_PACKAGES) --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error || exit 1; }; fi
	@command -v tmux >/dev/null || echo "make test: tmux not found, so the TUI's terminal tests (e2e/) will be skipped (install tmux to run them)"
	@command -v python3 >/dev/null || echo "make test: python3 not found, so the tests that run the Python extension example will be skipped (install python3 to run them)"
	@command -v chromium >/dev/null || echo "make test: chromium not found, so the web page's browser tests (rpcmode/webui) will be skipped (apt-get install chromium to run them)"
	@[ -n "$$CAIRN_PI" ] || [ -n "$$PI_NODE" ] || [ -e "$${PI_CACHE:-$$HOME/.cache/cairn-pi}/pi-0.87.1/pi" ] || \
	  echo "make test: pi 0.87.1 not found (CAIRN_PI, PI_NODE or ~/.cache/cairn-pi), so TestPiDiff, which compares cairn with pi itself, will be skipped (docs/development.md says how to install it)"
	$(GO) vet ./...
	$(GO) vet -tags headless ./cmd/cairn
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null; then \
	  echo "$(GO) test -race -count=1 -timeout 30m ./..."; $(GO) test -race -count=1 -timeout 30m ./...; \
	else \
	  echo "make test: the race detector needs cgo and a C compiler ($$($(GO) env CC)), which are missing: testing without -race"; \
	  echo "$(GO) test -count=1 -timeout 30m ./..."; $(GO) test -count=1 -timeout 30m ./...; \
	fi

screenshots-web: ## photograph the web page (cairn serve) at desktop and phone widths into docs/screenshots (needs chromium)
	$(GO) test -count=1 -run TestScreenshots ./rpcmode/webui -screenshots "$(CURDIR)/docs/screenshots"

bench: ## run the benchmarks (medians need -count; see README)
	$(GO) test -run='^$$' -bench=. -benchmem -count=$${COUNT:-5} ./...

bench-startup: ## start-up of cairn --version and --mode rpc beside the floor (a static Go line-echo) and pi 0.87.1 if installed: median wall time and peak RSS (RUNS=11)
	RUNS=$${RUNS:-11} scripts/bench-startup.sh

bench-rpc: bench-startup ## bench-startup, then cairn --mode rpc streaming side by side with pi 0.87.1 (RUNS=5; installs pi and Node 22 from npm once)
	@if [ -f "$${CAIRN_SHARED:-../shared}/tools/fakellm.js" ]; then RUNS=$${RUNS:-5} scripts/bench-rpc.sh; \
	else echo "bench-rpc: $${CAIRN_SHARED:-../shared}/tools is missing (set CAIRN_SHARED), so the streaming comparison with pi is skipped"; fi

bench-tui: build ## the TUI beside the floor (a Bubble Tea program with one view) and pi 0.87.1 under tmux at 120x40 (RUNS=5 runs each; PI_VERSION=0.73.1 for the older pi)
	RUNS=$${RUNS:-5} scripts/bench-tui.sh

bench-soak: ## a 2,000-turn session in the TUI under tmux (50 KB bash result and 2 KB answer a turn): RSS at turns 100-2,000, CPU per key at the end (SOAK_TURNS, SOAK_HEAP=dir)
	scripts/bench-soak.sh

bench-getmessages: ## rpc get_messages on 27 MB and 135 MB sessions beside pi 0.87.1: wall, CPU, peak RSS (RUNS=5)
	RUNS=$${RUNS:-5} scripts/bench-getmessages.sh

.PHONY: bench-piext
bench-piext: ## 10 of pi's example extensions in cairn beside pi 0.87.1 (start to get_commands: wall, CPU, peak RSS), and start-up without extensions beside the merge base (RUNS=7)
	RUNS=$${RUNS:-7} scripts/bench-piext.sh

lint: ## gofmt check and vet
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fuzz: ## fuzz each parser for FUZZTIME (default 20s each)
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$${FUZZTIME:-20s} $$pkg; \
	  done; done

demo: build ## print mode on the scripted demo (cairn --demo -p; no API key needed)
	@echo "== cairn demo: the faux provider plays back a script; no model is involved =="
	./$(BIN) --demo -p "make Greet use the name"

demo-tui: build ## open the TUI on the scripted demo (cairn --demo; no API key needed)
	./$(BIN) --demo

install: ## install cairn and cairn-tui into GOBIN (or GOPATH/bin)
	@dir=$$($(GO) env GOBIN); [ -n "$$dir" ] || dir=$$($(GO) env GOPATH | cut -d: -f1)/bin; mkdir -p "$$dir" && \
	CGO_ENABLED=$(CGO) $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o "$$dir/cairn-tui" ./cmd/cairn && \
	CGO_ENABLED=$(CGO) $(GO) build -tags headless -trimpath -ldflags '$(LDFLAGS)' -o "$$dir/cairn" ./cmd/cairn && \
	echo "installed $$dir/cairn and $$dir/cairn-tui (keep them side by side)"

clean: ## remove build output
	rm -rf bin
