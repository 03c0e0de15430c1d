package hostcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/signin"

	"github.com/attache/attache/hostcore/redact"
)

// An authorization context is exactly what a server receives from one
// connection, with every placeholder resolved: for a stdio server the
// command line, working directory and environment given to the child; for
// an HTTP server the URL (userinfo included) and every header. Its
// fingerprint is the cache partition of the connection's private entries,
// so two connections share private entries exactly when the server cannot
// tell them apart, whatever the accounts are called.
//
// A connection resolves its context before anything reads its private
// entries: VS Code inputs are asked for first, then the cache is consulted.
type authContext struct {
	command string
	args    []string
	dir     string
	env     []string // "K=V", sorted: what the child gets, and nothing else

	url     string // with userinfo
	headers map[string]string

	fingerprint string
	// inputs and getenv resolve placeholders met later (a pre-registered
	// OAuth client's secret).
	inputs map[string]string
	getenv func(string) string
	// secrets are the values that must never be shown: resolved inputs,
	// header values, URL userinfo, configured environment values.
	secrets *redactor
}

// inheritedEnv names the variables a stdio child gets from the host's own
// environment, as the reference SDKs pass them on Unix. Everything else the
// child sees is declared by the config; a parent variable is passed on
// explicitly with ${env:NAME}.
var inheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

// inherited reports whether the host's variable name passes to children.
func inherited(name string) bool {
	return slices.Contains(inheritedEnv, name) || name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_")
}

// minimalEnv returns the part of environ that children inherit.
func minimalEnv(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && inherited(k) {
			out[k] = v
		}
	}
	return out
}

// envRef finds ${env:NAME} placeholders. It and hostcore's other regexps
// are compiled on first use rather than at start-up, which every process
// linking hostcore would pay for, a cached read included.
var envRef, inputRef = config.EnvRef, config.InputRef

// substitution resolves the placeholders of one connection's config.
type substitution struct {
	inputs  map[string]string
	getenv  func(string) string
	secrets *redactor
}

// expand replaces ${input:ID} and ${env:NAME} in s. Every value substituted
// is a secret: it is what the config kept out of the file.
func (s substitution) expand(v string) string {
	if !strings.Contains(v, "${") {
		return v // no placeholder: the common case needs no regexp
	}
	v = inputRef().ReplaceAllStringFunc(v, func(m string) string {
		val := s.inputs[inputRef().FindStringSubmatch(m)[1]]
		s.secrets.add(val, 1)
		return val
	})
	return envRef().ReplaceAllStringFunc(v, func(m string) string {
		val := s.getenv(envRef().FindStringSubmatch(m)[1])
		s.secrets.add(val, 1)
		return val
	})
}

func (s substitution) expandMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = s.expand(v)
	}
	return out
}

// resolveContext builds the authorization context of sc as acct, with the
// VS Code input values already asked for.
func resolveContext(sc config.ServerConfig, acct config.Account, inputs map[string]string, environ []string, getenv func(string) string) *authContext {
	sub := substitution{inputs: inputs, getenv: getenv, secrets: &redactor{}}
	a := &authContext{secrets: sub.secrets, inputs: inputs, getenv: getenv}
	if sc.IsHTTP() {
		a.url = sub.expand(sc.URL)
		a.headers = sub.expandMap(merge(sc.Headers, acct.Headers))
		for _, v := range a.headers {
			sub.secrets.add(v, 1)
			if _, token, ok := strings.Cut(v, " "); ok {
				sub.secrets.add(token, 1) // "Bearer TOKEN": the token alone too
			}
		}
		if u, err := url.Parse(a.url); err == nil && u.User != nil {
			sub.secrets.add(u.User.String(), 1)
			sub.secrets.add(u.User.Username(), 1)
			if p, ok := u.User.Password(); ok {
				sub.secrets.add(p, 1)
			}
		}
	} else {
		a.command = sub.expand(sc.Command)
		a.args = make([]string, len(sc.Args))
		for i, arg := range sc.Args {
			a.args[i] = sub.expand(arg)
		}
		a.dir = sub.expand(sc.Cwd)
		env := minimalEnv(environ)
		declared := sub.expandMap(merge(sc.Env, acct.Env))
		for _, v := range declared {
			// Short values ("1", "true", a tenant's name) are settings more
			// often than secrets, and hiding them would garble every message
			// that names an account.
			sub.secrets.add(v, minEnvSecret)
		}
		maps.Copy(env, declared)
		for _, k := range slices.Sorted(maps.Keys(env)) {
			a.env = append(a.env, k+"="+env[k])
		}
	}
	a.fingerprint = a.computeFingerprint()
	return a
}

// expandSecret resolves the placeholders of v, which is a secret (and so
// is what it resolves to).
func (a *authContext) expandSecret(v string) string {
	out := substitution{inputs: a.inputs, getenv: a.getenv, secrets: a.secrets}.expand(v)
	a.secrets.add(out, 1)
	return out
}

// minEnvSecret is the shortest configured environment value treated as a
// secret in messages.
const minEnvSecret = 8

// computeFingerprint hashes every field the server receives, each with its
// length so that no two contexts collide by shifting bytes between fields.
func (a *authContext) computeFingerprint() string {
	h := sha256.New()
	field := func(name string, vs ...string) {
		fmt.Fprintf(h, "%s:%d;", name, len(vs))
		for _, v := range vs {
			fmt.Fprintf(h, "%d:%s;", len(v), v)
		}
	}
	field("command", a.command)
	field("args", a.args...)
	field("dir", a.dir)
	field("env", a.env...)
	field("url", a.url)
	var hs []string
	for _, k := range slices.Sorted(maps.Keys(a.headers)) {
		hs = append(hs, strings.ToLower(k)+": "+a.headers[k])
	}
	field("headers", hs...)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// authContext resolves the connection's authorization context once: it asks
// for the VS Code inputs the config refers to (before any cache lookup and
// before the connect timeout starts) and reads the ${env:} values.
func (c *Conn) authContext(ctx context.Context) (*authContext, error) {
	c.mu.Lock()
	a := c.auth
	c.mu.Unlock()
	if a != nil {
		return a, nil
	}
	values := map[string]string{}
	for _, in := range c.Server.Inputs {
		v, err := c.host.inputValue(ctx, c.Server.Name, in)
		if err != nil {
			return nil, err
		}
		values[in.ID] = v
	}
	a = resolveContext(c.Server, c.Account, values, os.Environ(), os.Getenv)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.auth == nil {
		c.auth = a
		c.oauth = newOAuthHandler(c, a)
	}
	return c.auth, nil
}

// Partition returns the cache partition of the connection's private
// entries: the fingerprint of its authorization context. It may ask for
// VS Code inputs.
//
// A connection signed in through OAuth is its grant: the fingerprint mixes
// in the grant's id, which a refresh keeps and a new sign-in replaces.
func (c *Conn) Partition(ctx context.Context) (string, error) {
	a, err := c.authContext(ctx)
	if err != nil {
		return "", err
	}
	if o := c.oauthOf(); o != nil {
		return o.Partition(ctx, a.fingerprint)
	}
	return a.fingerprint, nil
}

// oauthOf returns the connection's OAuth handler, or nil.
func (c *Conn) oauthOf() *signin.Handler {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.oauth
}

// redactor replaces known secrets in text. It is safe for concurrent use
// once built (built once per context, then only read).
type redactor struct {
	values []string
}

// add records v as a secret when it is at least min bytes long.
func (r *redactor) add(v string, min int) {
	if r == nil || len(v) < max(min, 3) || slices.Contains(r.values, v) {
		return
	}
	r.values = append(r.values, v)
	// Longest first, so a token is replaced whole before any part of it.
	slices.SortFunc(r.values, func(a, b string) int { return len(b) - len(a) })
}

// redacted is the text shown in place of a secret.
const redacted = redact.Mark

// Redact returns s with every secret replaced.
func (r *redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	for _, v := range r.values {
		s = strings.ReplaceAll(s, v, redacted)
		if e := url.QueryEscape(v); e != v {
			s = strings.ReplaceAll(s, e, redacted)
		}
	}
	return s
}

// redactedError shows its cause with the secrets replaced, and still
// unwraps to it for errors.Is and errors.As.
type redactedError struct {
	err error
	r   *redactor
}

func (e redactedError) Error() string { return e.r.Redact(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }

// redactError hides the context's secrets in err's text, keeping its kind.
func (a *authContext) redactError(err error) error {
	if err == nil || a == nil {
		return err
	}
	var he *fault.Error
	if errors.As(err, &he) {
		return he.Redacted(a.secrets.Redact, func(err error) error { return redactedError{err, a.secrets} })
	}
	return redactedError{err, a.secrets}
}
