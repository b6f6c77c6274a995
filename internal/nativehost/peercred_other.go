//go:build !js && !linux && !darwin

package nativehost

import (
	"errors"
	"net"
	"os"
)

// peerChecked: the other end of a socket cannot be checked here (Windows's Unix sockets have no
// SO_PEERCRED), so the extension is not served at all (RendezvousDir says so).
const peerChecked = false

// peerUID cannot tell who is at the other end on this system: the extension's socket is
// refused rather than left unchecked.
func peerUID(*net.UnixConn) (int, error) {
	return 0, errors.New("checking a socket's peer is implemented for Linux and macOS only")
}

// fileOwner is not known here.
func fileOwner(os.FileInfo) (int, bool) { return 0, false }
