package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/redact"
)

// A provider's failure becomes a fault.Error of the kind a person can
// act on, the same kinds (and attachectl exit codes) as a server's: a key
// refused is unauthorized (exit 4), a rate limit or a provider's fault is a
// server fault (exit 5), a provider that cannot be reached is a transport
// failure (exit 6), a stream that cannot be understood is a protocol error
// (exit 5). The message names the provider and the HTTP status, never the
// key; what the provider said goes in the detail.

// apiError is what both SDKs' error types tell.
type apiError struct {
	status  int
	header  http.Header
	message string
}

func asAPIError(err error) (apiError, bool) {
	var oe *openai.Error
	if errors.As(err, &oe) {
		e := apiError{status: oe.StatusCode, message: oe.Message}
		if oe.Response != nil {
			e.header = oe.Response.Header
		}
		return e, true
	}
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		e := apiError{status: ae.StatusCode, message: ae.Message}
		if ae.Response != nil {
			e.header = ae.Response.Header
		}
		return e, true
	}
	return apiError{}, false
}

// failure classifies err, met while asking provider pc.
func failure(err error, pc models.Provider, baseURL string) *fault.Error {
	var he *fault.Error
	if errors.As(err, &he) {
		return he
	}
	name := "provider " + pc.Name
	if ae, ok := asAPIError(err); ok {
		return statusFailure(err, ae, pc, name, baseURL)
	}
	var syntax *json.SyntaxError
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case errors.Is(err, context.Canceled):
		return chat.NewModelError(fault.KindCanceled, 0, err, "stopped: %s was still answering", name)
	case errors.Is(err, context.DeadlineExceeded):
		return chat.NewModelError(fault.KindTimeout, 0, err, "%s did not answer in time", name)
	case errors.As(err, &syntax):
		return chat.NewModelError(fault.KindProtocol, 0, err, "%s sent a stream that could not be understood (not valid JSON)", name)
	case errors.Is(err, syscall.ECONNREFUSED), errors.As(err, &netErr), errors.As(err, &urlErr):
		return chat.NewModelError(fault.KindTransport, 0, err, "%s cannot be reached at %s; check that it runs", name, redact.URL(baseURL))
	}
	return chat.NewModelError(fault.KindProtocol, 0, err, "%s sent a reply that could not be understood", name)
}

// statusFailure classifies an HTTP error reply.
func statusFailure(err error, ae apiError, pc models.Provider, name, baseURL string) *fault.Error {
	s := ae.status
	switch {
	case s == http.StatusUnauthorized:
		return chat.NewModelError(fault.KindUnauthorized, s, err, "%s refused the API key (HTTP 401); %s", name, keyHint(pc))
	case s == http.StatusForbidden:
		return chat.NewModelError(fault.KindForbidden, s, err, "%s does not allow this key to use model %s (HTTP 403)", name, pc.Model)
	case s == http.StatusTooManyRequests:
		msg := fmt.Sprintf("%s is rate limiting (HTTP 429)", name)
		if wait, ok := retryAfter(ae.header); ok {
			msg += "; it asks to wait " + wait.String() + " before trying again"
		}
		return chat.NewModelError(fault.KindServerFault, s, err, "%s", msg)
	case s == http.StatusNotFound:
		return chat.NewModelError(fault.KindNotFound, s, err, "%s has no model %q, or no API at %s (HTTP 404)", name, pc.Model, redact.URL(baseURL))
	case s >= 500:
		return chat.NewModelError(fault.KindServerFault, s, err, "%s failed (HTTP %d); try again later", name, s)
	}
	return chat.NewModelError(fault.KindInvalidParams, s, err, "%s refused the request (HTTP %d): %s", name, s, clip(ae.message))
}

// keyHint says where the key of pc comes from.
func keyHint(pc models.Provider) string {
	if pc.APIKeyEnv != "" {
		return "check " + pc.APIKeyEnv + " or the key kept with attachectl providers set-key " + pc.Name
	}
	return "set its key with attachectl providers set-key " + pc.Name
}

// retryAfter reads Retry-After (seconds, or an HTTP date) and OpenAI's
// retry-after-ms.
func retryAfter(h http.Header) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond)).Round(time.Millisecond), true
	}
	v := h.Get("Retry-After")
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second)).Round(time.Second), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t).Round(time.Second), true
	}
	return 0, false
}

// clip bounds a provider's message shown to a person.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "…"
	}
	if s == "" {
		return "no reason given"
	}
	return s
}

// incomplete is the error of a stream that ended before its reply did.
func incomplete(pc models.Provider) *fault.Error {
	return chat.NewModelError(fault.KindProtocol, 0, nil,
		"provider %s: the stream ended before the reply was complete", pc.Name)
}
