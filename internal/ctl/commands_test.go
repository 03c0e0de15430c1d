package ctl

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommandsNamed checks the table that run builds one command from:
// each name is its command's, and the whole tree has those commands and
// no others.
func TestCommandsNamed(t *testing.T) {
	a := &app{stdin: bytes.NewReader(nil), stdout: io.Discard, stderr: io.Discard}
	var want []string
	for _, c := range commands {
		if got := c.build(a).Name(); got != c.name {
			t.Errorf("commands names %q %q", got, c.name)
		}
		want = append(want, c.name)
	}
	var got []string
	for _, c := range a.root(nil).Commands() {
		got = append(got, c.Name())
	}
	slices.Sort(want) // cobra lists them sorted
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the whole tree's commands (-table +tree):\n%s", diff)
	}
}

func TestNamed(t *testing.T) {
	flags := (&app{}).root(nil).PersistentFlags()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"read", "demo", "u"}, "read"},
		{[]string{"--account", "acme", "read", "demo", "u"}, "read"},
		{[]string{"--account=read", "cache", "stats"}, "cache"},
		{[]string{"--account", "read", "servers"}, "servers"},
		{[]string{"-v", "--json", "servers"}, "servers"},
		{[]string{"--timeout", "5s", "-v", "info"}, "info"},
		{[]string{"--help"}, ""},
		{[]string{"--version"}, ""},
		{[]string{"--", "read"}, ""},
		{[]string{"-vx", "read"}, ""},
		{[]string{"--out", "f", "read"}, ""},
		{[]string{"--account"}, ""},
		{nil, ""},
	} {
		if got := named(flags, tt.args); got != tt.want {
			t.Errorf("named(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestOneCommandTree runs command lines on the tree of the one command
// they name and on the whole tree: help, usage errors and flag errors
// read the same.
func TestOneCommandTree(t *testing.T) {
	for _, args := range [][]string{
		{"read", "--help"},
		{"cache", "--help"},
		{"--account", "a", "cache", "purge", "--help"},
		{"read"},
		{"read", "--no-such-flag", "demo", "u"},
		{"lab", "--help"},
		{"send", "--help"},
		{"servers", "extra"},
		{"--version"},
		{"--version", "read"},
		{},
	} {
		exec := func(whole bool) (string, string) {
			var out, errOut bytes.Buffer
			a := &app{stdin: bytes.NewReader(nil), stdout: &out, stderr: &errOut}
			defer a.close()
			tree := args
			if whole {
				tree = nil
			}
			root := a.root(tree)
			root.SetArgs(args)
			root.SetOut(&out)
			root.SetErr(&errOut)
			if err := root.ExecuteContext(context.Background()); err != nil {
				a.report(err)
			}
			return out.String(), errOut.String()
		}
		wantOut, wantErr := exec(true)
		gotOut, gotErr := exec(false)
		if wantOut == "" && wantErr == "" {
			t.Errorf("%q: no output", args)
		}
		if diff := cmp.Diff(wantOut, gotOut); diff != "" {
			t.Errorf("%q: stdout (-whole tree +one command):\n%s", args, diff)
		}
		if diff := cmp.Diff(wantErr, gotErr); diff != "" {
			t.Errorf("%q: stderr (-whole tree +one command):\n%s", args, diff)
		}
	}
}
