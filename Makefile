screenshots:
	./scripts/screenshots.sh

# dist/Attaché.tar.xz: the binary, the icon and a .desktop entry (fyne package).
package:
	./scripts/package.sh

bench:
	./scripts/bench.sh

.PHONY: screenshots package bench
