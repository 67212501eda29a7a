#!/bin/sh
# Compile demo.c with mpicc-wrap (prints the warning), then run it under
# mpiexec -n 4: the run-time check aborts with a DYNAMIC-CHECK report instead of
# hanging.  Needs mpicc-wrap and mpiexec on PATH.  Exit 0 when that happened.
set -u
exec 2>&1  # one stream, in order, also when piped
cd "$(dirname "$0")" || exit 1
exe=${TMPDIR:-/tmp}/mpicc-wrap-demo.$$
trap 'rm -f "$exe"' EXIT
trap 'exit 130' INT TERM

echo '$ mpicc-wrap -o demo demo.c'
mpicc-wrap -o "$exe" demo.c || exit 1

echo '$ mpiexec -n 4 ./demo'
timeout 60 mpiexec -n 4 "$exe"
status=$?
echo "(exit status $status: $( [ "$status" -eq 124 ] && echo 'hung, killed by timeout' || echo 'stopped by the run-time check'))"
[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
