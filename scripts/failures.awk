# failures.awk reads `go test -v` output and prints only what a person
# needs on the terminal: each package's ok/FAIL line, a panic, a build
# failure, and the output of the tests that failed (each test's own
# lines, kept while it runs and printed when its "--- FAIL" arrives).
# The passing tests' logs stay in the log file. Used by scripts/test.sh.
function flush(name) { if (name in buf) { printf "%s", buf[name]; delete buf[name] } }
/^=== (RUN|CONT|PAUSE|NAME)/ { cur = $3; next }
/^[ \t]*--- FAIL: / {
	name = $3
	print
	flush(name)
	next
}
/^[ \t]*--- (PASS|SKIP): / { delete buf[$3]; next }
/^(ok|FAIL|panic:)/ || /^# / || /\[build failed\]/ || /^[^ \t].*\.go:[0-9]+:[0-9]+: / { print; next }
/^(PASS|\?)/ { next }
{ if (cur != "") buf[cur] = buf[cur] $0 "\n"; else print }
