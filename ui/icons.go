package ui

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/icon"
)

// maxIconFetches bounds the icon downloads in flight.
const maxIconFetches = 4

// iconCache holds the icons servers gave resources, fetched under the host's
// icon policy (icon.Fetcher: https and data URIs only, PNG or JPEG,
// no credentials). It fetches an icon the first time a row shows it and
// calls changed when it lands. Used on the main goroutine only.
type iconCache struct {
	sh      *shell
	changed func()
	got     map[string]fyne.Resource // by source; nil for a refused icon
	sem     chan struct{}
}

func newIconCache(sh *shell, changed func()) *iconCache {
	return &iconCache{sh: sh, changed: changed, got: map[string]fyne.Resource{}, sem: make(chan struct{}, maxIconFetches)}
}

// forResource returns r's icon if it has landed, starting its fetch
// otherwise; nil means no icon (yet).
func (c *iconCache) forResource(r hostcore.Resource) fyne.Resource {
	if c.sh.opts.Icons == nil || len(r.Icons) == 0 {
		return nil
	}
	src := r.Icons[0]
	if res, ok := c.got[src.Source]; ok {
		return res
	}
	c.got[src.Source] = nil // pending, and refused if it fails
	fetcher := c.sh.opts.Icons
	run(c.sh.work, c.sh.ctx, func(ctx context.Context) (icon.Icon, error) {
		c.sem <- struct{}{}
		defer func() { <-c.sem }()
		return fetcher.Fetch(ctx, src)
	}, func(ic icon.Icon, err error) {
		if err != nil {
			c.sh.opts.Logger.Info("icon refused", "resource", r.URI, "err", err)
			return
		}
		c.got[src.Source] = fyne.NewStaticResource(r.URI+"-icon", ic.Data)
		c.changed()
	})
	return nil
}
