#!/usr/bin/env bash
# The project's two entry points, each doing all of its own set-up on a fresh machine:
#   bash scripts/dev.sh serve   build the site and serve it with live widgets on http://127.0.0.1:8000/
#   bash scripts/dev.sh test    run the whole test suite (engine, build, cross-links, real Chromium)
#   bash scripts/dev.sh build   build the site strictly into site/ (SITE_URL: where it will be served)
# and two for contributors:
#   bash scripts/dev.sh new-page NAME "Title" --after PAGE   a new layer page's files, with places to fill
#   bash scripts/dev.sh check PAGE   every test that concerns one page (whole files, suite-wide checks included)
# Set-up is idempotent: a .venv with the project and its extras, node_modules from package-lock.json,
# .venv-pyodide with Pyodide's packaging tools (on Pyodide's own Python version), and Debian's chromium for
# the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1
# Tiny matrices: threaded BLAS only adds synchronisation cost (measured 30-50x slower on a busy 2-core machine).
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

python=${PYTHON:-python3}
venv=.venv
tools_venv=.venv-pyodide

setup_python() {
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
  fi
  # Reinstall only when a pyproject.toml changed since the last install: the engine's (with the docs and test
  # extras) and the build's (scripts/build: the mkdocs plugin `layerwise`, found by mkdocs through its entry point).
  local stamp="$venv/.installed-$(cat pyproject.toml scripts/build/pyproject.toml | sha256sum | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e ".[docs,test]" -e scripts/build
    touch "$stamp"
  fi
}

setup_node() {
  # Reinstall only when package-lock.json changed since the last install (a hash, not a date: npm itself rewrites
  # node_modules/.package-lock.json).
  local stamp="node_modules/.installed-$(sha256sum package-lock.json | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    # pa11y's puppeteer would download its own Chrome (and fail offline): the audits use Debian's chromium.
    PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --silent
    touch "$stamp"
  fi
}

# The Python inside the pinned Pyodide, as "3.13" (read from the npm package's lock file).
pyodide_python_minor() {
  "$venv/bin/python" -c 'import json, sys; print(".".join(json.load(open(sys.argv[1]))["info"]["python"].split(".")[:2]))' \
    node_modules/pyodide/pyodide-lock.json
}

is_python() {  # is_python COMMAND 3.13: it runs and is that version
  "$1" -c "import sys; sys.exit('%d.%d' % sys.version_info[:2] != '$2')" 2>/dev/null
}

# An interpreter of that version: PYODIDE_PYTHON if set, else pythonX.Y on PATH, else one installed by pyenv
# (a pyenv shim on PATH fails outside a folder that selects its version).
find_pyodide_python() {
  local minor=$1 candidate
  if [ -n "${PYODIDE_PYTHON:-}" ]; then
    is_python "$PYODIDE_PYTHON" "$minor" && echo "$PYODIDE_PYTHON"
    return
  fi
  for candidate in "python$minor" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$minor".*/bin/"python$minor"; do
    if is_python "$candidate" "$minor"; then echo "$candidate"; return; fi
  done
  return 1
}

# pyodide-build (wheel -> bytecode for Pyodide, the engine added to pyodide-lock.json) needs Python >= 3.12, and
# its bytecode is for the Python it runs on: so it gets a venv of Pyodide's own Python version.
setup_pyodide_tools() {
  local minor stamp found
  minor=$(pyodide_python_minor)
  if [ -x "$tools_venv/bin/python" ] && ! is_python "$tools_venv/bin/python" "$minor"; then
    rm -rf "$tools_venv"  # made for another Pyodide
  fi
  if [ ! -x "$tools_venv/bin/python" ]; then
    if ! found=$(find_pyodide_python "$minor"); then
      [ -z "${PYODIDE_PYTHON:-}" ] || echo "error: PYODIDE_PYTHON=$PYODIDE_PYTHON does not run Python $minor." >&2
      echo "error: Python $minor not found. The pinned Pyodide runs Python $minor, and the engine is packaged for it" >&2
      echo "by pyodide-build running on that same version. Install it (pyenv install $minor, uv python install $minor," >&2
      echo "or your system's python$minor package) or point PYODIDE_PYTHON at one, then run this again." >&2
      exit 1
    fi
    "$found" -m venv "$tools_venv"
  fi
  stamp="$tools_venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    "$tools_venv/bin/python" -m pip install --quiet --upgrade pip
    "$tools_venv/bin/python" -m pip install --quiet --group pyodide-tools
    touch "$stamp"
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
    setup_pyodide_tools
    shift
    exec "$venv/bin/mkdocs" serve --strict --dev-addr 127.0.0.1:8000 "$@"
    ;;
  build)
    setup_python
    setup_node
    setup_pyodide_tools
    shift
    exec "$venv/bin/mkdocs" build --strict "$@"
    ;;
  test)
    setup_python
    setup_node
    setup_pyodide_tools
    setup_chromium
    shift
    exec "$venv/bin/python" -m pytest "$@"
    ;;
  check)
    setup_python
    setup_node
    setup_pyodide_tools
    shift
    exec "$venv/bin/python" scripts/tools/check_page.py "$@"
    ;;
  new-page)
    setup_python
    shift
    exec "$venv/bin/python" scripts/tools/new_page.py "$@"
    ;;
  *)
    echo "usage: bash scripts/dev.sh serve|test|build [extra arguments] | new-page NAME \"Title\" --after PAGE | check PAGE" >&2
    exit 2
    ;;
esac
