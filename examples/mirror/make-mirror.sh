#!/bin/sh
# Makes an action mirror for the examples: bare repositories <dir>/<owner>/<repo>.git, each one
# commit tagged v1, as an operator mirrors the actions and reusable workflows their workflows use.
#   examples/mirror/make-mirror.sh ~/svc-mirror && SVC_ACTIONS_MIRROR_DIR=~/svc-mirror npm start
# svc-examples/shared: the reusable workflow under examples/mirror/svc-examples/shared;
# svc-examples/node-version: the node24 action of examples/.github/actions/node-version.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 <mirror dir>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
mirror=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=svc-examples GIT_AUTHOR_EMAIL=examples@svc.localhost
export GIT_COMMITTER_NAME=svc-examples GIT_COMMITTER_EMAIL=examples@svc.localhost

publish() { # <owner/repo> <source dir>
  tree="$work/$1"
  mkdir -p "$tree"
  cp -R "$2/." "$tree/"
  git -C "$tree" init -q -b main
  git -C "$tree" add -A
  git -C "$tree" -c commit.gpgsign=false commit -q -m "$1 for the svc examples"
  git -C "$tree" tag v1
  rm -rf "$mirror/$1.git"
  mkdir -p "$(dirname "$mirror/$1.git")"
  git init -q --bare "$mirror/$1.git"
  git -C "$tree" push -q "$mirror/$1.git" main refs/tags/v1
  echo "$mirror/$1.git: v1 = $(git -C "$tree" rev-parse HEAD)"
}

publish svc-examples/shared "$here/svc-examples/shared"
publish svc-examples/node-version "$here/../.github/actions/node-version"
