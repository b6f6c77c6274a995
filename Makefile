# webmcp-bridge — `make demo` builds and serves the demo page; `make test` runs every test.
GO      ?= go
PORT    ?= 8080
DIST    := web/dist
WASM    := $(DIST)/webmcp-bridge.wasm
GOROOT  := $(shell $(GO) env GOROOT)

# The one version number: web/package.json's. The build writes it into the module, the loader
# and the extension's manifest.
VERSION := $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' web/package.json)
TESTDIST := out/testdist

.PHONY: all build build-test extension test vet unit ts types notices browser chromium node fuzz bench demo clean dist

all: build

# The loader (classic script and ES module), the Worker (with the wasm_exec.js of the same Go) and
# the module, in web/dist (not tracked), then the test build and the unpacked extension.
# wasm_exec.js is also copied for the benchmark's minimal Go program.
build:
	@test -n "$(VERSION)" || { echo "no version in web/package.json"; exit 1; }
	@mkdir -p $(DIST)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w -X main.version=$(VERSION)" -o $(WASM) ./wasm
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" $(DIST)/wasm_exec.js
	$(GO) run ./internal/build/jsbuild -src web/src -out $(DIST) -version $(VERSION) -wasm-exec "$(GOROOT)/lib/wasm/wasm_exec.js"
	rm -rf $(DIST)/types && cp -r web/types $(DIST)/types
	cp web/src/render.css $(DIST)/
	@# What npm puts in the tarball beside dist/: the licence, the notices of the code the module
	@# carries (THIRD_PARTY_NOTICES, written by `make notices`) and the README.
	cp LICENSE THIRD_PARTY_NOTICES README.md web/
	@echo "built $(WASM) $(VERSION): $$(wc -c < $(WASM)) bytes, $$(gzip -9 -c $(WASM) | wc -c) gzipped"
	@$(MAKE) --no-print-directory build-test extension

# The same loader with a module built with -tags webmcptest (test-only exports, panic stacks),
# for the browser tests and the benchmarks; never shipped.
build-test:
	@mkdir -p $(TESTDIST)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -tags webmcptest -ldflags="-X main.version=$(VERSION)-test" -o $(TESTDIST)/webmcp-bridge.wasm ./wasm
	$(GO) run ./internal/build/jsbuild -test -src web/src -out $(TESTDIST) -version $(VERSION) -wasm-exec "$(GOROOT)/lib/wasm/wasm_exec.js"
	cp $(DIST)/wasm_exec.js $(TESTDIST)/

# The unpacked extension in web/dist/extension: its scripts built from web/extension's TypeScript, its pages, the
# manifest with the version, and its own copy of the bridge (the panel's built whole, without chunks).
extension:
	@test -f $(WASM) || { echo "run make build first"; exit 1; }
	rm -rf $(DIST)/extension && mkdir -p $(DIST)/extension/dist
	$(GO) run ./internal/build/jsbuild -extension -src web/extension -out $(DIST)/extension -version $(VERSION)
	cp web/extension/*.html web/extension/*.css $(DIST)/extension/
	sed 's/__WEBMCP_BRIDGE_VERSION__/$(VERSION)/' web/extension/manifest.json > $(DIST)/extension/manifest.json
	cp LICENSE THIRD_PARTY_NOTICES $(DIST)/extension/
	cp $(DIST)/webmcp-bridge-extension.js $(DIST)/webmcp-bridge-worker.js $(DIST)/webmcp-bridge.wasm \
		$(DIST)/render.js $(DIST)/render.css $(DIST)/extension/dist/

demo: build
	$(GO) run ./cmd/webmcp-serve -dir web -addr localhost:$(PORT)

# Debian's chromium for the browser tests: installed with apt-get when missing and we are root.
CHROMIUM ?= $(shell command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null)
chromium:
	@if [ -z "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "chromium is missing: installing Debian's chromium with apt-get"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	  else \
	    echo "The browser tests need Chromium: install Debian's 'chromium' package (sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium."; exit 1; \
	  fi; \
	fi

# Node and npm for the MCP end-to-end tests (the official TypeScript SDK client): Debian's
# packages, installed with apt-get when missing and we are root.
node:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "node or npm is missing: installing Debian's nodejs and npm with apt-get"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; \
	  else \
	    echo "The MCP end-to-end tests need Node.js and npm: install Debian's 'nodejs' and 'npm' packages (sudo apt-get install nodejs npm)."; exit 1; \
	  fi; \
	fi

# Firefox ESR and WebKitGTK for the fallback's tests in every browser (mk/browsers.mk).
include mk/browsers.mk
include mk/dist.mk

browser: build chromium node firefox webkit
	WEBMCP_BRIDGE_BROWSER_TESTS=1 CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" $(GO) test -count=1 -timeout 40m ./internal/testing/browsertest/...

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt: these files need formatting:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

# Everything but the browser tests: the core, the module's handlers (natively), the JSON codec;
# then the packages whose state is shared between goroutines (the lazily built HTML policy, the
# module's handlers) again under the race detector.
unit:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v -e /internal/testing/browsertest)
	$(GO) test -count=1 -race ./sanitize/ ./wasm/

# web/'s tools (TypeScript, ESLint, Prettier, at the versions web/package-lock.json pins) in
# web/node_modules, installed again when the lockfile changes (the stamp is written after npm ci).
# An older checkout's web/node_modules was a link into the npm cache: it goes first.
WEB_TOOLS := web/node_modules/.installed-by-npm-ci
$(WEB_TOOLS): web/package.json web/package-lock.json
	@if [ -L web/node_modules ]; then rm web/node_modules; fi
	cd web && npm ci --no-audit --no-fund
	touch $@

# The loader's TypeScript, as web/'s `npm test` checks it: tsc's strict check, the linter, the
# formatting and the unit tests of web/test; then the published typings (web/types) against the
# sources.
ts: node $(WEB_TOOLS)
	cd web && npm test
	WEBMCP_BRIDGE_TS_TESTS=1 $(GO) test -count=1 -run TestTypingsAreCurrent ./internal/build/tstools/

# Writes THIRD_PARTY_NOTICES from the module's build list and the licence files of GOROOT and
# the module cache (commit it; internal/build/notices' test checks it).
notices:
	$(GO) run ./internal/build/notices -o THIRD_PARTY_NOTICES

# Writes web/types, the published typings, from web/src (commit them; `make ts` checks them).
types: node $(WEB_TOOLS)
	$(GO) run ./internal/build/tstools types

test: vet unit ts browser installed

# Short fuzz runs of every fuzz target (FUZZTIME per target).
FUZZTIME ?= 10s
fuzz:
	@for pkg in ./bridge ./bridge/inputschema ./sanitize ./internal/jsonvalue; do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

# Go benchmarks of the core, then one table from headless Chromium (cmd/webmcp-bench), which it also
# writes to docs/benchmarks.md with the run's date, machine and browser. DOMPurify and
# MCP-B's @mcp-b/global are installed with npm into .cache/bench as yardsticks only; they are not
# dependencies.
MCPB_VERSION := 5.1.0
bench: build chromium node
	$(GO) test -run '^$$' -bench . -benchmem ./bridge ./sanitize ./internal/mcpserver
	@mkdir -p .cache/bench
	@test -f .cache/bench/node_modules/dompurify/dist/purify.min.js || npm install --silent --no-audit --no-fund --prefix .cache/bench dompurify@3 || echo "npm could not install DOMPurify: that row will say so"
	@grep -qs '"version": "$(MCPB_VERSION)"' .cache/bench/node_modules/@mcp-b/global/package.json || npm install --silent --no-audit --no-fund --save-exact --prefix .cache/bench @mcp-b/global@$(MCPB_VERSION) || echo "npm could not install @mcp-b/global: the load row will say so"
	CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" GO="$(GO)" $(GO) run ./cmd/webmcp-bench
	@# What an MCP client receives from webmcp-mcp and from Playwright MCP (@playwright/mcp from npm).
	CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" GO="$(GO)" $(GO) run ./cmd/webmcp-bench -compare 20 -dist $(DIST) -docs docs/benchmarks.md
	@# webmcp-mcp -open and -extension beside MCP-B's local relay (@mcp-b/webmcp-local-relay from npm).
	CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" GO="$(GO)" $(GO) run ./cmd/webmcp-bench -relay 50 -dist $(DIST) -docs docs/benchmarks.md

clean:
	rm -rf $(DIST) out
