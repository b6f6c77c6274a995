# webmcp-bridge — `make demo` builds and serves the demo page; `make test` runs every test.
GO      ?= go
PORT    ?= 8080
DIST    := web/dist
WASM    := $(DIST)/webmcp-bridge.wasm
GOROOT  := $(shell $(GO) env GOROOT)

.PHONY: all build test vet unit fuzz bench demo clean

all: build

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt: these files need formatting:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

unit:
	$(GO) test -count=1 ./bridge/... ./sanitize/...

test: vet unit

# Short fuzz runs of every fuzz target (FUZZTIME per target).
FUZZTIME ?= 10s
fuzz:
	@for pkg in ./bridge ./sanitize; do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bridge ./sanitize

clean:
	rm -rf $(DIST)
