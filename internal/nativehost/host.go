//go:build !js

// Package nativehost is webmcp-mcp's native-messaging host: the process the browser starts for
// the webmcp-bridge extension ([Run]), its framing (4-byte length, then JSON, within the
// browsers' limits: [ReadFrame], [WriteFrame]), and the Unix sockets in a private per-user
// directory where it meets the `webmcp-mcp -extension` servers ([RendezvousDir], [HostSockets],
// [DialHost]), each end checking that the other runs as the same user. It knows nothing of MCP:
// it passes messages between the browser and the servers, tagging each with the server it is from.
package nativehost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// The extension's fixed identity: the ID Chromium derives from the public key in
// web/extension/manifest.json ("key"; the private key is not kept) and Firefox's
// browser_specific_settings.gecko.id. A test checks both against the manifest.
const (
	ExtensionID        = "befiilimdaegkehmfcghiflgmpdehcdc"
	ExtensionOrigin    = "chrome-extension://" + ExtensionID + "/"
	FirefoxExtensionID = "webmcp-bridge@webmcp-bridge.github.io"
	HostName           = "webmcp_bridge" // the host manifest's name, the extension's connectNative argument
)

// Invocation tells from its arguments whether the browser started this binary as the
// native-messaging host (a host manifest cannot pass arguments of its own): Chromium passes the
// calling extension's origin (and on Windows --parent-window=N), Firefox the manifest's path and
// the extension's id. It returns an error for a host start by any other extension.
func Invocation(args []string) (browser string, ok bool, err error) {
	if len(args) == 0 {
		return "", false, nil
	}
	if strings.HasPrefix(args[0], "chrome-extension://") {
		if args[0] != ExtensionOrigin {
			return "", false, fmt.Errorf(
				"started as the native-messaging host by %s: only %s may start it; refused",
				args[0],
				ExtensionOrigin,
			)
		}
		return "chromium", true, nil
	}
	if len(args) == 2 && strings.HasSuffix(args[0], ".json") && filepath.IsAbs(args[0]) &&
		!strings.HasPrefix(args[1], "-") {
		if args[1] != FirefoxExtensionID {
			return "", false, fmt.Errorf(
				"started as the native-messaging host by the Firefox extension %q: only %s may start it; refused",
				args[1],
				FirefoxExtensionID,
			)
		}
		return "firefox", true, nil
	}
	return "", false, nil
}

// host joins the browser (its stdin and stdout, in native messaging's framing) to the
// `webmcp-mcp -extension` servers that connect to its socket. Each server is a client with a
// number: what it sends goes to the browser tagged {"client": N, …}; what the browser sends
// with that number goes back to it. The browser hears {"type":"client","event":"open"|"close"}
// when a server comes and goes, so it can answer or drop that server's calls.
type host struct {
	log *slog.Logger

	toBrowser sync.Mutex // one message at a time on stdout
	out       io.Writer

	mu      sync.Mutex
	clients map[int]*net.UnixConn
	next    int
}

// Run serves until the browser closes the port (stdin ends).
func Run(stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	dir, err := RendezvousDir()
	if err != nil {
		return err
	}
	ln, path, err := listenHost(dir)
	if err != nil {
		return err
	}
	defer os.Remove(path)
	defer ln.Close()
	log.Debug("native-messaging host listening", "socket", path)
	h := &host{log: log, out: stdout, clients: map[int]*net.UnixConn{}}
	go h.accept(ln)
	err = h.fromBrowser(stdin)
	h.mu.Lock()
	for _, c := range h.clients {
		c.Close()
	}
	h.mu.Unlock()
	return err
}

func (h *host) accept(ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			return
		}
		if err := checkPeer(c); err != nil {
			h.log.Warn("socket connection refused", "err", err)
			c.Close()
			continue
		}
		h.mu.Lock()
		h.next++
		id := h.next
		h.clients[id] = c
		h.mu.Unlock()
		go h.fromServer(id, c)
	}
}

// fromServer passes a server's messages on to the browser, tagged with its number.
func (h *host) fromServer(id int, c *net.UnixConn) {
	h.send([]byte(fmt.Sprintf(`{"type":"client","event":"open","client":%d}`, id)))
	defer func() {
		h.mu.Lock()
		delete(h.clients, id)
		h.mu.Unlock()
		c.Close()
		h.send([]byte(fmt.Sprintf(`{"type":"client","event":"close","client":%d}`, id)))
	}()
	for {
		msg, err := ReadFrame(c, MaxToBrowser, "to the browser")
		var tooLarge *FrameLimitError
		if errors.As(err, &tooLarge) {
			h.reply(c, tooLarge.Error())
			continue
		}
		if err != nil {
			return
		}
		tagged, err := tagClient(msg, id)
		if err == nil {
			err = h.send(tagged)
		}
		if err != nil {
			h.reply(c, err.Error())
		}
	}
}

// reply tells a server that one of its messages was not passed on.
func (h *host) reply(c *net.UnixConn, why string) {
	b, _ := json.Marshal(map[string]string{"type": "refused", "error": why})
	if err := WriteFrame(c, b, MaxFromBrowser, "to the server"); err != nil {
		h.log.Debug("cannot answer a server", "err", err)
	}
}

// tagClient adds "client": id to a JSON object, after parsing it: an object that names a client
// itself, under any spelling JSON.parse reads as "client" ("\u0063lient" too), is refused, so
// that the host's tag is the object's only one and no server speaks for another (the browser's
// JSON.parse keeps the last of two equal keys).
func tagClient(msg []byte, id int) ([]byte, error) {
	msg = bytes.TrimSpace(msg)
	var fields map[string]json.RawMessage
	if len(msg) < 2 || msg[0] != '{' || json.Unmarshal(msg, &fields) != nil {
		return nil, errors.New("a message for the browser must be a JSON object")
	}
	if _, ok := fields["client"]; ok {
		return nil, errors.New(`a message for the browser that names a client is refused: the host tags each with its sender`)
	}
	tag := `{"client":` + strconv.Itoa(id)
	rest := bytes.TrimSpace(msg[1:])
	if rest[0] != '}' {
		tag += ","
	}
	return append([]byte(tag), rest...), nil
}

// send writes a message to the browser, within 1 MB.
func (h *host) send(msg []byte) error {
	h.toBrowser.Lock()
	defer h.toBrowser.Unlock()
	return WriteFrame(h.out, msg, MaxToBrowser, "to the browser")
}

// fromBrowser routes the browser's messages to the servers they name.
func (h *host) fromBrowser(stdin io.Reader) error {
	for {
		msg, err := ReadFrame(stdin, MaxFromBrowser, "from the browser")
		if errors.Is(err, ErrFrameTooLarge) {
			h.log.Warn("message from the browser refused", "err", err)
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var to struct {
			Client int `json:"client"`
		}
		if err := json.Unmarshal(msg, &to); err != nil || to.Client == 0 {
			continue // a message for the host itself (none yet), or not for anyone
		}
		h.mu.Lock()
		c := h.clients[to.Client]
		h.mu.Unlock()
		if c == nil {
			continue // that server has gone
		}
		if err := WriteFrame(c, msg, MaxFromBrowser, "to the server"); err != nil {
			h.log.Debug("cannot pass a message on", "client", to.Client, "err", err)
		}
	}
}
