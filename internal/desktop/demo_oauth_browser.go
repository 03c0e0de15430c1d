package desktop

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// hiddenInput is a hidden field of the login form.
var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// ApproveSignIn is the person at the browser on the demo's login page
// (threengram's): it opens the authorization page, picks tenant and
// approves, as a browser posts the form, then follows the redirect back to
// the host's loopback listener. The screenshot scenes and the tests sign
// in with it.
func ApproveSignIn(page, tenant string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	body, err := fetch(ctx, http.MethodGet, page, nil)
	if err != nil {
		return fmt.Errorf("opening the sign-in page: %w", err)
	}
	form := url.Values{"tenant": {tenant}, "action": {"approve"}}
	for _, m := range hiddenInput.FindAllStringSubmatch(body, -1) {
		form.Set(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	if form.Get("csrf") == "" {
		return errors.New("the sign-in page has no login form")
	}
	u, err := url.Parse(page)
	if err != nil {
		return err
	}
	u.RawQuery = ""
	if _, err := fetch(ctx, http.MethodPost, u.String(), form); err != nil {
		return fmt.Errorf("approving the sign-in: %w", err)
	}
	return nil
}

// fetch sends a request as a browser would (following redirects) and
// returns the body of the page it ends at.
func fetch(ctx context.Context, method, target string, form url.Values) (string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s%s answered %s", resp.Request.URL.Host, resp.Request.URL.Path, resp.Status)
	}
	return string(b), err
}
