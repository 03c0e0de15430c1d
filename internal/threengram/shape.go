package threengram

// The shapes of the strings threengram accepts from outside (a memory id, a
// PKCE challenge or verifier) are checked by a loop over their bytes, not by
// package-level regexps: compiling `{43,128}` at start-up unrolls it into a
// program of some 130 states, which cost every process that links this
// package (attachectl links it for its demo server) about 6 million
// instructions and 2,000 allocations before main, whether or not it ever
// serves a request.

// shaped reports whether s is between min and max bytes long and every byte
// passes ok.
func shaped(s string, min, max int, ok func(byte) bool) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDigitOrLower(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' }

func isAlnum(c byte) bool { return isDigitOrLower(c) || 'A' <= c && c <= 'Z' }

// isBase64URL is the base64url alphabet (RFC 4648 §5), without padding.
func isBase64URL(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

// isUnreserved is RFC 3986's unreserved set, what a code_verifier is made of.
func isUnreserved(c byte) bool { return isBase64URL(c) || c == '.' || c == '~' }

// validID reports whether id has the shape of a memory id: 1 to 64 digits
// and lower-case ASCII letters. Anything else cannot exist, and is answered
// as not found before the database is asked.
func validID(id string) bool { return shaped(id, 1, 64, isDigitOrLower) }

// validChallenge reports whether s has the shape of an S256
// code_challenge: 32 bytes, base64url without padding (43 characters).
func validChallenge(s string) bool { return shaped(s, 43, 43, isBase64URL) }

// validVerifier reports whether s has the shape of a code_verifier (RFC
// 7636 §4.1): 43 to 128 unreserved characters.
func validVerifier(s string) bool { return shaped(s, 43, 128, isUnreserved) }
