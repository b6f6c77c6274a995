// Command manifest writes a release's manifests from their templates, with the one version
// (web/package.json's, which make passes as -version): the extension's for Chromium-family
// browsers and for Firefox from web/extension/manifest.json, which serves both unpacked, and
// the MCP Bundle's from tools/release/mcpb-manifest.json. Each browser gets only the keys it
// knows, so that neither store's checks (web-ext lint for Firefox) warn about the other's.
//
//	go run ./internal/build/manifest -for firefox -version 1.2.3 -in web/extension/manifest.json -o out/manifest.json
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
)

// placeholder is what the templates carry where the version goes.
const placeholder = "__WEBMCP_BRIDGE_VERSION__"

// versionPattern is the versions a manifest may carry: Chrome's and Firefox's manifests take
// dotted numbers only, so a release version has no pre-release suffix.
var versionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

func main() {
	target := flag.String("for", "", "chromium, firefox or mcpb")
	version := flag.String("version", "", "the version (web/package.json's)")
	in := flag.String("in", "", "the template")
	out := flag.String("o", "", "the manifest to write")
	flag.Parse()
	err := errors.New("-for, -version, -in and -o are required")
	if *target != "" && *version != "" && *in != "" && *out != "" {
		var tmpl, text []byte
		if tmpl, err = os.ReadFile(*in); err == nil {
			if text, err = generate(tmpl, *target, *version); err == nil {
				err = os.WriteFile(*out, text, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "manifest:", err)
		os.Exit(1)
	}
}

// generate is the manifest for target from the template tmpl, with version in place.
func generate(tmpl []byte, target, version string) ([]byte, error) {
	if !versionPattern.MatchString(version) {
		return nil, fmt.Errorf("version %q is not major.minor.patch", version)
	}
	if !bytes.Contains(tmpl, []byte(placeholder)) {
		return nil, fmt.Errorf("the template has no %s", placeholder)
	}
	var m map[string]any
	if err := json.Unmarshal(bytes.ReplaceAll(tmpl, []byte(placeholder), []byte(version)), &m); err != nil {
		return nil, fmt.Errorf("the template: %w", err)
	}
	switch target {
	case "chromium":
		delete(m, "browser_specific_settings")
		delete(m, "sidebar_action")
		if err := keepBackground(m, "service_worker"); err != nil {
			return nil, err
		}
	case "firefox":
		delete(m, "key")
		delete(m, "minimum_chrome_version")
		delete(m, "side_panel")
		if p, ok := m["permissions"].([]any); ok {
			m["permissions"] = slices.DeleteFunc(p, func(v any) bool { return v == "sidePanel" })
		}
		if err := keepBackground(m, "scripts"); err != nil {
			return nil, err
		}
	case "mcpb":
	default:
		return nil, fmt.Errorf("-for %q: chromium, firefox or mcpb", target)
	}
	text, err := json.MarshalIndent(m, "", "  ")
	return append(text, '\n'), err
}

// keepBackground leaves only the background key a browser runs: Chromium a service worker,
// Firefox event-page scripts.
func keepBackground(m map[string]any, key string) error {
	bg, ok := m["background"].(map[string]any)
	if !ok || bg[key] == nil {
		return fmt.Errorf("the template's background has no %s", key)
	}
	m["background"] = map[string]any{key: bg[key]}
	return nil
}
