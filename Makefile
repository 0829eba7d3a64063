# qrseal — build, test, demo and benchmark.
# `make demo` and `make test` are the only two set-up commands a user needs:
# both run `make setup` first, which installs whatever Debian packages are missing.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG ?= release
BIN = .build/$(CONFIG)/qrseal
# The helper process that runs zxing-cpp and Tesseract's start (Sources/CEngine); qrseal
# finds it beside itself, or in ../lib/qrseal/ from it once installed.
ENGINE = $(dir $(BIN))qrseal-engine
# The Swift runtime and Foundation linked into the binary, so that it runs without the
# toolchain and starts faster (bench/startup.py); empty to link the toolchain's shared ones.
SWIFT_STATIC ?= --static-swift-stdlib

# Where `make install` puts things (DESTDIR for staging), and the .deb `make deb` builds.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
ENGINEDIR ?= $(PREFIX)/lib/qrseal
MANDIR ?= $(PREFIX)/share/man
BASH_COMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
VERSION := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/QRSealCLI/Arguments/Commands.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
# The package's version is the program's, with a Debian revision (the package is not native).
DEB_REVISION ?= 1
DEB_VERSION = $(VERSION)-$(DEB_REVISION)
DEB = .build/qrseal_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_MAINTAINER ?= qrseal maintainers <maintainers@users.noreply.a-seed-400f2da3.example>

# C libraries the package links against, and the peer tools the tests and
# benchmarks use as independent checks; the second line of DEB_PEERS runs the desktop app's
# tests (Tests/Desktop: Xvfb, a D-Bus session, the accessibility bus, pyatspi; python3-gi and
# GTK 4's typelib for the harness's own fixture window) and checks its .desktop file and metainfo.
DEB_LIBS = libqrencode-dev libzbar-dev libzxing-dev libpng-dev zlib1g-dev libturbojpeg0-dev libssl-dev libbrotli-dev libsqlite3-dev libisal-dev libcairo2-dev libgif-dev libtiff-dev libwebp-dev libpoppler-glib-dev librsvg2-dev libtesseract-dev tesseract-ocr-eng fonts-dejavu-core linux-libc-dev pkg-config libgtk-4-dev libadwaita-1-dev
DEB_PEERS = qrencode zbar-tools zxing-cpp-tools zint imagemagick librsvg2-bin age openssl sqlite3 poppler-utils python3 python3-venv liberasurecode-dev tesseract-ocr tesseract-ocr-deu \
	bash zsh fish dpkg-dev fakeroot lintian \
	xvfb dbus-daemon dbus-bin at-spi2-core python3-pyatspi python3-gi gir1.2-gtk-4.0 x11-utils \
	adwaita-icon-theme desktop-file-utils appstream
DEB_PACKAGES = $(DEB_LIBS) $(DEB_PEERS)

.PHONY: all setup build test test-desktop demo bench clean install uninstall deb

all: build

setup:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	  done | tr '\n' ' '); \
	if [ -z "$$missing" ]; then echo "setup: all Debian packages present"; exit 0; fi; \
	if [ "$$(id -u)" -ne 0 ]; then \
	  echo "setup: missing Debian packages: $$missing"; \
	  echo "setup: run as root: apt-get update && apt-get install -y $$missing"; exit 1; \
	fi; \
	echo "setup: installing $$missing"; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing

build: setup
	$(SWIFT) build -c $(CONFIG) $(SWIFT_STATIC) --product qrseal
	$(SWIFT) build -c $(CONFIG) $(SWIFT_STATIC) --product qrseal-engine
	$(SWIFT) build -c $(CONFIG) $(SWIFT_STATIC) --product qrseal-desktop

# The tests install the .deb into a scratch root and run it without the toolchain.
test: setup deb
	$(SWIFT) build --build-tests
	QRSEAL_DEB=$(CURDIR)/$(DEB) $(SWIFT) test --skip-build
	bash vectors/reference/run.sh
	$(MAKE) --no-print-directory test-desktop QRSEAL_DESKTOP_DEB=$(CURDIR)/$(DESKTOP_DEB)

# The desktop app's UI tests (Tests/Desktop/README.md): the debug app under Xvfb, driven
# through AT-SPI; screenshots of every page go to .build/desktop-screenshots/. They check the
# .desktop file and the metainfo with their validators, and the qrseal-desktop package when
# QRSEAL_DESKTOP_DEB names it (as `make test` does).
test-desktop: setup
	$(SWIFT) build --product qrseal-desktop
	$(SWIFT) build --product qrseal
	$(SWIFT) build --product qrseal-engine
	QRSEAL_DESKTOP=$(CURDIR)/.build/debug/qrseal-desktop QRSEAL=$(CURDIR)/.build/debug/qrseal \
	  QRSEAL_DESKTOP_DEB=$(QRSEAL_DESKTOP_DEB) bash Tests/Desktop/run.sh

demo: build
	CONFIG=$(CONFIG) ./demo/run.sh $(BIN)

bench: build
	python3 bench/run.py --qrseal $(BIN)
	python3 bench/seal.py --qrseal $(BIN)
	python3 bench/inbox.py --qrseal $(BIN)
	python3 bench/live.py --qrseal $(BIN)
	python3 bench/parts.py --qrseal $(BIN)
	python3 bench/text.py --qrseal $(BIN)
	python3 bench/livetext.py --qrseal $(BIN)

# Fuzzing, not part of `make test` (Fuzz/README.md): every target for FUZZ_RUNS executions
# or FUZZ_SECONDS seconds, whichever ends first (0: no bound); FUZZ_TARGETS picks some.
FUZZ_RUNS ?= 1000000
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_SEED ?= 0

.PHONY: fuzz
fuzz: setup
	bash Fuzz/build.sh $(FUZZ_TARGETS)
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) bash Fuzz/run.sh $(FUZZ_TARGETS)

# The manual: qrseal(1), the overview, and a page for each command or family of commands;
# qrseal-desktop(1) goes with the app.
MANPAGES = $(filter-out qrseal-desktop.1,$(notdir $(wildcard man/*.1)))

# The desktop app, beside the CLI (its own package: `make deb`), with its launcher, AppStream
# metainfo and icons (packaging/desktop/).
DESKTOP_BIN = $(dir $(BIN))qrseal-desktop
DATADIR ?= $(PREFIX)/share
APPLICATIONSDIR ?= $(DATADIR)/applications
METAINFODIR ?= $(DATADIR)/metainfo
ICONSDIR ?= $(DATADIR)/icons/hicolor
DESKTOP_ID = org.qrseal.Desktop
DESKTOP_FILES = $(APPLICATIONSDIR)/$(DESKTOP_ID).desktop $(METAINFODIR)/$(DESKTOP_ID).metainfo.xml \
	$(ICONSDIR)/scalable/apps/$(DESKTOP_ID).svg $(ICONSDIR)/symbolic/apps/$(DESKTOP_ID)-symbolic.svg \
	$(MANDIR)/man1/qrseal-desktop.1.gz
DESKTOP_DEB = .build/qrseal-desktop_$(DEB_VERSION)_$(DEB_ARCH).deb

.PHONY: install-cli install-desktop

install: install-cli install-desktop

# The binary, the man pages and the completion scripts (written by the binary itself).
install-cli: build
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(ENGINEDIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(BASH_COMPDIR) $(DESTDIR)$(ZSH_COMPDIR) $(DESTDIR)$(FISH_COMPDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/qrseal
	install -m 0755 $(ENGINE) $(DESTDIR)$(ENGINEDIR)/qrseal-engine
	for page in $(MANPAGES); do gzip -9n < man/$$page > $(DESTDIR)$(MANDIR)/man1/$$page.gz || exit 1; done
	$(BIN) completions bash > $(DESTDIR)$(BASH_COMPDIR)/qrseal
	$(BIN) completions zsh > $(DESTDIR)$(ZSH_COMPDIR)/_qrseal
	$(BIN) completions fish > $(DESTDIR)$(FISH_COMPDIR)/qrseal.fish
	chmod 0644 $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(addsuffix .gz,$(MANPAGES))) $(DESTDIR)$(BASH_COMPDIR)/qrseal \
	  $(DESTDIR)$(ZSH_COMPDIR)/_qrseal $(DESTDIR)$(FISH_COMPDIR)/qrseal.fish

install-desktop: build
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(APPLICATIONSDIR) $(DESTDIR)$(METAINFODIR) \
	  $(DESTDIR)$(ICONSDIR)/scalable/apps $(DESTDIR)$(ICONSDIR)/symbolic/apps $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(DESKTOP_BIN) $(DESTDIR)$(BINDIR)/qrseal-desktop
	install -m 0644 packaging/desktop/$(DESKTOP_ID).desktop $(DESTDIR)$(APPLICATIONSDIR)/
	install -m 0644 packaging/desktop/$(DESKTOP_ID).metainfo.xml $(DESTDIR)$(METAINFODIR)/
	install -m 0644 packaging/desktop/icons/hicolor/scalable/apps/$(DESKTOP_ID).svg $(DESTDIR)$(ICONSDIR)/scalable/apps/
	install -m 0644 packaging/desktop/icons/hicolor/symbolic/apps/$(DESKTOP_ID)-symbolic.svg \
	  $(DESTDIR)$(ICONSDIR)/symbolic/apps/
	gzip -9n < man/qrseal-desktop.1 > $(DESTDIR)$(MANDIR)/man1/qrseal-desktop.1.gz
	chmod 0644 $(DESTDIR)$(MANDIR)/man1/qrseal-desktop.1.gz

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/qrseal $(DESTDIR)$(ENGINEDIR)/qrseal-engine \
	  $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(addsuffix .gz,$(MANPAGES))) \
	  $(DESTDIR)$(BASH_COMPDIR)/qrseal $(DESTDIR)$(ZSH_COMPDIR)/_qrseal $(DESTDIR)$(FISH_COMPDIR)/qrseal.fish
	rm -f $(DESTDIR)$(BINDIR)/qrseal-desktop $(addprefix $(DESTDIR),$(DESKTOP_FILES))

# Two Debian packages of the installed files, each checked by lintian: qrseal (the CLI,
# packaging/deb.sh) and qrseal-desktop (the app, packaging/desktop/deb.sh), which depends on
# qrseal of the same version; the CLI's does not pull GTK.
deb: build
	rm -rf .build/deb
	$(MAKE) --no-print-directory -o build install-cli PREFIX=/usr DESTDIR=$(CURDIR)/.build/deb/qrseal \
	  ZSH_COMPDIR=/usr/share/zsh/vendor-completions
	bash packaging/deb.sh .build/deb/qrseal $(DEB_VERSION) "$(DEB_MAINTAINER)" $(DEB)
	lintian --fail-on error $(DEB)
	$(MAKE) --no-print-directory -o build install-desktop PREFIX=/usr DESTDIR=$(CURDIR)/.build/deb/qrseal-desktop
	bash packaging/desktop/deb.sh .build/deb/qrseal-desktop $(DEB_VERSION) "$(DEB_MAINTAINER)" $(DESKTOP_DEB)
	lintian --fail-on error $(DESKTOP_DEB)

clean:
	rm -rf .build demo/out
