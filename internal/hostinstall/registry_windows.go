//go:build windows

package hostinstall

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows/registry"
)

// registerHost writes the manifests and, for each browser, the key under HKEY_CURRENT_USER that
// names its manifest (hostRegistrations), and says where on w.
func registerHost(exe string, w io.Writer) error {
	regs := hostRegistrations(localAppData())
	for _, r := range regs {
		if err := os.MkdirAll(filepath.Dir(r.manifest), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(r.manifest, hostManifest(exe, r.firefox), 0o644); err != nil {
			return err
		}
		k, _, err := registry.CreateKey(registry.CURRENT_USER, r.key, registry.SET_VALUE)
		if err != nil {
			return fmt.Errorf(`HKEY_CURRENT_USER\%s: %w`, r.key, err)
		}
		err = k.SetStringValue("", r.manifest)
		k.Close()
		if err != nil {
			return fmt.Errorf(`HKEY_CURRENT_USER\%s: %w`, r.key, err)
		}
		fmt.Fprintf(w, "%s: wrote HKEY_CURRENT_USER\\%s → %s\n", r.browser, r.key, r.manifest)
	}
	return nil
}

// unregisterHost removes what registerHost wrote.
func unregisterHost(w io.Writer) error {
	for _, r := range hostRegistrations(localAppData()) {
		err := registry.DeleteKey(registry.CURRENT_USER, r.key)
		if err == nil {
			fmt.Fprintf(w, "%s: removed HKEY_CURRENT_USER\\%s\n", r.browser, r.key)
		} else if !errors.Is(err, registry.ErrNotExist) {
			return fmt.Errorf(`HKEY_CURRENT_USER\%s: %w`, r.key, err)
		}
		if err := os.Remove(r.manifest); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// localAppData is %LOCALAPPDATA%, the user's own folder.
func localAppData() string {
	if d := os.Getenv("LOCALAPPDATA"); d != "" {
		return d
	}
	return filepath.Join(homeDir(), "AppData", "Local")
}
