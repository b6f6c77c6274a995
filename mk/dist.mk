# `make dist`: everything a release needs, named with the one version (web/package.json's), in
# $(DIST_DIR) (not tracked): webmcp-mcp's archives for every platform with SHA256SUMS, the MCP
# Bundle, the extension for Chromium-family browsers and for Firefox, and the npm package; then
# `make dist-check` tries them as a new user would. docs/releasing.md is the checklist.

DIST_DIR   := out/dist
DIST_WORK  := out/distwork
PLATFORMS  := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
# The packaging tools at the versions tools/release/package-lock.json pins.
RELEASE_TOOLS := tools/release/node_modules/.installed-by-npm-ci
MCPB    := tools/release/node_modules/.bin/mcpb
WEB_EXT := tools/release/node_modules/.bin/web-ext
GORELEASER ?= $(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1
# How the binaries are built: gobuild, a loop of `go build` making what .goreleaser.yaml
# describes; or goreleaser (DIST_BUILDER=goreleaser, or GORELEASER=path of an installed one),
# which `go run` must first download and build, many minutes the first time: gobuild is the
# default so that `make dist` needs nothing but Go and npm.
DIST_BUILDER ?= gobuild
MANIFEST := $(GO) run ./internal/build/manifest -version $(VERSION)

.PHONY: dist dist-binaries dist-bundle dist-bundle-linux dist-extensions dist-npm dist-check installed

$(RELEASE_TOOLS): tools/release/package.json tools/release/package-lock.json
	cd tools/release && npm ci --no-audit --no-fund
	touch $@

dist: build node $(RELEASE_TOOLS)
	@case "$(VERSION)" in *-*|"") echo "dist: version '$(VERSION)' is not major.minor.patch"; exit 1;; esac
	rm -rf $(DIST_DIR) $(DIST_WORK) && mkdir -p $(DIST_DIR) $(DIST_WORK)
	@$(MAKE) --no-print-directory dist-binaries dist-bundle dist-extensions dist-npm
	cd $(DIST_DIR) && sha256sum $$(ls | grep -v SHA256SUMS) > SHA256SUMS
	@ls -l $(DIST_DIR)
	@$(MAKE) --no-print-directory dist-check

# Each platform's notices (out/notices, which .goreleaser.yaml puts in the archives), then the
# binaries and archives: reproducible (-trimpath, no build ID, the commit's time on the files).
dist-binaries:
	@mkdir -p out/notices
	@for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; \
	  $(GO) run ./internal/build/notices -pkg ./cmd/webmcp-mcp -goos $$os -goarch $$arch \
	    -o out/notices/THIRD_PARTY_NOTICES_$${os}_$${arch} || exit 1; \
	  mkdir -p out/notices/$${os}_$${arch}; \
	  cp out/notices/THIRD_PARTY_NOTICES_$${os}_$${arch} out/notices/$${os}_$${arch}/THIRD_PARTY_NOTICES; done
ifeq ($(DIST_BUILDER),goreleaser)
	WEBMCP_BRIDGE_VERSION=$(VERSION) $(GORELEASER) release --snapshot --clean
	cp out/goreleaser/*.tar.gz out/goreleaser/*.zip $(DIST_DIR)/
	@for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  mkdir -p $(DIST_WORK)/bin/$${os}_$${arch}; \
	  cp out/goreleaser/webmcp-mcp_$${os}_$${arch}*/webmcp-mcp$$ext $(DIST_WORK)/bin/$${os}_$${arch}/; done
else
	@for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  d=$(DIST_WORK)/bin/$${os}_$${arch}; name=webmcp-mcp_$(VERSION)_$${os}_$${arch}; \
	  echo "go build $$name"; \
	  WEBMCP_BRIDGE_VERSION=$(VERSION) CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -buildvcs=false \
	    -ldflags "-s -w -buildid= -X main.version=$(VERSION)" -o $$d/webmcp-mcp$$ext ./cmd/webmcp-mcp || exit 1; \
	  cp LICENSE README.md $$d/ && cp out/notices/THIRD_PARTY_NOTICES_$${os}_$${arch} $$d/THIRD_PARTY_NOTICES; \
	  touch -d '2000-01-01T00:00:00Z' $$d/*; \
	  if [ $$os = windows ]; then (cd $$d && rm -f ../$$name.zip && TZ=UTC zip -X -q ../$$name.zip webmcp-mcp.exe LICENSE README.md THIRD_PARTY_NOTICES) && mv $(DIST_WORK)/bin/$$name.zip $(DIST_DIR)/; \
	  else tar -C $$d --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -czf $(DIST_DIR)/$$name.tar.gz webmcp-mcp LICENSE README.md THIRD_PARTY_NOTICES; fi; \
	done
endif

# The MCP Bundle: the manifest with the version, the server for macOS (universal: amd64 and
# arm64 in one file), Windows (amd64, which Windows on arm64 runs too) and Linux (amd64),
# validated and packed by mcpb. mcpb dates every entry with the time it packs, and reads no
# SOURCE_DATE_EPOCH: zipstable.mjs dates them 2000-01-01 afterwards (and the modes are set here,
# not left to the umask), so that the .mcpb of a commit is the same bytes on every run.
dist-bundle: dist-bundle-linux
	$(GO) run ./internal/build/universal -o $(DIST_WORK)/bundle/server/webmcp-mcp \
		$(DIST_WORK)/bin/darwin_amd64/webmcp-mcp $(DIST_WORK)/bin/darwin_arm64/webmcp-mcp
	cp $(DIST_WORK)/bin/windows_amd64/webmcp-mcp.exe $(DIST_WORK)/bundle/server/
	cp LICENSE README.md out/notices/THIRD_PARTY_NOTICES_darwin_* out/notices/THIRD_PARTY_NOTICES_windows_amd64 \
		out/notices/THIRD_PARTY_NOTICES_linux_amd64 $(DIST_WORK)/bundle/
	find $(DIST_WORK)/bundle -type f -exec chmod 0644 {} + && chmod 0755 $(DIST_WORK)/bundle/server/*
	$(MCPB) validate $(DIST_WORK)/bundle/manifest.json
	$(MCPB) pack $(DIST_WORK)/bundle $(DIST_DIR)/webmcp-bridge_$(VERSION).mcpb
	node tools/release/zipstable.mjs $(DIST_DIR)/webmcp-bridge_$(VERSION).mcpb

# The bundle's manifest and its Linux server, unpacked: all that an MCPB host on Linux runs.
dist-bundle-linux:
	rm -rf $(DIST_WORK)/bundle && mkdir -p $(DIST_WORK)/bundle/server
	$(MANIFEST) -for mcpb -in tools/release/mcpb-manifest.json -o $(DIST_WORK)/bundle/manifest.json
	cp $(DIST_WORK)/bin/linux_amd64/webmcp-mcp $(DIST_WORK)/bundle/server/webmcp-mcp-linux

# The extension, from the unpacked build (web/dist/extension) with each browser's manifest: a
# zip for the Chrome Web Store (the manifest keeps key, so the ID stays) and an .xpi built by
# web-ext, which lints it first. web-ext (zip-dir, JSZip) dates the entries with the time it
# runs, and adds the files in the order their reads finish: zipstable.mjs sorts and dates them.
dist-extensions:
	rm -rf $(DIST_WORK)/chromium $(DIST_WORK)/firefox
	cp -r $(DIST)/extension $(DIST_WORK)/chromium && cp -r $(DIST)/extension $(DIST_WORK)/firefox
	$(MANIFEST) -for chromium -in web/extension/manifest.json -o $(DIST_WORK)/chromium/manifest.json
	$(MANIFEST) -for firefox -in web/extension/manifest.json -o $(DIST_WORK)/firefox/manifest.json
	find $(DIST_WORK)/chromium $(DIST_WORK)/firefox -exec touch -d '2000-01-01T00:00:00Z' {} +
	cd $(DIST_WORK)/chromium && TZ=UTC zip -X -q -r ../../../$(DIST_DIR)/webmcp-bridge-chromium_$(VERSION).zip .
	$(WEB_EXT) lint --source-dir $(DIST_WORK)/firefox --warnings-as-errors
	$(WEB_EXT) build --source-dir $(DIST_WORK)/firefox --artifacts-dir $(DIST_WORK) --filename webmcp-bridge-firefox_$(VERSION).xpi --overwrite-dest
	mv $(DIST_WORK)/webmcp-bridge-firefox_$(VERSION).xpi $(DIST_DIR)/
	node tools/release/zipstable.mjs $(DIST_DIR)/webmcp-bridge-firefox_$(VERSION).xpi

# The npm package as `npm publish` would upload it.
dist-npm:
	cd web && npm pack --pack-destination ../$(DIST_DIR)

# The release tried as a new user would: tools/release/check.mjs (the archive, the bundle's
# server listing and calling a page's tools, the npm package, web-ext lint), then the extensions
# installed from the zip and the .xpi into Chromium and Firefox ESR and reached through the host
# (TestInstalled*, internal/testing/browsertest/installed_test.go).
INSTALLED_TESTS = WEBMCP_BRIDGE_BROWSER_TESTS=1 WEBMCP_BRIDGE_RELEASE=$(abspath $(1)) \
	CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" \
	$(GO) test -count=1 -timeout 10m -run '^TestInstalled' ./internal/testing/browsertest/
dist-check: $(RELEASE_TOOLS)
	CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" node tools/release/check.mjs $(DIST_DIR) $(VERSION)
	$(call INSTALLED_TESTS,$(DIST_DIR))

# The same tries for `make test`, on what a Linux user installs, made alone (not all of make
# dist: no other platform, no bundle packed): the linux/amd64 archive, the two extensions, and
# the bundle's manifest with its Linux server, unpacked.
INSTALLED_DIR  := out/installed
INSTALLED_WORK := out/installedwork
installed: build chromium node firefox $(RELEASE_TOOLS)
	rm -rf $(INSTALLED_DIR) $(INSTALLED_WORK) && mkdir -p $(INSTALLED_DIR) $(INSTALLED_WORK)
	@$(MAKE) --no-print-directory DIST_DIR=$(INSTALLED_DIR) DIST_WORK=$(INSTALLED_WORK) PLATFORMS=linux/amd64 \
		dist-binaries dist-extensions dist-bundle-linux
	$(MCPB) validate $(INSTALLED_WORK)/bundle/manifest.json
	CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" node tools/release/bundlecheck.mjs $(INSTALLED_WORK)/bundle $(VERSION)
	$(call INSTALLED_TESTS,$(INSTALLED_DIR))
