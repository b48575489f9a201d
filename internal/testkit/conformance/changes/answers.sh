#!/bin/bash
# usage: answers.sh BIN OUTDIR
#
# Runs canon, canon --lenient, parse --lenient, equal and relative of the
# urlkit binary BIN over the shared corpora (about 110,000 distinct URLs,
# 300,000 equal pairs, the relative suites' pairs in four modes), writing
# one output file per command in OUTDIR. Run it with two builds and diff
# the directories to list every case whose answer changed between them
# (how issue 37's closing note listed its changes). Needs jq and python3.
set -u
BIN=$1; OUT=$2; mkdir -p "$OUT"
W=${URLKIT_ANSWERS_WORK:-/tmp/urlkit-answers}; mkdir -p "$W"
C=${URLKIT_CORPORA:-$(dirname "$0")/../../../../shared/corpora}
IN=$W/inputs.txt
if [ ! -s $IN ]; then
  { cat $C/ada-url-datasets/*.txt
    jq -r '.[] | objects | .input' $C/wpt-url/urltestdata.json $C/wpt-url/ada_extra_urltestdata.json
    jq -r '.[] | objects | "http://" + .input + "/"' $C/wpt-url/toascii.json
    for f in $C/relative/*.tsv; do grep -v '^#' $f | cut -f1,3 | tr '\t' '\n'; done
    grep -oh '[a-z]*://[^" ]*' $C/scheme-tests/*.jsonl $C/scheme-tests/*.tsv
  } | grep -av '^\s*$' | awk '!seen[$0]++' > $IN
  # pairs: each URL, its reserved characters after the authority escaped; and the same for ftp/gopher/news/mailto forms
  python3 - "$W/inputs.txt" <<'PY' > $W/pairs.txt
import re,sys
seen=set()
for line in open(sys.argv[1],encoding='utf-8',errors='replace'):
    u=line.strip()
    if '\t' in u or ' ' in u: continue
    m=re.match(r'^([A-Za-z][A-Za-z0-9+.-]*):(//[^/?#]*)?(.*)$',u)
    if not m: continue
    sch,auth,rest=m.group(1),m.group(2) or '',m.group(3)
    frag=''
    if '#' in rest: rest,frag=rest.split('#',1); frag='#'+frag
    vs=[(sch,auth,rest)]
    if sch.lower() in ('http','https') and auth:
        vs += [('ftp',auth,rest),('gopher',auth,rest)]
        vs += [('news',''), ('mailto','')] and [('news','',rest.lstrip('/')),('mailto','',rest.lstrip('/'))]
    for s,a,r in vs:
        if not r: continue
        for cls in (';?:@=&+!*$,', '/'):
            enc=''.join('%%%02X'%ord(c) if c in cls and i>0 else c for i,c in enumerate(r))
            if enc==r: continue
            p=f'{s}:{a}{r}{frag} {s}:{a}{enc}{frag}'
            if p not in seen:
                seen.add(p); print(p)
PY
  # relative: base target per row, each mode; plus cross-scheme targets
  { for f in $C/relative/*.tsv; do grep -v '^#' $f | awk -F'\t' 'NR>1 && $3 ~ /:/ {print $1"\t"$3}'; done
    for t in ftp:this ftp://h/x gopher://h/1x news:comp.misc mailto:a@b.example file:///etc/x http:this https://example.org/base/uri; do echo "http://example.org/base/uri	$t"; done
  } | awk '!seen[$0]++' > $W/relpairs.txt
fi
$BIN canon --json --url-file $IN > $OUT/canon.jsonl 2>$OUT/canon.err
$BIN canon --lenient --json --url-file $IN > $OUT/canonlen.jsonl 2>$OUT/canonlen.err
$BIN parse --lenient --json --url-file $IN > $OUT/parselen.jsonl 2>$OUT/parselen.err
$BIN equal --json --url-file $W/pairs.txt > $OUT/equal.jsonl 2>$OUT/equal.err
for mode in rfc1630 libwww rfc3986 rfc1808; do
  while IFS=$'\t' read -r b t; do
    printf '%s\t%s\t%s\t' "$mode" "$b" "$t"; $BIN relative --mode $mode --json "$b" "$t" 2>&1 | tr "\n" " "; echo " rc=${PIPESTATUS[0]}"
  done < $W/relpairs.txt
done > $OUT/relative.txt
wc -l $OUT/*
