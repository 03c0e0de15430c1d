screenshots:
	./scripts/screenshots.sh

bench:
	./scripts/bench.sh

.PHONY: screenshots bench
