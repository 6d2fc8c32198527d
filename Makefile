# Signet: two commands do all set-up.
#   make demo   runs the embedded default (SQLite in ./signet-data, a generated key, demo clients)
#   make test   installs what is missing, builds, and runs every test
#   make bench  runs the benchmarks and prints their figures
#   make fuzz   runs every libFuzzer target for FUZZ_SECONDS (default 30) each (docs/testing.md)
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build, the tests and the benchmarks need (the tests run the sqlite3 and
# curl commands: audit tampering, crash consistency, TLS).
DEB_PACKAGES := pkg-config gdb libssl-dev libsqlite3-dev libpq-dev libmicrohttpd-dev libsodium-dev \
                postgresql nginx-light wrk openssl ca-certificates chromium chromium-driver sqlite3 curl \
                libsecret-1-dev gnome-keyring dbus-x11 libcurl4-openssl-dev \
                libqrencode-dev zbar-tools prometheus libcbor-dev libidn2-dev dnsmasq-base
# Profilers for `make bench`'s findings (bench/README.md, "Profiling"): perf record, heaptrack.
BENCH_DEB_PACKAGES := linux-perf heaptrack
PY_TOOLS := jwcrypto==1.5.6 selenium==4.51.0 oidc-provider-mock==0.3.4 aiosmtpd==1.4.6 pyotp==2.12.1 schemathesis==4.32.5
VENV := .build/pytools
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps pydeps build release test demo bench fuzz clean check-imports check-suites

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing Debian packages:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

pydeps:
	@if [ ! -x $(VENV)/bin/python ] || ! $(VENV)/bin/python -c 'import jwcrypto, selenium, oidc_provider_mock, aiosmtpd, pyotp, schemathesis' 2>/dev/null; then \
	  echo "==> installing Python test tools into $(VENV)"; \
	  python3 -m venv $(VENV) && $(VENV)/bin/pip install -q $(PY_TOOLS); \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product signet

check-imports:
	@scripts/check-imports.sh

check-suites:
	@scripts/check-suites.sh

test: deps pydeps check-imports check-suites
	SIGNET_PYTHON=$(CURDIR)/$(VENV)/bin/python scripts/run-tests.sh

demo: release
	.build/release/signet serve --data ./signet-data --demo

# One --product per build: SwiftPM builds only the last one when given several.
bench: deps
	@missing=""; for p in $(BENCH_DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing profilers:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	$(SWIFT) build -c release --product signet
	$(SWIFT) build -c release --product SignetBench
	scripts/bench.sh $(BENCH_ARGS)

# libFuzzer + AddressSanitizer build of SignetFuzz in .build/fuzz; FUZZ_SECONDS per target.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(FUZZ_TARGETS)

clean:
	rm -rf .build signet-data
