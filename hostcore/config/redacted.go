package config

import (
	"regexp"
	"sync"

	"github.com/attache/attache/hostcore/redact"
)

// EnvRef matches a ${env:NAME} placeholder; InputRef (import.go) an
// ${input:ID} one.
var EnvRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{env:([^}]+)\}`) })

// Redacted returns the entry with every secret it holds replaced: URL
// userinfo, header values and environment values (placeholders such as
// ${input:token} are kept, since they are not secrets themselves). It is
// what front ends show and what the state database may keep.
func (s ServerConfig) Redacted() ServerConfig {
	s.URL = redact.URL(s.URL)
	s.Headers = redactValues(s.Headers)
	s.Env = redactValues(s.Env)
	accts := make([]Account, len(s.Accounts))
	for i, a := range s.Accounts {
		accts[i] = Account{Name: a.Name, Headers: redactValues(a.Headers), Env: redactValues(a.Env)}
	}
	if s.Accounts != nil {
		s.Accounts = accts
	}
	if s.OAuth != nil {
		o := *s.OAuth
		if o.ClientSecret != "" {
			o.ClientSecret = redactValues(map[string]string{"": o.ClientSecret})[""]
		}
		s.OAuth = &o
	}
	return s
}

// redactValues replaces every value that is not a pure placeholder.
func redactValues(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if InputRef().MatchString(v) && InputRef().ReplaceAllString(v, "") == "" ||
			EnvRef().MatchString(v) && EnvRef().ReplaceAllString(v, "") == "" {
			out[k] = v
			continue
		}
		out[k] = redact.Mark
	}
	return out
}
