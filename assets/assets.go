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

// Replay is the comparison lab's bundled replay: 249 synthetic
// support-style turns over the demo corpus, in the format of package
// hostcore/lab, written by internal/labgen. Every report made from it is
// labelled synthetic.
//
//go:generate sh -c "go run ../internal/labgen > replay.jsonl"
//go:embed replay.jsonl
var Replay []byte
