//go:build !js

package devtools

import (
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/bundled"
	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// assetFiles are the files of web/dist the bridge needs in a page.
var assetFiles = []string{"webmcp-bridge.js", "webmcp-bridge-worker.js", "webmcp-bridge.wasm"}

// FindAssets returns the directory that holds the built bridge (web/dist, written by
// `make build`): dir if given, else $WEBMCP_BRIDGE_ASSETS, else a web/dist found in the working
// directory or a parent of it, or beside or above the executable; "" when there is none (a
// binary from `go install`): pages then get the embedded loader only.
func FindAssets(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv("WEBMCP_BRIDGE_ASSETS")
	}
	if dir != "" {
		if err := checkAssets(dir); err != nil {
			return "", err
		}
		return filepath.Abs(dir)
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			starts = append(starts, filepath.Dir(exe))
		}
	}
	for _, start := range starts {
		for d := start; ; d = filepath.Dir(d) {
			for _, cand := range []string{filepath.Join(d, "web", "dist"), filepath.Join(d, "webmcp-bridge")} {
				if checkAssets(cand) == nil {
					return cand, nil
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", nil
}

func checkAssets(dir string) error {
	for _, f := range assetFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("-assets %s: %s is missing (run `make build`, which writes web/dist): %w", dir, f, err)
		}
	}
	return nil
}

// ServeAssets serves the bridge's files on a loopback port to any page (pages of every origin
// load them, as they load the extension's web_accessible_resources) and returns their base URL.
// Only the three files are served; with dir "", none (the page's bridge finds its module
// missing and steps aside: what pages return is normalized by webmcp-mcp alone).
func ServeAssets(dir string) (base string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	for _, f := range assetFiles {
		if dir == "" {
			break
		}
		path := filepath.Join(dir, f)
		mux.HandleFunc("/"+f, func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Allow-Private-Network", "true") // a public page loading from loopback
			h.Set("Cross-Origin-Resource-Policy", "cross-origin")
			h.Set("Cache-Control", "no-cache")
			if strings.HasSuffix(f, ".wasm") {
				h.Set("Content-Type", "application/wasm")
			} else {
				h.Set("Content-Type", "text/javascript; charset=utf-8")
			}
			if r.Method == http.MethodOptions {
				h.Set("Access-Control-Allow-Methods", "GET")
				w.WriteHeader(http.StatusNoContent)
				return
			}
			http.ServeFile(w, r, path)
		})
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	return fmt.Sprintf("http://127.0.0.1:%d/", ln.Addr().(*net.TCPAddr).Port), func() { srv.Close() }, nil
}

//go:embed inject.js
var injectTemplate string

// notifyName is the function webmcp-mcp exposes to pages (chromedp.ExposeFunc): a page calls it
// when its tools change.
const notifyName = "__webmcpMcpToolsChanged"

// InjectScript is the script every page gets before its own: the embedded loader, told where
// its module is (served from dir; none when dir is ""), then the entry point webmcp-mcp calls.
// With a policy, the page's bridge is configured with it too (the result is normalized natively
// under it either way).
func InjectScript(dir, base string, policy *bridge.Policy) (string, error) {
	loader := []byte(bundled.Loader)
	cfg := map[string]any{"base": base, "notify": notifyName, "door": doorSecret}
	if policy != nil {
		pj, err := policy.MarshalJSON()
		if err != nil {
			return "", err
		}
		cfg["policy"] = json.RawMessage(pj)
	}
	cj, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	s := strings.Replace(injectTemplate, "const cfg = __CONFIG__;", "const cfg = "+string(cj)+";", 1)
	s = strings.Replace(s, "  __READER__\n", readerScript("")+"\n", 1) // the page's world has no door
	return strings.Replace(s, "      __LOADER__\n", string(loader)+"\n", 1), nil
}

//go:embed reader.js
var readerTemplate string

// doorSecret marks the window message in which reader.js, in webmcp-mcp's isolated world,
// hands its port to inject.js in the page's world (the door through which webmcp-mcp says that
// it checked a call's arguments): fresh in each process, and never in what a page can read.
var doorSecret = func() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// readerScript is reader.js with its limits filled in, and with door the secret of its hand-off
// to the page's world ("": none, for the copy that runs in the page's world).
func readerScript(door string) string {
	cj, _ := json.Marshal(
		map[string]any{
			"maxDescription": mcpserver.MaxToolChars + 1,
			"maxSchema":      mcpserver.MaxSchemaBytes + 1,
			"maxTools":       mcpserver.MaxPageTools,
			"maxRaw":         mcpserver.MaxOutputBytes,
			"maxError":       mcpserver.MaxErrorChars,
			"door":           door,
		},
	)
	return strings.Replace(readerTemplate, "const cfg = __CONFIG__;", "const cfg = "+string(cj)+";", 1)
}
