package config

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/attache/attache/hostcore/fault"
)

// ImportSource names another host's config file whose servers Attaché reads
// (and never rewrites).
type ImportSource struct {
	// Kind is "claude-desktop" (an mcpServers object) or "vscode"
	// (.vscode/mcp.json: servers and inputs).
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// Input is a VS Code input: a value the person is asked for when a server
// that uses it starts, kept in memory only and never written to a file.
type Input struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	Password    bool   `json:"password,omitempty"`
}

// AddImport records an import source after checking that it can be read.
func (c *Config) AddImport(ctx context.Context, src ImportSource) ([]ServerConfig, error) {
	servers, err := ReadImport(ctx, src)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.Imports {
		if s == src {
			return servers, nil
		}
	}
	c.Imports = append(c.Imports, src)
	c.imported = append(c.imported, servers...)
	return servers, nil
}

// loadImports reads every import. One that cannot be read is an import
// error, and the others are read all the same; running out of time (or
// being stopped) ends the load.
func (c *Config) loadImports(ctx context.Context) error {
	for _, src := range c.Imports {
		servers, err := ReadImport(ctx, src)
		if ctx.Err() != nil {
			return err
		}
		if err != nil {
			c.importErrors = append(c.importErrors, err)
			continue
		}
		c.imported = append(c.imported, servers...)
	}
	return nil
}

// ReadImport reads the servers of another host's config file, a regular
// file of at most MaxConfigBytes, for no longer than ctx lasts.
func ReadImport(ctx context.Context, src ImportSource) ([]ServerConfig, error) {
	data, err := readNamedFile(ctx, src.Kind+" config", src.Path)
	if err != nil {
		return nil, err
	}
	var servers []ServerConfig
	switch src.Kind {
	case "claude-desktop":
		servers, err = parseClaudeDesktop(data)
	case "vscode":
		servers, err = parseVSCode(data)
	default:
		return nil, fault.New(fault.KindUsage, nil, "unknown import kind %q (claude-desktop or vscode)", src.Kind)
	}
	if err != nil {
		return nil, fault.New(fault.KindUsage, err, "%s config %s", src.Kind, src.Path)
	}
	for i := range servers {
		servers[i].Source = src.Kind + ":" + src.Path
	}
	return servers, nil
}

// importedServer is a server entry as both formats spell it.
type importedServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

func parseClaudeDesktop(data []byte) ([]ServerConfig, error) {
	var f struct {
		MCPServers map[string]importedServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return convertImported(f.MCPServers, nil)
}

func parseVSCode(data []byte) ([]ServerConfig, error) {
	var f struct {
		Servers map[string]importedServer `json:"servers"`
		Inputs  []Input                   `json:"inputs"`
	}
	if err := json.Unmarshal(stripJSONC(data), &f); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return convertImported(f.Servers, f.Inputs)
}

func convertImported(m map[string]importedServer, inputs []Input) ([]ServerConfig, error) {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []ServerConfig
	for _, name := range names {
		e := m[name]
		s := ServerConfig{Name: name, Command: e.Command, Args: e.Args, Env: e.Env, Cwd: e.Cwd,
			URL: e.URL, Headers: e.Headers, Inputs: usedInputs(e, inputs)}
		if e.Type == "sse" { // "http" and "streamable-http" stay automatic, as VS Code treats "http"
			s.Transport = TransportSSE
		}
		if err := s.Validate(); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// InputRef matches an ${input:ID} placeholder.
var InputRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{input:([^}]+)\}`) })

// usedInputs returns the inputs the entry's placeholders refer to.
func usedInputs(e importedServer, inputs []Input) []Input {
	refs := map[string]bool{}
	scan := func(s string) {
		for _, m := range InputRef().FindAllStringSubmatch(s, -1) {
			refs[m[1]] = true
		}
	}
	for _, v := range append([]string{e.Command, e.URL, e.Cwd}, e.Args...) {
		scan(v)
	}
	for _, m := range []map[string]string{e.Env, e.Headers} {
		for _, v := range m {
			scan(v)
		}
	}
	var out []Input
	for _, in := range inputs {
		if refs[in.ID] {
			out = append(out, in)
			delete(refs, in.ID)
		}
	}
	for id := range refs { // referred to but not declared: still prompt for it
		out = append(out, Input{ID: id, Type: "promptString", Description: id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// expandInputs replaces ${input:ID} in s with values[ID].
func expandInputs(s string, values map[string]string) string {
	return InputRef().ReplaceAllStringFunc(s, func(m string) string {
		return values[InputRef().FindStringSubmatch(m)[1]]
	})
}

// stripJSONC removes // and /* */ comments and trailing commas, which VS Code
// allows in its JSON files, outside strings.
func stripJSONC(data []byte) []byte {
	var out []byte
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString:
			out = append(out, c)
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				i++
			}
			i++
		default:
			out = append(out, c)
		}
	}
	return trailingCommas().ReplaceAll(out, []byte("$1"))
}

var trailingCommas = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,(\s*[}\]])`) })
