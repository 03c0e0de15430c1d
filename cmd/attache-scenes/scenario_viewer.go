package main

import "time"

// The body viewer's scenes: a big text body with a search, JSON, Markdown
// rendered (server-everything's features.md, with inline code) and its
// source, HTML, a text/plain blob (server-everything's dynamic blob) and
// a Latin-1 blob. They read from "bodies" (mcptestd --mode bodies) and
// "everything" (the app links no test server: the bodies' addresses are
// written out).
func init() {
	scenarios["body-text-find"] = func(s *script) error {
		if err := s.readBody("test://body/text/1m"); err != nil {
			return err
		}
		if err := s.settle(); err != nil {
			return err
		}
		s.do(func() { s.app.FindInBody("billing webhook") })
		s.do(func() { s.app.FindNextInBody(1); s.app.FindNextInBody(1) })
		return nil
	}
	scenarios["body-json"] = func(s *script) error { return s.readBody("test://body/json/40k") }
	scenarios["body-markdown"] = func(s *script) error {
		return s.readListed("everything", "demo://resource/static/document/features.md")
	}
	scenarios["body-markdown-source"] = func(s *script) error {
		if err := s.readListed("everything", "demo://resource/static/document/features.md"); err != nil {
			return err
		}
		if err := s.settle(); err != nil {
			return err
		}
		s.do(func() { s.app.ShowBodySource(true) })
		return nil
	}
	scenarios["body-html"] = func(s *script) error { return s.readBody("test://body/html/8k") }
	scenarios["body-blob-text"] = func(s *script) error {
		if err := s.try(func() error { return s.app.SelectServer("everything", "") }); err != nil {
			return err
		}
		if err := s.settle(); err != nil {
			return err
		}
		s.do(func() { s.app.Read("demo://resource/dynamic/blob/1") })
		return nil
	}
	scenarios["body-latin1"] = func(s *script) error { return s.readBody("test://body/blob-latin1/200") }
	// The 1 MiB text and Markdown bodies scrolled as measure-scroll
	// scrolls them, 40 px a step, 300 steps down: what a frame of the
	// measure shows.
	scenarios["body-text-scrolled"] = func(s *script) error { return s.scrolledBody("test://body/text/1m") }
	scenarios["body-markdown-scrolled"] = func(s *script) error { return s.scrolledBody("test://body/markdown/1m") }
}

// scrolledBody reads uri from "bodies" and scrolls it down 300 steps of
// scrollStep, a frame painted after each.
func (s *script) scrolledBody(uri string) error {
	if err := s.readBody(uri); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	for range 300 {
		s.do(func() { s.app.ScrollBody(scrollStep) })
		if err := s.run.WaitFrame(10 * time.Second); err != nil {
			return err
		}
	}
	return s.settle()
}

// readBody reads uri from the "bodies" server.
func (s *script) readBody(uri string) error {
	if err := s.try(func() error { return s.app.SelectServer("bodies", "") }); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(func() { s.app.Read(uri) })
	return nil
}
