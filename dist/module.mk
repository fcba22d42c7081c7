# dist/module.mk - installing zonelab like a package (fragment of ./Makefile,
# included after the program paths are known).
#   make install     zonelab and zonelab-nvmet (dist/zonelab-nvmet.sh, NVMe ZNS
#                    export, docs/NVME-ZNS.md) -> $(BINDIR), handler_zonelab.so -> tcmu-runner's
#                    handler directory, zonelab(1) -> $(MANDIR)/man1, bash
#                    completion, README.md and docs/*.md -> $(DOCDIR)
#   make uninstall   removes exactly those files (and the directories it made
#                    that are left empty)
# Knobs: PREFIX (default /usr/local), DESTDIR (staging root), BINDIR,
# DATAROOTDIR, MANDIR, DOCDIR, BASHCOMPDIR, TCMU_HANDLER_DIR.
#
# TCMU_HANDLER_DIR does not follow PREFIX: it is the directory tcmu-runner
# loads handlers from (its --handler-path default, which Debian's package
# uses: /usr/lib/<multiarch>/tcmu-runner), so an installed handler is found
# without configuration.  Set it to install somewhere else and start
# tcmu-runner with --handler-path.
#
# The man page and the completion are generated in $(O) by `make` from the
# built zonelab's --help texts (dist/mkman.sh, dist/mkcompletion.sh), so a
# new subcommand or option appears in both without editing them;
# tests/scripts/072-install.sh checks the installed files.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
DOCDIR ?= $(DATAROOTDIR)/doc/zonelab
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
DIST_MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
TCMU_HANDLER_DIR ?= /usr/lib/$(or $(DIST_MULTIARCH),x86_64-linux-gnu)/tcmu-runner
INSTALL ?= install

DIST_MAN := $(O)/zonelab.1
DIST_BASHCOMP := $(O)/zonelab.bash
DIST_SHLIB := $(filter %handler_zonelab.so,$(SHLIBS))
DIST_DOCS := README.md $(sort $(wildcard docs/*.md))
# The installed paths the man page names; rewritten only when they change,
# so the page is regenerated for another PREFIX but not on every make.
DIST_PATHS := $(O)/dist/paths
DIST_PATHS_NOW := TCMU_HANDLER_DIR=$(TCMU_HANDLER_DIR) DOCDIR=$(DOCDIR)

ifeq ($(filter clean help,$(MAKECMDGOALS)),)
$(shell mkdir -p $(O)/dist && { [ "$$(cat $(DIST_PATHS) 2>/dev/null)" = "$(DIST_PATHS_NOW)" ] || echo "$(DIST_PATHS_NOW)" > $(DIST_PATHS); })
endif

.PHONY: install uninstall
all: $(DIST_MAN) $(DIST_BASHCOMP)

$(DIST_MAN): $(ZONELAB) dist/mkman.sh dist/zonelab.1.in $(DIST_PATHS)
	@$(if $(Q),echo "  MAN     $@")
	$(Q)dist/mkman.sh $(ZONELAB) dist/zonelab.1.in $$(cat $(DIST_PATHS)) > $@.tmp && mv $@.tmp $@

$(DIST_BASHCOMP): $(ZONELAB) dist/mkcompletion.sh
	@$(if $(Q),echo "  GEN     $@")
	$(Q)dist/mkcompletion.sh $(ZONELAB) > $@.tmp && mv $@.tmp $@

install: $(ZONELAB) $(DIST_SHLIB) $(DIST_MAN) $(DIST_BASHCOMP)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(TCMU_HANDLER_DIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DOCDIR)/docs
	$(INSTALL) -m 755 $(ZONELAB) $(DESTDIR)$(BINDIR)/zonelab
	$(INSTALL) -m 755 dist/zonelab-nvmet.sh $(DESTDIR)$(BINDIR)/zonelab-nvmet
	$(INSTALL) -m 644 $(DIST_SHLIB) $(DESTDIR)$(TCMU_HANDLER_DIR)/handler_zonelab.so
	$(INSTALL) -m 644 $(DIST_MAN) $(DESTDIR)$(MANDIR)/man1/zonelab.1
	$(INSTALL) -m 644 $(DIST_BASHCOMP) $(DESTDIR)$(BASHCOMPDIR)/zonelab
	$(INSTALL) -m 644 README.md $(DESTDIR)$(DOCDIR)/README.md
	$(INSTALL) -m 644 $(filter docs/%,$(DIST_DOCS)) $(DESTDIR)$(DOCDIR)/docs/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/zonelab $(DESTDIR)$(BINDIR)/zonelab-nvmet $(DESTDIR)$(TCMU_HANDLER_DIR)/handler_zonelab.so \
		$(DESTDIR)$(MANDIR)/man1/zonelab.1 $(DESTDIR)$(BASHCOMPDIR)/zonelab \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(DIST_DOCS))
	rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null || true
CHECK_SCRIPTS += tests/scripts/072-install.sh tests/scripts/073-nvmet-script.sh
