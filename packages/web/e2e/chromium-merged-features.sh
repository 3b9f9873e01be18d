#!/bin/sh
# Debian's Chromium for the browser tests (e2e/browser.ts), started with every --disable-features
# switch merged into one. Chromium reads only the last of them, and Playwright passes its own list
# before the tests' (docs/development.md, "The browser's omnibox page"). The binary is named by
# BT_CHROMIUM_BINARY (/usr/bin/chromium, or BT_CHROMIUM).
set -eu
disabled=
for arg do
  shift
  case $arg in
    --disable-features=*) disabled="${disabled:+$disabled,}${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "${BT_CHROMIUM_BINARY:?BT_CHROMIUM_BINARY names the Chromium to start}" ${disabled:+"--disable-features=$disabled"} "$@"
