//go:build !js

package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/procgroup"
)

// debugChromium starts headless Chromium with WebMCP on, a DevTools port and url open, as a user
// would start their own Chrome; it returns the DevTools endpoint as http://127.0.0.1:PORT.
func debugChromium(t *testing.T, url string) string {
	t.Helper()
	// Its own profile directory, removed at the end as well as may be: Chromium's helper
	// processes can still write to it for a moment after the browser is killed.
	profile, err := os.MkdirTemp("", "webmcp-attach-profile-")
	require.NoError(t, err)
	cmd := exec.Command(chromium(t), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--enable-features=WebMCP", "--remote-debugging-port=0", "--user-data-dir="+profile, url)
	procgroup.Own(cmd)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		procgroup.Kill(cmd) // the browser and its helpers
		cmd.Wait()
		for range 10 {
			if os.RemoveAll(profile) == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on ws://(127\.0\.0\.1:\d+)/`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- "http://" + m[1]
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("chromium did not open its DevTools port")
	}
	return ""
}

// TestAttachAndPolicy: -browser attaches to a running Chrome and takes in the tab that was open
// before (its tools, registered without the bridge, are normalized natively); -policy applies
// the user's limits.
func TestAttachAndPolicy(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	endpoint := debugChromium(t, base+"/demo/")
	policy := filepath.Join(t.TempDir(), "policy.json")
	require.NoError(t, os.WriteFile(policy, []byte(`{"maxImageBytes": 1000}`), 0o644))
	args := []string{"-assets", assetsDir(t), "-browser", endpoint, "-policy", policy, "-timeout", "20s"}
	cs, rec, _ := session(t, args)
	ctx := context.Background()
	require.Eventually(t, func() bool {
		tools, err := cs.ListTools(ctx, nil)
		return err == nil && byNameOf(tools, "sales_chart") != nil
	}, 20*time.Second, 200*time.Millisecond, "the tab open before webmcp-mcp came is taken in")

	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sales_chart", Arguments: map[string]any{}})
	require.NoError(t, err)
	r := requireValid(t, rec.Last())
	var texts []string
	for _, c := range r["content"].([]any) {
		assert.NotEqual(t, "image", c.(map[string]any)["type"], "the 7 KB chart is over the policy's 1000 bytes")
		texts = append(texts, c.(map[string]any)["text"].(string))
	}
	// The page's bridge is configured with the policy too, so the page may refuse the image
	// itself; either way the client is told why.
	assert.Regexp(t, `image removed|maxImageBytes`, strings.Join(texts, "\n"))

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp_list_pages", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Contains(t, textOf(requireValid(t, rec.Last())), "/demo/")

	// When webmcp-mcp goes, the user's tab stays.
	require.NoError(t, cs.Close())
	time.Sleep(500 * time.Millisecond)
	resp, err := http.Get(endpoint + "/json/list")
	require.NoError(t, err)
	defer resp.Body.Close()
	var targets []struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&targets))
	assert.True(t, slices.ContainsFunc(targets, func(x struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}) bool {
		return x.Type == "page" && strings.HasSuffix(x.URL, "/demo/")
	}), "%v", targets)
}

// TestStrictCSP: on a page whose CSP forbids WebAssembly and other origins, the bridge still
// runs (webmcp-mcp opens pages with CSP bypassed), so a thrown error keeps its message.
func TestStrictCSP(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	cs, rec, _ := session(t, serverArgs(t, true, 20*time.Second, base+"/test/csp.html"))
	ctx := context.Background()
	waitTools(t, cs, "csp_module", "csp_crash")
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "csp_module", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, "module runs", textOf(requireValid(t, rec.Last())))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "csp_crash", Arguments: map[string]any{}})
	require.NoError(t, err)
	r := requireValid(t, rec.Last())
	assert.Equal(t, true, r["isError"])
	assert.Contains(t, allText(r), "the quota is exhausted")
}
