#!/usr/bin/env bash
# The engine and CLI suites under ASan + UBSan: scripts/sanitize.sh asan (see there).
exec bash "$(dirname "$0")/sanitize.sh" asan "$@"
