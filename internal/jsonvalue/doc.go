// Package jsonvalue reads and writes JSON as plain Go values (map[string]any, []any, string,
// json.Number, bool, nil) without reflection. It knows no domain type: types that want a JSON
// form of their own implement Appender.
//
// It exists because tool results are mostly one long string (base64 images, HTML), which
// encoding/json, through reflection, decodes many times slower in WebAssembly than Decode does.
package jsonvalue
