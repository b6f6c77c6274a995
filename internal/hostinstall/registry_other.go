//go:build !js && !windows

package hostinstall

import (
	"errors"
	"io"
)

// Only Windows keeps native-messaging hosts in the registry.
var errNoRegistry = errors.New("the registry is Windows's")

func registerHost(string, io.Writer) error { return errNoRegistry }

func unregisterHost(io.Writer) error { return errNoRegistry }
