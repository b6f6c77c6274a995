//go:build !js

package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNuxtApp builds a Nuxt 4 app (nuxtapp/) with `nuxt build` and serves it with Nitro's Node
// server: a page that imports the package in a component and registers a tool when it mounts,
// configured as docs/page-authors.md tells Nuxt authors. Nuxt's renderer hints every file of the
// chunks a page uses, the bridge's module and Worker among them (a prefetch of the module, a
// modulepreload of the Worker) unless the build:manifest hook takes them out: the page must fetch
// neither until an agent calls, and then get both compressed (Nitro's compressPublicAssets).
func TestNuxtApp(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	app := buildAndServe(t, ctx, ssrApp{
		folder: "nuxtapp",
		files:  []string{"nuxt.config.ts", "app/app.vue"},
		build:  []string{"$deps/node_modules/nuxt/bin/nuxt.mjs", "build"},
		serve:  []string{".output/server/index.mjs"},
		env:    []string{"NUXT_TELEMETRY_DISABLED=1", "CI=1"},
	})
	checkLoadsNothingUntilCalled(t, app)
}

// TestFrameworkRecipes holds docs/page-authors.md's per-framework blocks to the files of the apps
// TestNuxtApp and TestAstroApp build: nuxt.config.ts, and Astro's server and layout script.
func TestFrameworkRecipes(t *testing.T) {
	skipWithoutBuild(t)
	guide, err := os.ReadFile(fromRoot("docs", "page-authors.md"))
	require.NoError(t, err)
	block := func(lang string, elem ...string) string {
		data, err := os.ReadFile(filepath.Join(elem...))
		require.NoError(t, err)
		return "```" + lang + "\n" + string(data) + "```\n"
	}
	assert.Contains(t, string(guide), block("ts", "nuxtapp", "nuxt.config.ts"), "the guide gives nuxt.config.ts as it is")
	assert.Contains(t, string(guide), block("js", "astroapp", "server.mjs"), "the guide gives Astro's server.mjs as it is")

	layout, err := os.ReadFile(filepath.Join("astroapp", "src", "layouts", "Page.astro"))
	require.NoError(t, err)
	script := regexp.MustCompile(`(?s)\n    <script>\n.*?\n    </script>\n`).Find(layout)
	require.NotNil(t, script, "Page.astro has its script")
	dedented := regexp.MustCompile(`(?m)^    `).ReplaceAll(script[1:], nil)
	assert.Contains(t, string(guide), "```astro\n"+string(dedented)+"```\n", "the guide gives the layout's script as it is")
}
