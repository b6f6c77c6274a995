package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/boundary"
)

func init() {
	outputs["boundary.ts"] = boundaryTS
	outputs["policy.ts"] = policyTS
}

// tsArg is the TypeScript type of each kind of export argument.
var tsArg = map[boundary.Arg]string{
	boundary.ArgString:   "string",
	boundary.ArgInteger:  "number",
	boundary.ArgBoolean:  "boolean",
	boundary.ArgBinaries: "readonly Binary[]",
}

// tsSetting is the TypeScript type of each kind of policy setting.
var tsSetting = map[string]string{"integer": "number", "boolean": "boolean", "strings": "string[]"}

// textResultFrame is the JSON bridge writes for a plain-text result, before and after the
// text's own JSON: what the loader writes around a text it maps without the module.
func textResultFrame() (open, closing string, err error) {
	const marker = "TEXT"
	r, _ := bridge.Normalize(marker, bridge.DefaultPolicy())
	b, err := r.MarshalJSON()
	if err != nil {
		return "", "", err
	}
	before, after, found := strings.Cut(string(b), q(marker))
	if !found || strings.Contains(after, q(marker)) {
		return "", "", fmt.Errorf("the text result %s holds its text other than once", b)
	}
	return before, after, nil
}

// boundaryTS writes the module's exports, the answer frame and the shared rules.
func boundaryTS() ([]byte, error) {
	f := newFile("What the loader and the Go module agree on: internal/boundary and bridge.")
	f.line("")
	f.line("/** A binary a tool returned, handed to the module as bytes: at index of the result (-1: the")
	f.line(" * result itself), as the value itself (field \"\") or as an image block's data (field \"data\"). */")
	f.line(
		"export interface Binary { readonly index: number; readonly field: \"\" | \"data\"; readonly " +
			"bytes: Uint8Array; readonly mimeType: string }",
	)
	f.line("")
	f.line("/** The module's exports and their arguments. */")
	f.line("export interface ExportArgs {")
	for _, e := range boundary.Exports {
		if e.Test {
			continue
		}
		args := make([]string, len(e.Params))
		for i, p := range e.Params {
			t, ok := tsArg[p.Type]
			if !ok {
				return nil, fmt.Errorf("export %s: argument type %q has no TypeScript type", e.Name, p.Type)
			}
			args[i] = p.Name + ": " + t
		}
		f.line("  readonly %s: [%s];", e.Name, strings.Join(args, ", "))
	}
	f.line("}")
	f.line("export type ExportName = keyof ExportArgs;")
	f.line("/** Where an export takes binaries: their bytes are transferred to the module, not copied. */")
	f.line("export const BINARIES_AT: Partial<Record<ExportName, number>> = {")
	for _, e := range boundary.Exports {
		for i, p := range e.Params {
			if p.Type == boundary.ArgBinaries && !e.Test {
				f.line("  %s: %d,", e.Name, i)
			}
		}
	}
	f.line("};")
	var test []string
	for _, e := range boundary.Exports {
		if e.Test {
			test = append(test, e.Name)
		}
	}
	f.line("/** Exports of the test build only (-tags webmcptest). */")
	f.line("export type TestExportName = %s;", union(test))
	names := make([]string, len(boundary.Exports))
	for i, e := range boundary.Exports {
		names[i] = e.Name
	}
	f.line("/** Every export's name: the module server reads the exports by these names, nothing else. */")
	f.line(
		"export const EXPORT_NAMES: readonly (ExportName | TestExportName)[] = [%s];",
		strings.Join(quoteAll(names), ", "),
	)
	f.line("")
	f.line("export const FRAME_SEPARATOR = %s;", q(boundary.FrameSeparator))
	f.line("export const MESSAGE_PREFIX = %s;", q(boundary.MessagePrefix))
	f.line("export const GLOBAL_STARTED = %s;", q(boundary.GlobalStarted))
	f.line("export const GLOBAL_EXPORTS = %s;", q(boundary.GlobalExports))
	f.line("/** A tool's name: 1 to 128 of A-Z a-z 0-9 _ . - */")
	f.line("export const TOOL_NAME = /%s/;", boundary.ToolNamePattern)
	f.line("/** The module memory past which a module is replaced once its queue is empty. */")
	f.line("export const RETIRE_MEMORY_BYTES = %d;", boundary.RetireMemoryBytes)
	f.line("/** The deepest nesting of arrays and objects the module reads (bridge.MaxNesting). */")
	f.line("export const MAX_NESTING = %d;", bridge.MaxNesting)
	open, closing, err := textResultFrame()
	if err != nil {
		return nil, err
	}
	f.line("/** The JSON of a result of one text block, around the text's JSON (bridge.Normalize of a string). */")
	f.line("export const TEXT_RESULT = [%s, %s] as const;", q(open), q(closing))
	return f.Bytes(), nil
}

// policyTS writes the policy's settings, their types and defaults: a file of its own because the
// published typings carry it (Policy, PolicySettings) and not the module's internal exports.
func policyTS() ([]byte, error) {
	f := newFile("The policy's settings and defaults: bridge.PolicySettings and bridge.DefaultPolicy.")
	f.line("")
	f.line("/** The policy in force: every setting (bridge.PolicySettings). A limit of 0 means none. */")
	f.line("export interface Policy {")
	for _, s := range bridge.PolicySettings() {
		t, ok := tsSetting[s.Type]
		if !ok {
			return nil, fmt.Errorf("policy setting %s: type %q has no TypeScript type", s.Name, s.Type)
		}
		f.line("  /** %s */", s.Doc)
		f.line("  readonly %s: %s;", s.Name, t)
	}
	f.line("}")
	f.line("/** Settings for configure(): any of the policy's, the others keep their defaults. */")
	f.line("export type PolicySettings = { -readonly [K in keyof Policy]?: Policy[K] };")
	defaults := map[string]any{}
	var order []string
	for _, s := range bridge.PolicySettings() {
		defaults[s.Name] = s.Value(bridge.DefaultPolicy())
		order = append(order, s.Name)
	}
	f.line("/** The documented defaults (bridge.DefaultPolicy). */")
	f.line("export const POLICY_DEFAULTS: Policy = {")
	for _, name := range order {
		b, err := json.Marshal(defaults[name])
		if err != nil {
			return nil, err
		}
		f.line("  %s: %s,", name, b)
	}
	f.line("};")
	return f.Bytes(), nil
}

// q is s as a TypeScript string literal.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func union(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = q(n)
	}
	return strings.Join(quoted, " | ")
}
