// Command benchpair times whole processes side by side, the way a speed
// claim must be measured on a shared machine: the commands run interleaved
// (A B C, A B C, ...), so that a burst of other load falls on every side
// alike, and each ratio is the median of the ratios of the same round, not
// a ratio of two figures taken at different moments. It prints, per
// command, the median wall and CPU time (user+system of the process and
// its children) with the quartiles and the extremes, and, per command
// after the first, the median of the paired wall and CPU ratios to the
// first, with their spread. Never the best run.
//
//	benchpair -runs 10 -warm 1 -c 'ours=bin/attachectl read demo URI' -c 'inspector=node ...'
//
// A command line is split as a shell would (no expansion); NAME=VALUE
// words before it set environment variables for it. A command that fails
// stops the measurement, with its stderr.
//
// Used by scripts/bench.sh.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
)

// command is one side of the comparison.
type command struct {
	name string
	env  []string
	argv []string
	wall []float64 // milliseconds, one per round
	cpu  []float64
	out  string // the last run's standard output
}

type commandFlags []*command

func (c *commandFlags) String() string { return fmt.Sprint(len(*c), " commands") }

func (c *commandFlags) Set(v string) error {
	name, line, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return errors.New("want NAME=COMMAND LINE")
	}
	words, err := shlex.Split(line)
	if err != nil {
		return fmt.Errorf("splitting %q: %w", line, err)
	}
	cmd := &command{name: name}
	for len(words) > 0 && isAssignment(words[0]) {
		cmd.env = append(cmd.env, words[0])
		words = words[1:]
	}
	if len(words) == 0 {
		return fmt.Errorf("%s: no command", name)
	}
	cmd.argv = words
	*c = append(*c, cmd)
	return nil
}

// isAssignment reports whether a word is NAME=VALUE with a shell name.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func main() {
	var cmds commandFlags
	runs := flag.Int("runs", 10, "measured rounds; every command runs once per round")
	warm := flag.Int("warm", 1, "rounds run first and not counted (caches, page cache)")
	expect := flag.String("expect", "", "a string every command's output must contain")
	figure := flag.String("figure", "", "a regexp whose first group, in each run's output, is the figure measured (milliseconds) instead of the wall time")
	flag.Var(&cmds, "c", "NAME=COMMAND LINE (repeat; ratios are to the first)")
	flag.Parse()
	if len(cmds) == 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "benchpair: want -c NAME=COMMAND at least once and -runs ≥ 1")
		os.Exit(2)
	}
	var fig *regexp.Regexp
	if *figure != "" {
		var err error
		if fig, err = regexp.Compile(*figure); err != nil || fig.NumSubexp() < 1 {
			fmt.Fprintln(os.Stderr, "benchpair: -figure wants a regexp with a group:", err)
			os.Exit(2)
		}
	}
	for round := range *warm + *runs {
		for _, c := range cmds {
			wall, cpu, err := c.run(fig)
			if err != nil {
				fmt.Fprintf(os.Stderr, "benchpair: %s: %v\n", c.name, err)
				os.Exit(1)
			}
			if *expect != "" && !strings.Contains(c.out, *expect) {
				fmt.Fprintf(os.Stderr, "benchpair: %s printed no %q: %.300s\n", c.name, *expect, c.out)
				os.Exit(1)
			}
			if round >= *warm {
				c.wall = append(c.wall, wall)
				c.cpu = append(c.cpu, cpu)
			}
		}
	}
	report(cmds)
}

// run starts the command once and returns its wall and CPU milliseconds;
// with fig, the "wall" figure is what the output says fig's group is.
func (c *command) run(fig *regexp.Regexp) (wall, cpu float64, err error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = append(os.Environ(), c.env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	wall = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %.600s", err, errb.String())
	}
	st := cmd.ProcessState
	cpu = float64((st.UserTime() + st.SystemTime()).Microseconds()) / 1000
	c.out = out.String()
	if fig != nil {
		m := fig.FindStringSubmatch(c.out + errb.String())
		if m == nil {
			return 0, 0, fmt.Errorf("no %q in its output: %.300s", fig, c.out+errb.String())
		}
		if wall, err = strconv.ParseFloat(m[1], 64); err != nil {
			return 0, 0, fmt.Errorf("figure %q: %w", m[1], err)
		}
	}
	return wall, cpu, nil
}

// report prints the figures, one line each, as bench.sh reads them:
//
//	time NAME wall|cpu MEDIAN P25 P75 MIN MAX
//	ratio NAME FIRST wall|cpu MEDIAN MIN MAX
func report(cmds []*command) {
	for _, c := range cmds {
		fmt.Printf("time %s wall %s\n", c.name, spread(c.wall))
		fmt.Printf("time %s cpu %s\n", c.name, spread(c.cpu))
	}
	first := cmds[0]
	for _, c := range cmds[1:] {
		for _, m := range []struct {
			what string
			a, b []float64
		}{{"wall", first.wall, c.wall}, {"cpu", first.cpu, c.cpu}} {
			r := make([]float64, len(m.a))
			for i := range r {
				r[i] = m.b[i] / max(m.a[i], 1e-3)
			}
			s := sorted(r)
			fmt.Printf("ratio %s %s %s %.4g %.4g %.4g\n", c.name, first.name, m.what, median(s), s[0], s[len(s)-1])
		}
	}
}

// spread is "MEDIAN P25 P75 MIN MAX" of xs.
func spread(xs []float64) string {
	s := sorted(xs)
	return fmt.Sprintf("%.4g %.4g %.4g %.4g %.4g", median(s), quantile(s, 0.25), quantile(s, 0.75), s[0], s[len(s)-1])
}

func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

func median(s []float64) float64 { return quantile(s, 0.5) }

// quantile interpolates linearly between the closest ranks of sorted s.
func quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}
