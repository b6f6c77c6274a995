# Firefox ESR and WebKitGTK for the cross-browser tests of the fallback
# (internal/testing/browsertest/crossbrowser_*_test.go), included by the Makefile. Debian's packages,
# installed with apt-get when missing and we are root, as the chromium target does:
#   firefox   firefox-esr (WebDriver BiDi is built in: Debian has no geckodriver, none is needed)
#   webkit    webkit2gtk-driver (WebKitWebDriver; MiniBrowser comes with libwebkit2gtk-4.1-0) and
#             xvfb (Debian's MiniBrowser has no headless mode: the tests start an Xvfb per browser)
# FIREFOX=/path/to/firefox, WEBKITWEBDRIVER=/path/to/WebKitWebDriver and XVFB=/path/to/Xvfb point
# the tests elsewhere.

# Including this file does not change the Makefile's default goal.
BROWSERS_MK_DEFAULT_GOAL := $(.DEFAULT_GOAL)

.PHONY: firefox webkit

FIREFOX ?= $(shell command -v firefox-esr 2>/dev/null || command -v firefox 2>/dev/null)
WEBKITWEBDRIVER ?= $(shell command -v WebKitWebDriver 2>/dev/null)
XVFB ?= $(shell command -v Xvfb 2>/dev/null)

# apt-get update, unless the package lists are less than an hour old: installing both browsers
# updates once.
APT_UPDATE_ONCE = { find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -60 2>/dev/null | grep -q . || apt-get update -q; }

firefox:
	@if [ -z "$(FIREFOX)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "firefox is missing: installing Debian's firefox-esr with apt-get"; \
	    $(APT_UPDATE_ONCE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q firefox-esr; \
	  else \
	    echo "The cross-browser tests need Firefox: install Debian's 'firefox-esr' package (sudo apt-get install firefox-esr) or set FIREFOX=/path/to/firefox."; exit 1; \
	  fi; \
	fi

webkit:
	@if [ -z "$(WEBKITWEBDRIVER)" ] || [ -z "$(XVFB)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "WebKitWebDriver or Xvfb is missing: installing Debian's webkit2gtk-driver and xvfb with apt-get"; \
	    $(APT_UPDATE_ONCE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q webkit2gtk-driver xvfb; \
	  else \
	    echo "The cross-browser tests need WebKitGTK's WebDriver and Xvfb: install Debian's 'webkit2gtk-driver' and 'xvfb' packages (sudo apt-get install webkit2gtk-driver xvfb) or set WEBKITWEBDRIVER=/path/to/WebKitWebDriver and XVFB=/path/to/Xvfb."; exit 1; \
	  fi; \
	fi

.DEFAULT_GOAL := $(BROWSERS_MK_DEFAULT_GOAL)
