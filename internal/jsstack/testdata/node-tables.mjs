// node-tables.mjs writes the tables of package jsstack's tests, each one
// produced by the runtime it pins: Node 22 (upstream's runtime, the
// version in its lockfile's engines and the oracle's node) for V8's
// JSON.parse and JSON.stringify, Number's toString, the object key order,
// libuv's errno texts, Node's UTF-8 decoding and fs.globSync.
//
// Run it from this directory with that node:
//
//	$OUTFITTER_NODE node-tables.mjs
//
// (go generate ./internal/jsstack runs it the same way.) It writes the
// node-*.json files next to it and prints their names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';

const out = (name, value, perLine) => {
  let text;
  if (perLine && Array.isArray(value)) {
    text = '[\n' + value.map((v) => JSON.stringify(v)).join(',\n') + '\n]\n';
  } else if (perLine) {
    text = '{\n' + Object.keys(value).map((k) => JSON.stringify(k) + ': ' + JSON.stringify(value[k])).join(',\n') + '\n}\n';
  } else {
    text = JSON.stringify(value, null, '\t') + '\n';
  }
  fs.writeFileSync(name, text);
  console.log(name);
};

// A small deterministic generator (mulberry32), so that the tables are the
// same on every run.
const rng = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// JSON.parse of the text Node decodes from each byte string (hex), as
// upstream reads pi's JSON files: JSON.parse(readFileSync(p, 'utf8')).
// Each row is the input and either the error's message or the value's
// JSON.stringify.
const jsonInputs = [
	"", "7b0a", "7b", "5b31", "5b312c5d", "7b2261223a312c7d", "7b22612220317d",
	"7b2261223a31202262223a327d", "5b3120325d", "5b015d", "5b22e0a02220315d", "5b22f090802220315d",
	"5b22e0802220315d", "5b2261220d0a0d20315d", "22616263", "7b7d2078", "225c7822", "2261096222",
	"2d", "2d78", "312e", "3165", "31652b", "3031", "5b30315d", "747275", "747278", "747222",
	"756e646566696e6564", "4e614e", "20202078202020", "7b2261223a7472757d", "efbbbf7b7d",
	"225c753132673422", "225c753132", "225c", "6162636465666768696a6b6c6d6e6f707172737475767778797a",
	"7b226161616161616161616161223a20782c2022626262626262626262626262626262223a20317d",
	"7b22616161616161616161616161616161616161223a20787d", "5b312c0d0a322c0d0a20785d",
	"7b2261223a317d7d", "5be4b8ad5d", "225ce4b8ad22", "7b2261227d", "7b2261223a7d", "7b2c7d", "7431",
	"2d3031", "312e35653378", "5b317d", "7b0d0a20202261223a20312c0d0a202022622220320d0a7d",
	"0a0a0d0d5d", "5bc0af5d", "7b2261223a22e282222c7d", "5bc25d", "5bdfc05d", "5be080805d",
	"5be0a05d", "5be1805d", "5bee805d", "5beda0805d", "5bed9f5d", "5bf080805d", "5bf090805d",
	"5bf180805d", "5bf3bfbf5d", "5bf490805d", "5bf48fbf5d", "5bf5805d", "5bff5d", "22f09f9880222078",
	"5b22f09f9880222c2022e282ac2220315d", "225c754142434722", "225c756162634722",
	"225c625c665c725c745c7546464644222078", "7430", "7439", "5b2d5d", "225cc3bf22", "225cc48022",
	"7820202020202020202020202020202020202020", "2020202020202020202020202020202020202078",
	"782020202020202020202020202020202020202020", "202020202020202020202020202020202020202078",
	"78202020202020202020202020202020202020202020", "20202020202020202020202020202020202020202078",
	"202020202020202020782020202020202020202020202020202020202020",
	"202020202020202020207820202020202020202020202020202020202020",
	"202020202020202020202078202020202020202020202020202020202020",
	"5b312c312c312c312c312c312c312c312c785d20202020202020202020",
	"5b312c312c312c312c312c312c312c312c312c785d202020202020202020",
	"5b312c312c312c312c312c312c312c312c312c785d2020202020202020",
	"5b312c312c312c312c312c312c312c312c312c312c785d20202020202020",
	"207b2262223a20312c202232223a205b747275652c2066616c73652c206e756c6c5d2c202261223a2022785c75303065395c6e222c202262223a20327d20",
	"5b31653430302c202d31653430302c2031652d3430302c202d302c20302e3565315d",
	"5b31392c20302e30392c2039452b392c202d395d", "225c75643833645c7564653030205c2f22",
	"5b225c625c665c725c74222c20225c75303043395c75303065395c7530303431225d",
	"225c75303066665c75303046465c753030333922",
];
out('node-jsonparse.json', jsonInputs.map((hex) => {
  const text = Buffer.from(hex, 'hex').toString('utf8');
  try {
    return { hex, value: JSON.stringify(JSON.parse(text)) };
  } catch (e) {
    return { hex, error: e.message };
  }
}), true);

// Number's toString and JSON.stringify of doubles (given by their bits):
// round numbers, the bounds of the decimal notation, and random bits.
const bitsOf = (n) => {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, n);
  return v.getBigUint64(0).toString(16).padStart(16, '0');
};
const fromBits = (hex) => new DataView(new BigUint64Array([BigInt('0x' + hex)]).buffer).getFloat64(0, true);
const numbers = [0, -0, 1, -1, 0.1, 0.5, -2.5, 1e21, 1e20, 999999999999999900000, 1e-6, 1e-7, 1.5e-7, 123456789012345680000,
  2 ** 53, 2 ** 53 + 2, 2 ** 64, 5e-324, 1.7976931348623157e308, NaN, Infinity, -Infinity, 1 / 3, 100, 1e100, 4.35, 0.000001234, 12345e-10];
const r = rng(1);
for (let i = 0; i < 2000; i++) {
  const hi = Math.floor(r() * 2 ** 32);
  const lo = Math.floor(r() * 2 ** 32);
  numbers.push(fromBits(hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0')));
}
for (let i = 0; i < 500; i++) {
  // Short decimals at every scale, the common case.
  numbers.push(Number((Math.floor(r() * 1e6) / 10 ** Math.floor(r() * 8)).toString() + 'e' + (Math.floor(r() * 60) - 30)));
}
out('node-numbers.json', numbers.map((n) => [bitsOf(n), String(n), JSON.stringify(n)]), true);

// JSON.stringify of documents (as JSON.parse reads them) compact and with
// two-space and tab indents: key order, nesting, empty containers and
// the escapes of strings.
const documents = [
  '{"b":1,"a":2,"2":3,"1":4,"01":5,"-1":6,"4294967294":7,"4294967295":8,"1.5":9}',
  '{"a":{"k":[true,null,1.5,[],{}],"s":["x","y"],"e":[]},"b":[["\\"q\\""],{"k":[]}]}',
  '[[],{},[[]],[{}],{"a":{}},"",0,-0,1e21,1e-7]',
  '"a\\"\\\\\\n\\t\\u0001<>&\\u2028é\\u007f\\u001f\\b\\f\\r/\\ud83d\\ude00"',
  '{"z":{"y":{"x":{"w":[1,[2,[3,{"v":"u"}]]]}}}}',
  '{"10":1,"9":2,"a":3,"0":4,"b":{"3":1,"x":2,"2":3}}',
];
const chars = [];
for (let c = 0; c < 0x80; c++) chars.push(String.fromCharCode(c));
documents.push(JSON.stringify(chars.join('') + '\u00e9\u2028\u2029\ufeff\ufffd'));
out('node-stringify.json', documents.map((d) => {
  const v = JSON.parse(d);
  return [d, JSON.stringify(v), JSON.stringify(v, null, '  '), JSON.stringify(v, null, '\t')];
}), true);

// The key order of a JavaScript object after random sets and deletes of
// keys, array indexes among them (with the bounds of what is one).
const keyPool = ['0', '1', '2', '9', '10', '01', '-1', '1.5', ' 1', '1e3', '4294967294', '4294967295', '4294967296', 'a', 'b', 'c', 'length', '__proto__x', 'é'];
const orders = [];
const ro = rng(2);
for (let i = 0; i < 300; i++) {
  const ops = [];
  const o = {};
  const n = 1 + Math.floor(ro() * 30);
  for (let j = 0; j < n; j++) {
    const k = keyPool[Math.floor(ro() * keyPool.length)];
    if (ro() < 0.2) {
      ops.push('-' + k);
      delete o[k];
    } else {
      ops.push('+' + k);
      o[k] = j;
    }
  }
  orders.push([ops, Object.keys(o)]);
}
out('node-keyorder.json', orders, true);

// libuv's errno names and texts, and the String() of errors Node's fs
// throws, with the file's name as NAME.
const errnoMap = util.getSystemErrorMap();
const errnos = {};
for (const code of ['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENAMETOOLONG', 'EEXIST', 'EINVAL', 'EIO', 'ENOSPC', 'ENOTEMPTY', 'EROFS', 'EMFILE']) {
  const [name, message] = errnoMap.get(-os.constants.errno[code]);
  errnos[code] = [name, message];
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jsstack-'));
fs.writeFileSync(path.join(tmp, 'file'), '');
fs.mkdirSync(path.join(tmp, 'dir'));
fs.symlinkSync('loop', path.join(tmp, 'loop'));
const thrown = [];
const record = (syscall, code, name, f) => {
  try {
    f();
    throw new Error('no error for ' + syscall + ' ' + name);
  } catch (e) {
    if (e.code !== code) throw e;
    thrown.push([syscall, code, String(e).replaceAll(path.join(tmp, name), 'NAME')]);
  }
};
record('scandir', 'ENOENT', 'missing', () => fs.readdirSync(path.join(tmp, 'missing')));
record('scandir', 'ENOTDIR', 'file', () => fs.readdirSync(path.join(tmp, 'file')));
record('scandir', 'ELOOP', 'loop', () => fs.readdirSync(path.join(tmp, 'loop')));
record('open', 'ENOENT', 'missing', () => fs.readFileSync(path.join(tmp, 'missing'), 'utf8'));
record('open', 'EISDIR', 'dir', () => fs.readFileSync(path.join(tmp, 'dir'), 'utf8'));
record('open', 'ENOTDIR', 'file/x', () => fs.readFileSync(path.join(tmp, 'file', 'x'), 'utf8'));
record('stat', 'ENOENT', 'missing', () => fs.statSync(path.join(tmp, 'missing')));
record('stat', 'ELOOP', 'loop', () => fs.statSync(path.join(tmp, 'loop')));
record('lstat', 'ENOENT', 'missing', () => fs.lstatSync(path.join(tmp, 'missing')));
record('lstat', 'ENOTDIR', 'file/x', () => fs.lstatSync(path.join(tmp, 'file', 'x')));
out('node-errno.json', { errnos, thrown });

// Node's UTF-8 decoding (Buffer's toString, as readFileSync(p, 'utf8'))
// of ill-formed sequences around every boundary of the lead and
// continuation bytes: the UTF-16 units of each.
const rows = [];
for (const lead of [0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5]) {
  for (const first of [0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0]) {
    for (let more = 0; more <= 2; more++) {
      const bytes = Buffer.from([lead, first, ...Array(more).fill(0x80), 0x78]);
      const s = bytes.toString('utf8');
      const units = [];
      for (let i = 0; i < s.length; i++) units.push(s.charCodeAt(i).toString(16).padStart(4, '0'));
      rows.push([bytes.toString('hex'), units.join(' ')]);
    }
  }
}
out('node-utf8-decoding.json', rows, true);

// fs.globSync(pattern, {cwd: "root"}) on the tree below, for every
// pattern of one to three parts from the names below (absolute patterns,
// and those whose results leave the tree's parent, left out) and every
// "**/../p/q" pattern after nothing, "docs" or "*" and before nothing,
// "*.md" or "**".
const g = fs.mkdtempSync(path.join(os.tmpdir(), 'jsstack-glob-'));
const tree = {
  'out/o.md': '', 'root/.hidden/h.md': '', 'root/dlink': ['docs/sub'], 'root/docs/.dot.md': '', 'root/docs/[x].md': '',
  'root/docs/a.md': '', 'root/docs/b.txt': '', 'root/docs/broken.md': ['nowhere'], 'root/docs/sub/c.md': '',
  'root/docs/sub/deeper/': '', 'root/docs/sub/deeper/d.md': '', 'root/docs/sub/self': ['.'], 'root/linked/outl': ['../out'],
};
for (const [name, what] of Object.entries(tree)) {
  const p = path.join(g, name);
  fs.mkdirSync(name.endsWith('/') ? p : path.dirname(p), { recursive: true });
  if (Array.isArray(what)) fs.symlinkSync(what[0], p);
  else if (!name.endsWith('/')) fs.writeFileSync(p, what);
}
const names = ['**', '.', '..', '', 'docs', '*', '.*', 'sub', '*.md', 'dlink'];
const patterns = new Set();
for (const a of names) {
  patterns.add(a);
  for (const b of names) {
    patterns.add(a + '/' + b);
    for (const c of names) patterns.add(a + '/' + b + '/' + c);
  }
}
const pq = ['docs', 'sub', '*', '*.md', '**', 'dlink'];
for (const before of ['', 'docs/', '*/']) {
  for (const p of pq) {
    for (const q of pq) {
      for (const after of ['', '/*.md', '/**']) patterns.add(before + '**/../' + p + '/' + q + after);
    }
  }
}
const globs = {};
for (const pattern of [...patterns].sort()) {
  if (pattern.startsWith('/')) continue;
  const got = fs.globSync(pattern, { cwd: path.join(g, 'root') }).sort();
  if (got.some((p) => p.startsWith('../..'))) continue;
  globs[pattern] = got;
}
out('node-globsync.json', globs, true);
fs.rmSync(tmp, { recursive: true });
fs.rmSync(g, { recursive: true });

// String.prototype.trim: every code point (surrogates aside) it removes.
const spaces = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  if (String.fromCodePoint(c).trim() === '') spaces.push(c);
}
out('node-space.json', spaces, false);

// The default sort (UTF-16 code units) of random strings over an alphabet
// of ASCII, BMP characters either side of the surrogates and astral ones.
const alphabet = ['a', 'b', 'Z', '-', '.', '~', 'é', '\ufffd', '\ue000', '\ud7ff', '\u{1F600}', '\u{10000}', '\uffff', '中'];
const rs = rng(3);
const sorts = [];
for (let i = 0; i < 300; i++) {
  const list = [];
  const n = 2 + Math.floor(rs() * 8);
  for (let j = 0; j < n; j++) {
    let w = '';
    const len = Math.floor(rs() * 5);
    for (let k = 0; k < len; k++) w += alphabet[Math.floor(rs() * alphabet.length)];
    list.push(w);
  }
  sorts.push([...list].sort());
}
out('node-sort.json', sorts, true);

// path.basename (POSIX) of names with and without trailing slashes.
const baseNames = ['', '/', '//', 'a', '/a', 'a/', 'a//', '/a/b', '/a/b/', 'a/b.md', './x', '../y/', 'dir/.hidden', '/x/y z.md', 'é/ü', '///a///'];
out('node-basename.json', baseNames.map((n) => [n, path.posix.basename(n)]), true);
