package bridge_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// TestPolicySettingsCoverEveryField: the table of settings names each field of Policy (but
// PageURL, which is per page) exactly once, so a new limit cannot be left out of configure(),
// the written policy or the loader's generated typings.
func TestPolicySettingsCoverEveryField(t *testing.T) {
	p := bridge.DefaultPolicy()
	typ := reflect.TypeOf(p)
	want := map[string]bool{}
	for i := 0; i < typ.NumField(); i++ {
		if f := typ.Field(i); f.Name != "PageURL" {
			want[strings.ToLower(f.Name[:1])+f.Name[1:]] = true
		}
	}
	got := map[string]bool{}
	for _, s := range bridge.PolicySettings() {
		require.False(t, got[s.Name], "setting %s is in the table twice", s.Name)
		got[s.Name] = true
		require.Contains(t, []string{"integer", "boolean", "strings"}, s.Type, s.Name)
		require.NotEmpty(t, s.Doc, s.Name)
		require.NotNil(t, s.Value(p), s.Name)
	}
	require.Equal(t, want, got)
}
