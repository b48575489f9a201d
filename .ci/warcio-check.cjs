// An independent reader of the WARC files urlkit writes (issue 33): every
// record of every *.warc.gz in the directory given is read by Webrecorder's
// warcio.js, twice:
//
//   1. as raw blocks (parseHttp: false): each block's length must be its
//      Content-Length, and its SHA-1 (base 32) its WARC-Block-Digest; the
//      payload (an application/http block after its header, any other
//      block whole) must have the WARC-Payload-Digest;
//   2. as warcio's default reader reads them (HTTP parsed in request,
//      response and revisit records): the same records, in the same order,
//      at the same places, so that a gopher selector or a WAIS message is
//      never read as HTTP and the reader never loses its place.
//
// Any difference is printed and the exit status is 1.
//
//   WARCIO_MODULE=/path/to/node_modules/warcio node .ci/warcio-check.cjs DIR
"use strict";
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const { WARCParser } = require(process.env.WARCIO_MODULE || "warcio");

// base32 of RFC 4648 section 6, as WARC digests write it.
function base32(buf) {
  const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0, value = 0, out = "";
  for (const b of buf) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alpha[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alpha[(value << (5 - bits)) & 31];
  return out;
}

function digest(algo, bytes) {
  if (algo !== "sha1") throw new Error(`digest algorithm ${algo} is not the sha1 urlkit writes`);
  return "sha1:" + base32(crypto.createHash("sha1").update(bytes).digest());
}

// payloadOf is the payload of a block: after the HTTP header of an
// application/http block (its first empty line, CRLF or a bare LF, as
// RFC 9112 2.2 lets a recipient read it), the whole block otherwise.
function payloadOf(type, contentType, block) {
  if ((type === "response" || type === "request") && /^application\/http/i.test(contentType || "")) {
    let lineStart = false;
    for (let i = 0; i < block.length; i++) {
      const c = block[i];
      if (c === 10) {
        if (lineStart) return block.subarray(i + 1);
        lineStart = true;
      } else if (!(c === 13 && lineStart)) {
        lineStart = false;
      }
    }
    return null;
  }
  return block;
}

async function check(file) {
  const problems = [];
  const raw = [];
  let parser = new WARCParser(fs.createReadStream(file), { parseHttp: false });
  for await (const record of parser) {
    const h = record.warcHeaders.headers;
    const type = h.get("WARC-Type");
    const where = `${path.basename(file)} record ${raw.length + 1} (${type} ${h.get("WARC-Target-URI") || ""}) at offset ${parser.offset}`;
    const block = await record.readFully(false);
    const length = Number(h.get("Content-Length"));
    if (block.length !== length) problems.push(`${where}: block of ${block.length} bytes, Content-Length ${length}`);
    for (const need of ["WARC-Record-ID", "WARC-Date", "WARC-Block-Digest"]) {
      if (!h.get(need)) problems.push(`${where}: no ${need}`);
    }
    const bd = h.get("WARC-Block-Digest");
    if (bd && digest(bd.split(":")[0], block) !== bd) problems.push(`${where}: WARC-Block-Digest ${bd}, the block's is ${digest("sha1", block)}`);
    const pd = h.get("WARC-Payload-Digest");
    if (type !== "warcinfo" && type !== "revisit") {
      if (!pd) problems.push(`${where}: no WARC-Payload-Digest`);
      if (!h.get("WARC-Target-URI")) problems.push(`${where}: no WARC-Target-URI`);
      if (!h.get("WARC-IP-Address") && !/^file:/.test(h.get("WARC-Target-URI") || "")) problems.push(`${where}: no WARC-IP-Address`);
    }
    if (pd && type !== "revisit") {
      const payload = payloadOf(type, h.get("Content-Type"), block);
      if (payload === null) problems.push(`${where}: an application/http block without the end of its header`);
      else if (digest(pd.split(":")[0], payload) !== pd) problems.push(`${where}: WARC-Payload-Digest ${pd}, the payload's is ${digest("sha1", payload)}`);
    }
    if (type === "revisit" && !h.get("WARC-Refers-To")) problems.push(`${where}: a revisit without WARC-Refers-To`);
    raw.push({ type, id: h.get("WARC-Record-ID"), offset: parser.offset });
  }
  // The default reader: HTTP parsed where warcio parses it.
  let n = 0;
  parser = new WARCParser(fs.createReadStream(file));
  for await (const record of parser) {
    const h = record.warcHeaders.headers;
    const want = raw[n];
    const where = `${path.basename(file)} record ${n + 1}, default reader`;
    if (!want) {
      problems.push(`${where}: a record the raw reading did not see`);
      break;
    }
    if (h.get("WARC-Type") !== want.type || h.get("WARC-Record-ID") !== want.id || parser.offset !== want.offset) {
      problems.push(`${where}: ${h.get("WARC-Type")} ${h.get("WARC-Record-ID")} at ${parser.offset}, the raw reading has ${want.type} ${want.id} at ${want.offset}`);
    }
    await record.readFully(true);
    n++;
  }
  if (n !== raw.length) problems.push(`${path.basename(file)}: the default reader read ${n} records, the raw reading ${raw.length}`);
  return { records: raw.length, problems };
}

(async () => {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node .ci/warcio-check.cjs DIR");
    process.exit(2);
  }
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".warc.gz")).sort();
  if (files.length === 0) {
    console.error(`warcio-check: no .warc.gz files in ${dir}`);
    process.exit(1);
  }
  let bad = 0;
  for (const f of files) {
    let res;
    try {
      res = await check(path.join(dir, f));
    } catch (e) {
      res = { records: 0, problems: [`${f}: ${e && e.message ? e.message : e}`] };
    }
    for (const p of res.problems) console.error("warcio-check: " + p);
    bad += res.problems.length;
    console.log(`warcio-check: ${f}: ${res.records} records${res.problems.length ? `, ${res.problems.length} problems` : ", digests verified"}`);
  }
  process.exit(bad ? 1 : 0);
})();
