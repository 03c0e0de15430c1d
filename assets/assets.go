// Package assets holds Attaché's icons and bundled data, embedded into the
// binaries that need them.
package assets

import _ "embed"

// Icon is the application icon, a 256×256 PNG.
//
//go:embed icon.png
var Icon []byte

// Corpus is the threengram sample corpus: a JSON array of memories over
// several tenants, written by corpusgen (go run assets/corpusgen/main.go).
//
//go:embed corpus.json
var Corpus []byte
