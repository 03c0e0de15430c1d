screenshots:
	./scripts/screenshots.sh

.PHONY: screenshots
