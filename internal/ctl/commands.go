package ctl

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// command is one of attachectl's top-level commands: its name, and how to
// build it (with its flags and subcommands).
type command struct {
	name  string
	build func(a *app) *cobra.Command
}

// commands are attachectl's top-level commands, in the order help lists
// them. Each name is its command's Name (TestCommandsNamed checks).
var commands = []command{
	{"servers", (*app).serversCmd},
	{"resources", (*app).resourcesCmd},
	{"templates", (*app).templatesCmd},
	{"read", (*app).readCmd},
	{"expand", (*app).expandCmd},
	{"complete", (*app).completeCmd},
	{"cache", (*app).cacheCmd},
	{"info", (*app).infoCmd},
	{"context", (*app).contextCmd},
	{"attach", (*app).attachCmd},
	{"rank", (*app).rankCmd},
	{"export", (*app).exportCmd},
	{"login", (*app).loginCmd},
	{"logout", (*app).logoutCmd},
	{"accounts", (*app).accountsCmd},
	{"demo-server", (*app).demoServerCmd},
	{"conformance-calls", (*app).conformanceCmd},
	{"providers", (*app).providersCmd},
	{"send", (*app).sendCmd},
	{"turns", (*app).turnsCmd},
	{"tools", (*app).toolsCmd},
	{"call", (*app).callCmd},
	{"lab", (*app).labCmd},
}

// addCommands adds to root the command that args name, alone, or every
// command when args name none for certain. A process runs one command:
// building the other twenty-odd, with their flags, and cobra's completion
// command was a tenth of the work of a cached read (--version alone needs
// none of them). Help, completion,
// an alias, a misspelt command or a flag root does not know get the whole
// tree, so cobra answers them exactly as before.
func (a *app) addCommands(root *cobra.Command, args []string) {
	if len(args) == 1 && args[0] == "--version" {
		return // root alone prints it
	}
	if name := named(root.PersistentFlags(), args); name != "" {
		for _, c := range commands {
			if c.name == name {
				root.AddCommand(c.build(a))
				// Only the completion command's own command line
				// (attachectl completion) runs it, and that one builds
				// the whole tree.
				root.CompletionOptions.DisableDefaultCmd = true
				return
			}
		}
	}
	for _, c := range commands {
		root.AddCommand(c.build(a))
	}
}

// named returns the first word of args that is no flag of root's nor a
// flag's value: the command's name. It returns "" when it cannot tell:
// before that word, a "--", a flag root does not have, or a cluster of
// shorthands (-vx).
func named(flags *pflag.FlagSet, args []string) string {
	for i := 0; i < len(args); i++ {
		w := args[i]
		var f *pflag.Flag
		switch {
		case w == "--":
			return ""
		case strings.HasPrefix(w, "--"):
			name, _, hasValue := strings.Cut(w[2:], "=")
			if f = flags.Lookup(name); f == nil {
				return ""
			}
			if hasValue {
				continue
			}
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if len(w) != 2 {
				return ""
			}
			if f = flags.ShorthandLookup(w[1:]); f == nil {
				return ""
			}
		default:
			return w
		}
		if f.NoOptDefVal == "" { // the flag takes a value: the next word
			i++
		}
	}
	return ""
}
