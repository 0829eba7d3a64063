# qrseal — build, test, demo and benchmark.
# `make demo` and `make test` are the only two set-up commands a user needs:
# both run `make setup` first, which installs whatever Debian packages are missing.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG ?= release
BIN = .build/$(CONFIG)/qrseal

# C libraries the package links against, and the peer tools the tests and
# benchmarks use as independent checks.
DEB_LIBS = libqrencode-dev libzbar-dev libzxing-dev libpng-dev zlib1g-dev libturbojpeg0-dev libssl-dev libbrotli-dev libsqlite3-dev libisal-dev libtesseract-dev tesseract-ocr-eng linux-libc-dev pkg-config
DEB_PEERS = qrencode zbar-tools zxing-cpp-tools zint imagemagick librsvg2-bin age openssl sqlite3 python3 python3-venv liberasurecode-dev tesseract-ocr fonts-dejavu-core
DEB_PACKAGES = $(DEB_LIBS) $(DEB_PEERS)

.PHONY: all setup build test demo bench clean

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
	$(SWIFT) build -c $(CONFIG) --product qrseal

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	bash vectors/reference/run.sh

demo: build
	CONFIG=$(CONFIG) ./demo/run.sh $(BIN)

bench: build
	python3 bench/run.py --qrseal $(BIN)
	python3 bench/seal.py --qrseal $(BIN)
	python3 bench/inbox.py --qrseal $(BIN)
	python3 bench/live.py --qrseal $(BIN)
	python3 bench/parts.py --qrseal $(BIN)
	python3 bench/text.py --qrseal $(BIN)

# Fuzzing, not part of `make test` (Fuzz/README.md): every target for FUZZ_RUNS executions
# or FUZZ_SECONDS seconds, whichever ends first (0: no bound); FUZZ_TARGETS picks some.
FUZZ_RUNS ?= 1000000
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

.PHONY: fuzz
fuzz: setup
	bash Fuzz/build.sh $(FUZZ_TARGETS)
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SECONDS=$(FUZZ_SECONDS) bash Fuzz/run.sh $(FUZZ_TARGETS)

clean:
	rm -rf .build demo/out
