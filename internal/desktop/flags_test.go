package desktop

import "testing"

// The released app's command line: its paths, -v and --measure-startup;
// the scenes' flags are not its own.
func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"none", nil, false},
		{"paths", []string{"--config", "c.json", "--data-dir", "d"}, false},
		{"measure", []string{"--measure-startup"}, false},
		{"a scenes flag", []string{"--scenario", "first-screen"}, true},
		{"stray argument", []string{"extra"}, true},
		{"unknown flag", []string{"--nope"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFlags(tt.args, &Options{})
			if (err != nil) != tt.wantErr {
				t.Errorf("parseFlags(%q) = %v, want error %v", tt.args, err, tt.wantErr)
			}
		})
	}
}
