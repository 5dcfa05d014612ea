#!/usr/bin/env bash
# The threaded engine and UI suites under ThreadSanitizer: scripts/sanitize.sh tsan (see there).
exec bash "$(dirname "$0")/sanitize.sh" tsan "$@"
