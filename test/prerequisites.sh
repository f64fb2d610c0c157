#!/usr/bin/env bash
# What `npm test` needs from the machine besides Node: Debian packages for the local stack and the
# tests' real consumers, and a few Python packages. Installs what is missing when it can (root and
# apt-get, or pip); otherwise names the exact command and exits 2. A prepared machine changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# command -> Debian package that provides it
declare -A PACKAGE_OF=(
  [redis-server]=redis-server [redis-cli]=redis-tools [java]=openjdk-17-jdk-headless [mvn]=maven
  [curl]=curl [chromium]=chromium [kcat]=kcat [prometheus]=prometheus [python3]=python3
  [nginx]=nginx-light
)
missing=()
for command in "${!PACKAGE_OF[@]}"; do
  command -v "$command" >/dev/null 2>&1 || [[ -x "/usr/sbin/$command" ]] || missing+=("${PACKAGE_OF[$command]}")
done
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
python3 -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
# The real-web bed's sites (deploy/local/versions.env); stack.sh up realweb would install them too.
. deploy/local/versions.env
for root_and_package in "$REALWEB_PYTHON_ROOT:python3-doc" "$REALWEB_POSTGRES_ROOT:postgresql-doc-15" "$REALWEB_GIT_ROOT:git-doc"; do
  [[ -f "${root_and_package%%:*}/index.html" ]] || missing+=("${root_and_package##*:}")
done

if ((${#missing[@]})); then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "test prerequisites: installing ${missing[*]}" >&2
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    echo "test prerequisites: installing ${missing[*]} with sudo" >&2
    sudo apt-get update -q >/dev/null
    sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "npm test needs Debian packages that are missing. Install them, then run npm test again:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 2
  fi
fi

# Go builds the local stack's OpenTelemetry Collector once (deploy/local/otel-collector.sh); Debian's is too old.
command -v go >/dev/null 2>&1 || [[ -x /usr/local/go/bin/go ]] \
  || { echo "npm test needs Go 1.26+ to build the stack's OpenTelemetry Collector once; put it on PATH" >&2; exit 2; }

# Python packages, pinned; pip leaves satisfied requirements alone without reaching the index.
requirements=test/python-requirements.txt
# Debian's own python refuses user installs without --break-system-packages (PEP 668); others refuse the flag.
python3 -m pip install --user --quiet --disable-pip-version-check -r "$requirements" 2>/dev/null \
  || python3 -m pip install --user --quiet --disable-pip-version-check --break-system-packages -r "$requirements" \
  || { echo "could not install $requirements: run  python3 -m pip install --user -r $requirements" >&2; exit 2; }

# The replay tools, in a virtualenv named after their requirements' hash (test/support/replay-tools.ts finds it).
replay_requirements=test/replay-requirements.txt
replay_hash=$(sha256sum "$replay_requirements" | cut -c1-12)
replay_venv="${CRAWLER_STACK_CACHE:-$HOME/.cache/crawler-stack}/replay-venv-$replay_hash"
# A venv cannot be moved (its scripts name their interpreter by path): built in place, marked complete last.
if [[ ! -f "$replay_venv/.complete" ]]; then
  echo "test prerequisites: installing $replay_requirements into $replay_venv" >&2
  rm -rf "$replay_venv"
  python3 -m venv "$replay_venv" \
    && "$replay_venv/bin/pip" install --quiet --disable-pip-version-check -r "$replay_requirements" \
    && touch "$replay_venv/.complete" \
    || { echo "could not install $replay_requirements into $replay_venv" >&2; exit 2; }
fi
