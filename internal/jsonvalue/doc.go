// Package jsonvalue reads and writes JSON as plain Go values (map[string]any, []any, string,
// json.Number, bool, nil) without reflection. It knows no domain type: types that want a JSON
// form of their own implement Appender.
//
// It exists because tool results are mostly one long string (base64 images, HTML): measured in
// WebAssembly, encoding/json decodes a 5 MB base64 result 15–25× slower than Decode and adds
// 126 KB gzip to the module.
package jsonvalue
