//go:build !js

package nativehost

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/webmcp-bridge/webmcp-bridge/internal/boundary"
)

// Native messaging's message limits (Chrome's and Firefox's): a message from the host to the
// browser may be at most 1 MB, one from the browser to the host at most 64 MiB. A message over
// its limit is refused with the limit named, never split. The numbers are internal/boundary's,
// which the extension is generated from.
const (
	MaxToBrowser   = boundary.NativeFromHostBytes
	MaxFromBrowser = boundary.NativeToHostBytes
)

// ClientTagRoom is what the host may add to a server's message on its way to the browser (the
// client number it is from): a server keeps its messages this much under MaxToBrowser.
const ClientTagRoom = 32

// ErrFrameTooLarge is returned for a message over its limit; the message was skipped, and the
// stream can go on.
var ErrFrameTooLarge = errors.New("message too large")

// FrameLimitError says which message was too large and what the limit is.
type FrameLimitError struct {
	Size, Limit int
	What        string // e.g. "to the browser"
}

func (e *FrameLimitError) Error() string {
	return fmt.Sprintf(
		"a message of %d bytes %s is refused: native messaging carries at most %s",
		e.Size,
		e.What,
		limitName(e.Limit),
	)
}

func (e *FrameLimitError) Unwrap() error { return ErrFrameTooLarge }

// limitName names a limit as the browsers document it.
func limitName(n int) string {
	switch n {
	case MaxToBrowser:
		return "1 MB (1048576 bytes) from the host to the browser"
	case MaxFromBrowser:
		return "64 MiB (67108864 bytes) from the browser to the host"
	}
	return fmt.Sprintf("%d bytes", n)
}

// WriteFrame writes one message: its length as 4 bytes in the machine's byte order, then the
// UTF-8 JSON. A message over limit is not written.
func WriteFrame(w io.Writer, msg []byte, limit int, what string) error {
	if len(msg) > limit {
		return &FrameLimitError{Size: len(msg), Limit: limit, What: what}
	}
	if !json.Valid(msg) {
		return errors.New("a native message must be JSON")
	}
	buf := make([]byte, 4+len(msg))
	binary.NativeEndian.PutUint32(buf, uint32(len(msg)))
	copy(buf[4:], msg)
	_, err := w.Write(buf)
	return err
}

// ReadFrame reads one message. One over limit is read past and refused with a
// *FrameLimitError, so the next message can still be read; io.EOF means the other side closed
// between messages.
func ReadFrame(r io.Reader, limit int, what string) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := int64(binary.NativeEndian.Uint32(head[:]))
	if n > int64(limit) {
		if _, err := io.CopyN(io.Discard, r, n); err != nil {
			return nil, unexpected(err)
		}
		return nil, &FrameLimitError{Size: int(n), Limit: limit, What: what}
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(r, msg); err != nil {
		return nil, unexpected(err)
	}
	return msg, nil
}

// unexpected turns an EOF inside a message into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
