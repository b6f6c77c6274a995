//go:build linux

package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/webdriver"
)

// TestExtensionHandOffFirefox (issue 35, point 11): Firefox ESR may run the extension's
// MAIN-world script a task after the relay. The page's first inline script (clobber.html) reads
// the relay's attribute, patches everything the hand-off touches and listens for the port: over
// 5 loads it sees no attribute and catches nothing, and the bridge took the hand-off.
func TestExtensionHandOffFirefox(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	ff, err := webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatalf("starting Firefox: %v\n(`make firefox`, from mk/browsers.mk, installs it as root)", err)
	}
	t.Cleanup(func() { ff.Close() })
	extDir := fromRoot("web", "dist", "extension")
	_, err = ff.InstallExtension(ctx, extDir)
	require.NoError(t, err)
	body, err := importJS("extension.js", "clobberedLoose", nil)
	require.NoError(t, err)
	for i := range 5 {
		require.NoError(t, ff.Open(ctx, base+"/test/clobber.html"))
		var page struct {
			Leaks     []string `json:"leaks"`
			Attribute *string  `json:"attribute"`
			Stolen    bool     `json:"stolen"`
			Bridge    bool     `json:"bridge"`
		}
		require.NoError(t, ff.Eval(ctx, body, &page))
		t.Logf("load %d: %+v", i, page)
		assert.Nil(t, page.Attribute, "load %d: the secret's attribute was gone before the page's first script", i)
		assert.Empty(t, page.Leaks, "load %d", i)
		assert.False(t, page.Stolen, "load %d", i)
		assert.True(t, page.Bridge, "load %d: the bridge took the hand-off", i)
	}
}
