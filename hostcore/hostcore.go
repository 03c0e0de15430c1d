// Package hostcore is Attaché's domain: sessions with MCP servers, the
// catalog of resources and templates, reads, attachments and
// subscriptions. What is read is ranked, packed, counted and rendered by
// its pure sub-package pack, which does no I/O. It defines the small
// interfaces it needs (a body cache, a clock, a token store) and imports
// go-sdk, oauth2 and the standard library, and go-sdk's own JSON decoder
// (segmentio/encoding) for the few fields it reads of raw messages
// (wirejson.go); never Fyne, never database/sql. The concrete stores are
// wired to it in cmd/.
package hostcore
