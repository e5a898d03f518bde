// yaml-library.mjs is what yaml-tables.mjs and yaml-mutants.mjs share:
// the yaml library upstream pins, loaded from upstream's build, and the
// encoding of what its parse gives for a document.
import path from 'node:path';
import { createRequire } from 'node:module';

// loadParse returns the parse function of the yaml library in the
// upstream code/cli directory cli (its node_modules), after checking
// that it is the version upstream pins (2.9.0 in its lockfile).
export const loadParse = (cli, script) => {
  if (!cli) throw new Error(`usage: ${script} <upstream code/cli directory>`);
  const require = createRequire(path.join(cli, 'package.json'));
  const yamlPackage = require('yaml/package.json');
  if (yamlPackage.version !== '2.9.0') throw new Error('upstream pins yaml 2.9.0, found ' + yamlPackage.version);
  return require('yaml').parse;
};

const hasLoneSurrogate = (s) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

// enc encodes a parsed value so that JSON keeps what JSON.stringify
// would lose: numbers as {"n": String(n)}, "-0" for negative zero;
// objects as {"o": [[key, value], …]} in key order; strings with lone
// surrogates as {"u": [code units]}.
export const enc = (v) => {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return { n: Object.is(v, -0) ? '-0' : String(v) };
  if (typeof v === 'string') {
    if (!hasLoneSurrogate(v)) return v;
    const u = [];
    for (let i = 0; i < v.length; i++) u.push(v.charCodeAt(i));
    return { u };
  }
  if (Array.isArray(v)) return v.map(enc);
  if (v instanceof Date) throw new Error('a Date: not in the core schema');
  if (typeof v === 'object') return { o: Object.keys(v).map((k) => [k, enc(v[k])]) };
  throw new Error('unexpected value ' + typeof v);
};

// result returns what parse gives for the document d: {"value": v},
// encoded, or {"error": String(e), "name": e.name} for a document it
// refuses.
export const result = (parse, d) => {
  try {
    return { value: enc(parse(d)) };
  } catch (e) {
    return { error: String(e), name: e.name };
  }
};
