// Package pack is the host's context engine: what the model remembers of
// a conversation's attachments. It ranks items (Rank, and Ranker for a
// screen that ranks one set again and again), packs them into a token
// budget with a decision and a reason for each, counts tokens
// (TokenCounter, DefaultTokenCounter: cl100k_base, counted by package
// cl100k from a table compiled in), and
// assembles and renders what is sent (Assemble, Document, RenderBody).
//
// It is pure: it packs the bodies it is given and never reads, talks to a
// server, starts a process or stores anything, so a budget change re-packs
// what was already read and reads nothing again. It imports the standard
// library and the tokenizer only (deps_test.go checks it); hostcore reads
// the items, and the screens and commands show its decisions.
package pack
