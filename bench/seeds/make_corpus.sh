#!/bin/sh
# Writes a small raw corpus, as a fuzzer's queue would hold: requests with the right token
# and a few commands, and mutated ones (wrong token). Usage: make_corpus.sh DIR
set -eu
dir=${1:-corpus}
mkdir -p "$dir"
token='s3cr3t!#'
i=0
for req in "g 12" "p 5" "q" "d 3"; do
  printf '%s%s' "$token" "$req" > "$dir/id:$(printf %06d $i),token"
  i=$((i + 1))
done
for junk in 'GET / HTTP/1.0' 's3cr3t!?g 1' 'AAAAAAAAAAAAAAAAAAAAAAAA'; do
  printf '%s' "$junk" > "$dir/id:$(printf %06d $i),havoc"
  i=$((i + 1))
done
echo "$i files in $dir"
