//go:build !js && !linux && !darwin

package main

import (
	"errors"
	"net"
)

// peerUID cannot tell who is at the other end on this system: the extension's socket is
// refused rather than left unchecked.
func peerUID(*net.UnixConn) (int, error) {
	return 0, errors.New("checking a socket's peer is implemented for Linux and macOS only")
}
