# SPDX-License-Identifier: GPL-2.0
# kdump-file: top-level build, install, tests and the demonstration.
#
#   make demo     build (or reuse) kernel and guest, crash a guest, capture
#                 and analyse the dump
#   make check    unit tests, shell checks, KUnit and the QEMU scenarios
#   make check-full  the same with the slow scenarios of test/check-full-only
#   make bench    kdump-file against Debian's kdump-tools: figures, no verdict
#   make series-check  each kernel patch applies, passes checkpatch and
#                 builds on its own (slow: a kernel build per patch)
#   make deb      the Debian package, in build/deb/, and lintian's verdict
#
# Kernel builds and guest images are cached under $(KDUMP_FILE_CACHE);
# scenario outputs go to $(KDUMP_FILE_OUT).

PREFIX ?= /usr
DESTDIR ?=
export KDUMP_FILE_CACHE ?= /var/cache/kdump-file
export KDUMP_FILE_OUT ?= /var/tmp/kdump-file

SUBDIRS ?= lib kdump-service dracut-module analysis

all:
	@for d in $(SUBDIRS); do $(MAKE) -C $$d all || exit 1; done

install:
	@for d in $(SUBDIRS); do $(MAKE) -C $$d install DESTDIR=$(abspath $(DESTDIR)) PREFIX=$(PREFIX) || exit 1; done

deps:
	@test/lib/deps.sh

kernel: deps
	@test/lib/kernel-build.sh

# Each patch of kernel-patches/ in order: applies, checkpatch --strict,
# builds alone.
series-check: deps
	@test/lib/series-check.sh

image: kernel
	@test/lib/guest-image.sh "$$(test/lib/kernel-build.sh)"

# Everything that runs without a guest.
check-unit: deps all
	@for d in $(SUBDIRS); do $(MAKE) -C $$d check || exit 1; done
	shellcheck -x test/lib/*.sh test/lib/guest-steps/*.sh test/*.sh test/bench/*.sh test/TEST-*/test.sh
	test/lib/man-lint.sh kdump-service/man/*.[0-9] analysis/man/*.[0-9]
	shellcheck -s sh -x kdump-service/kernel-hooks/postinst kdump-service/kernel-hooks/postrm debian/postrm debian/postinst debian/config

check-scenarios: deps
	@test/run-scenarios.sh

check: deps
	@test/run-check.sh

# make check plus the slow, rarely changing scenarios of test/check-full-only.
check-full: deps
	@KDUMP_FILE_FULL=1 test/run-check.sh

demo: deps
	@test/demo.sh

bench: deps
	@test/bench/run.sh

# The vmcore reader's fuzzer, long (FUZZ_TIME seconds, default 600); make
# check runs it briefly with a fixed seed. fuzz-merge keeps what it found.
fuzz: deps
	@$(MAKE) -C analysis fuzz

fuzz-merge:
	@$(MAKE) -C analysis fuzz-merge

# The Debian package (debian/): dpkg-buildpackage in a copy of the tree
# under build/deb/, where the .deb, its -dbgsym and the .changes land
# (dpkg-buildpackage writes them next to the tree it builds); the tree and
# its build/ directories are left alone.  debian/rules gets no variable
# from this make's command line (DEB_BUILD_OPTIONS=parallel=2 builds in
# parallel).  Then lintian.
DEB_DIR := build/deb

deb: deps
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/kdump-file
	tar -c --exclude=./.git --exclude=build . | tar -x -C $(DEB_DIR)/kdump-file
	cd $(DEB_DIR)/kdump-file && unset MAKEFLAGS MFLAGS MAKELEVEL && \
		dpkg-buildpackage -us -uc -b
	rm -rf $(DEB_DIR)/kdump-file
	@$(MAKE) --no-print-directory lintian

# lintian on what make deb built: informational and pedantic tags shown,
# errors and warnings fail.
lintian:
	@set -- $(DEB_DIR)/kdump-file_*.changes; \
	if [ ! -f "$$1" ]; then echo "lintian: no package in $(DEB_DIR): run make deb" >&2; exit 1; fi; \
	echo "lintian $$*"; lintian --display-info --pedantic --fail-on error,warning "$$@"

clean:
	@for d in $(SUBDIRS); do $(MAKE) -C $$d clean || exit 1; done

.PHONY: all install deps kernel series-check image check-unit check-scenarios check check-full demo bench deb lintian fuzz fuzz-merge clean
