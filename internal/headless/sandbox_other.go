//go:build !linux && !js

package headless

// userNamespaces is true off Linux: there Chromium's sandbox needs none.
func userNamespaces() bool { return true }
