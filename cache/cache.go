// Package cache stores resources/read bodies and list pages by key,
// partition and TTL in SQLite. It knows nothing of hostcore or MCP: the host
// decides what is cacheable and for whom, the cache stores bytes.
package cache
