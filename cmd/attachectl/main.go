// Command attachectl is Attaché's headless CLI: everything the app does with
// servers and resources, from a terminal or a script. It imports no Fyne,
// no model SDK and no chart library: the commands that talk to a model or
// draw the lab's charts (send, turns --replay, lab run --provider or
// --out, lab check --provider) are run by attachectl-full, found beside it
// or on PATH, in its place, as git runs git-<command>. See internal/ctl.
//
// Exit codes: 0 ok, 1 a lab check below its thresholds, 2 usage or invalid
// input, 3 not found, 4 unauthorized or forbidden, 5 server fault or
// protocol error, 6 transport or timeout, 7 a write that found the disk
// full; a command ended by SIGINT, SIGTERM or SIGHUP ends killed by that
// signal (128+N in a shell), once every server it started is stopped.
package main

import "github.com/attache/attache/internal/ctl"

func main() { ctl.Main(nil) }
