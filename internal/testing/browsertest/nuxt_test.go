//go:build !js

package browsertest

import (
	"context"
	"os"
	"path/filepath"
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

// TestNuxtRecipe holds docs/page-authors.md's Nuxt configuration to the one TestNuxtApp builds.
func TestNuxtRecipe(t *testing.T) {
	skipWithoutBuild(t)
	config, err := os.ReadFile(filepath.Join("nuxtapp", "nuxt.config.ts"))
	require.NoError(t, err)
	guide, err := os.ReadFile(fromRoot("docs", "page-authors.md"))
	require.NoError(t, err)
	assert.Contains(t, string(guide), "```ts\n"+string(config)+"```\n", "the guide gives nuxtapp/nuxt.config.ts as it is")
}
