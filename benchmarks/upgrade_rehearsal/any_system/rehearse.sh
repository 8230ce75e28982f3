#!/bin/sh
# The release-to-release rehearsal on one database (benchmarks/upgrade_rehearsal/README.md,
# "Any system, release to release"), from the repository's root:
#
#   sh benchmarks/upgrade_rehearsal/any_system/rehearse.sh pg|sqlite [WORK [RELEASE]]
#
# WORK (default ../rehearsal beside the repository; or the variable WORK; a relative WORK is
# taken from the current folder) gets before/ (git archive of RELEASE, default 72e132e; or the
# variable RELEASE) and after/ (a copy of the working tree, uncommitted changes included), both
# made afresh on every run, and the run's <db>_*.json and <db>_*.log files. pg drops and
# recreates the PostgreSQL database REHEARSAL_DB (default rehearsal32) at PGHOST:PGPORT as
# PGUSER (default 127.0.0.1, 5432, postgres); sqlite starts from a new WORK/db.sqlite3. Both
# run the repository's .venv/bin/python. Run one database at a time with the same WORK: each
# run remakes before/ and after/. Exits non-zero on the first failing step; compare.py's last
# line says RESULT: SAME or DIFFERENT.
set -eu
usage="usage: sh $0 pg|sqlite [WORK [RELEASE]]"
DB=${1:?$usage}
HERE=$(cd "$(dirname "$0")" && pwd)             # the scripts, beside this file
REPO=$(git -C "$HERE" rev-parse --show-toplevel)
WORK=${2:-${WORK:-$REPO/../rehearsal}}
RELEASE=${3:-${RELEASE:-72e132e}}
PY=$REPO/.venv/bin/python
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

export DEBUG=on
case $DB in
  pg)
    export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
    REHEARSAL_DB=${REHEARSAL_DB:-rehearsal32}
    export DATABASE_URL=postgres://$PGUSER@$PGHOST:$PGPORT/$REHEARSAL_DB
    dropdb --if-exists "$REHEARSAL_DB"
    createdb "$REHEARSAL_DB"
    ;;
  sqlite)
    export DATABASE_URL=sqlite:///$WORK/db.sqlite3
    rm -f "$WORK/db.sqlite3" "$WORK/db.sqlite3-journal"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac

# before/: the release as it was tagged; after/: the working tree (tracked and new files,
# not what .gitignore leaves out, so no .venv, db.sqlite3 or caches).
rm -rf "$WORK/before" "$WORK/after"
mkdir "$WORK/before" "$WORK/after"
git -C "$REPO" archive "$RELEASE" | tar -x -C "$WORK/before"
git -C "$REPO" ls-files -z --cached --others --exclude-standard \
  | rsync -a --from0 --files-from=- --ignore-missing-args --exclude=/.venv/ \
      "$REPO/" "$WORK/after/"

shell() { nice "$PY" manage.py shell -v 0 -c "exec(open('$HERE/$1').read())"; }
cd "$WORK/before"                                           # the last release
nice "$PY" manage.py migrate --noinput > ../${DB}_migrate_old.log
nice "$PY" manage.py load_demo --url http://127.0.0.1:8000 > ../${DB}_demo.log
shell play_old.py > ../${DB}_play_old.log
shell counts.py > ../${DB}_counts_before.json
shell facts.py > ../${DB}_before.json
cd "$WORK/after"                                            # the working tree
nice "$PY" manage.py migrate --noinput > ../${DB}_migrate_new.log   # the upgrade
nice "$PY" manage.py migrate --check
nice "$PY" manage.py makemigrations --check --dry-run
shell counts.py > ../${DB}_counts_after.json
shell facts.py > ../${DB}_after.json
# Each step's output goes to its log first and is shown after, so that a failing step stops
# the run (a pipe into tee would hide its exit status from set -e).
show() { status=0; "$@" > "$log" || status=$?; cat "$log"; return $status; }
log=../${DB}_compare.log
show "$PY" "$HERE/compare.py" ../${DB}_before.json ../${DB}_after.json --allow-insert Menu
log=../${DB}_play_new.log
show shell play_new.py
shell counts.py > ../${DB}_counts_new.json
