#!/usr/bin/env bash
# The project's two entry points, each doing all of its own set-up on a fresh machine:
#   bash scripts/dev.sh serve   build the site and serve it with live widgets on http://127.0.0.1:8000/
#   bash scripts/dev.sh test    run the whole test suite (engine, build, cross-links, real Chromium)
# Set-up is idempotent: a .venv with the project and its extras, node_modules from package-lock.json,
# and Debian's chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1
# Tiny matrices: threaded BLAS only adds synchronisation cost (measured 30-50x slower on a busy 2-core machine).
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

python=${PYTHON:-python3}
venv=.venv

setup_python() {
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
  fi
  # Reinstall only when pyproject.toml changed since the last install.
  local stamp="$venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e ".[docs,test]"
    touch "$stamp"
  fi
}

setup_node() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --silent
  fi
}

setup_chromium() {
  if [ -x /usr/bin/chromium ]; then return; fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

case "${1:-}" in
  serve)
    setup_python
    setup_node
    shift
    exec "$venv/bin/mkdocs" serve --strict --dev-addr 127.0.0.1:8000 "$@"
    ;;
  test)
    setup_python
    setup_node
    setup_chromium
    shift
    exec "$venv/bin/python" -m pytest "$@"
    ;;
  *)
    echo "usage: bash scripts/dev.sh serve|test [extra arguments]" >&2
    exit 2
    ;;
esac
