package desktop

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/internal/threengram"
)

// demoOAuthAddr is where the demo's OAuth server listens when it can. The
// server's URL is its identity to the host: its cache entries and its
// sign-in are kept under it. A fixed port keeps them from one run to the
// next (and the server's own grants, in its database, stay valid for the
// same issuer); when the port is taken, by another copy of the app or
// anything else, a random one serves that run, and that run's sign-in is
// its own.
const demoOAuthAddr = "127.0.0.1:47821"

// demoOAuth is the threengram reference server over loopback HTTP with
// OAuth, served from the app's own process: it is the protected resource
// and its tenants' authorization server, whose login page a person sees
// in the browser (pick a tenant, Approve). It shares the stdio demo's
// database, which threengram opens in WAL mode with a busy timeout so that
// its processes can write to it together, and which it seeds once however
// many open it first.
type demoOAuth struct {
	endpoint string // the /mcp URL
	srv      *http.Server
	done     chan struct{} // closed when the server has stopped and closed its store
}

// startDemoOAuth serves the database db at addr (demoOAuthAddr), else at a
// random loopback port. It listens at once, so that the URL is known, and
// opens the store and serves on a goroutine, so that the first frame does
// not wait for a database: a request that comes first waits in the
// listener's backlog. If the store cannot be opened, the listener closes
// and the server's card shows the refused connection.
func startDemoOAuth(addr, db string, logger *slog.Logger) (*demoOAuth, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.Info("the demo's OAuth server takes a random port", "wanted", addr, "err", err)
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return nil, err
		}
	}
	issuer := "http://" + ln.Addr().String()
	d := &demoOAuth{endpoint: issuer + "/mcp", srv: &http.Server{ReadHeaderTimeout: 10 * time.Second}, done: make(chan struct{})}
	go d.serve(ln, db, issuer, logger)
	return d, nil
}

func (d *demoOAuth) serve(ln net.Listener, db, issuer string, logger *slog.Logger) {
	defer close(d.done)
	store, err := threengram.OpenStore(db, nil)
	if err != nil {
		logger.Error("the demo's OAuth server cannot open its database", "db", db, "err", err)
		ln.Close()
		return
	}
	defer store.Close()
	if _, err := store.Seed(context.Background(), assets.Corpus); err != nil {
		logger.Error("the demo's OAuth server cannot seed its database", "db", db, "err", err)
		ln.Close()
		return
	}
	d.srv.Handler = threengram.NewHTTPHandler(store, &threengram.HTTPOptions{Logger: logger,
		OAuth: &threengram.OAuthOptions{Issuer: issuer}})
	if err := d.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		logger.Error("the demo's OAuth server stopped", "err", err)
	}
}

// Close stops the server and closes its store.
func (d *demoOAuth) Close() error {
	err := d.srv.Close()
	<-d.done
	return err
}
