package hostcore_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(strings.TrimSpace(s), v) }

// isZombie reports whether pid has exited but not been reaped (it then
// still answers kill -0).
func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] == "Z"
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
