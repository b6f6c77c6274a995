//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/devtools"
	"github.com/webmcp-bridge/webmcp-bridge/internal/extension"
	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

// run serves until the client goes away (stdio) or ctx ends: the MCP server over the person's
// browser (-extension) or over a browser driven over DevTools.
func run(ctx context.Context, o options, stdin io.Reader, stdout io.Writer, stderr io.Writer) error {
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	policy := bridge.DefaultPolicy()
	var pagePolicy *bridge.Policy
	if o.policyFile != "" {
		b, err := os.ReadFile(o.policyFile)
		if err != nil {
			return fmt.Errorf("-policy: %w", err)
		}
		if policy, err = bridge.PolicyFromJSON(b); err != nil {
			return fmt.Errorf("-policy %s: %w", o.policyFile, err)
		}
		pagePolicy = &policy
	}
	if done, err := hostSetup(o.ext, stdout); done {
		return err
	}
	server := mcpserver.Options{Policy: policy, Timeout: o.timeout, ReadyTimeout: o.ready, Logger: log,
		Version: serverVersion()}
	var s *mcpserver.Server
	if o.ext.enabled {
		dir, err := nativehost.RendezvousDir()
		if err != nil {
			return err
		}
		s = mcpserver.New(server)
		src := extension.New(o.ext.origins(), o.ext.confirm == "always", o.ext.confirmTimeout, serverVersion(), log)
		go src.Run(ctx, dir)
		s.Follow(ctx, src)
		s.AwaitListed(ctx, src.Listed(), "the browser's list of tabs")
	} else {
		server.Allow = o.ext.origins()
		s = mcpserver.New(server)
		stop, err := followDevtools(ctx, s, o, pagePolicy, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	if o.httpAddr != "" {
		return s.ListenAndServe(ctx, o.httpAddr, stderr)
	}
	return s.Run(ctx, stdin, stdout)
}

// followDevtools starts the browser (or attaches to -browser), serves the bridge's assets to its
// pages, makes s follow them and opens the -open pages; stop closes what it started.
func followDevtools(
	ctx context.Context,
	s *mcpserver.Server,
	o options,
	pagePolicy *bridge.Policy,
	log *slog.Logger,
) (stop func(), err error) {
	var stops []func()
	closeAll := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	defer func() {
		if err != nil {
			closeAll()
		}
	}()
	dir, err := devtools.FindAssets(o.assets)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		log.Info(
			"no web/dist found (-assets): pages get the embedded loader without its module; what they return is normalized here",
		)
	}
	base, stopAssets, err := devtools.ServeAssets(dir)
	if err != nil {
		return nil, err
	}
	stops = append(stops, stopAssets)
	inject, err := devtools.InjectScript(dir, base, pagePolicy)
	if err != nil {
		return nil, err
	}
	cfg := devtools.Config{Attach: o.browserURL, Headed: o.headed, WebMCP: o.webmcp}
	if cfg.Attach == "" {
		if cfg.Chromium = o.chromium; cfg.Chromium == "" {
			if cfg.Chromium, err = headless.ChromiumPath(); err != nil {
				return nil, err
			}
		}
		profile, err := os.MkdirTemp("", "webmcp-mcp-profile-")
		if err != nil {
			return nil, err
		}
		stops = append(stops, func() { os.RemoveAll(profile) })
		cfg.UserDataDir = profile
	}
	bctx, closeBrowser, err := devtools.Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	stops = append(stops, closeBrowser)
	src := devtools.New(bctx, devtools.Options{Inject: inject, Timeout: o.timeout, Logger: log,
		Attached: cfg.Attach != "", Allowed: s.Allowed})
	if cfg.Attach != "" {
		if err := src.AdoptTargets(); err != nil {
			return nil, err
		}
	}
	s.Follow(ctx, src)
	s.OpenAtStart(ctx, o.open)
	return closeAll, nil
}
