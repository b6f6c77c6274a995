// Package budget holds the byte budgets the build holds the shipped files to and make bench
// measures them against: written once, read by both.
package budget

// LoaderGzip is the most every page that adds the script tag pays at load: the loader
// (webmcp-bridge.js), gzip -9. Code a page may never need goes into a chunk, fetched on first
// need.
const LoaderGzip = 12288
