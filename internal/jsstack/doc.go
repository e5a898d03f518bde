// Package jsstack holds the twins of the JavaScript stack upstream
// Outfitter runs on: Go code that gives, on the same input, what that
// runtime or library gives, byte for byte, because upstream passes it on
// in files it writes or in its messages. The Outfitter logic stays in
// resolve and composite, which call these twins; this package imports no
// other package of the module.
//
// Each twin names the version it reproduces, taken from upstream's
// lockfile (package-lock.json at upstream's commit e5fffdf): Node
// ">=22.19.0" (the engines field; the tables were produced by Node
// 22.23.5, the oracle's), the yaml library 2.9.0 and LiquidJS 10.27.1.
//
//   - [Object]: the key order of a JavaScript object (V8: array indexes
//     first, ascending, then insertion order).
//   - [Stringify], [AppendString], [NumberString]: V8's JSON.stringify and
//     Number.prototype.toString.
//   - [ParseJSON], [JSONSyntaxError], [NodeUTF16]: V8's JSON.parse and its
//     messages, on text decoded as Node's readFileSync(p, 'utf8') decodes
//     it.
//   - [GlobSync], [Basename]: Node's fs.globSync and path.basename.
//   - [Compare]: JavaScript's default sort order (UTF-16 code units).
//   - [IsSpace], [Trim], [TrimEnd]: String.prototype.trim and trimEnd.
//   - [FSError]: String() of the errors Node's fs throws, with libuv's
//     errno texts.
//   - [ParseYAML], [YAMLParseError]: the yaml library's parse(text) with
//     upstream's options (all defaults: YAML 1.2, the core schema, no
//     merge keys, unique keys, upstream's alias budget), over
//     go.yaml.in/yaml/v3 and a pre-pass (see yaml_prepass.go).
//   - [LiquidError] and the Liquid engine of liquid*.go: LiquidJS's
//     renders and errors with upstream's options and delimiters
//     ([LiquidVersion]; its table is testdata/liquid_table.json, written
//     by testdata/liquid_table.js).
//
// # Tables
//
// Each twin is tested against a table the real runtime produced, under
// testdata. testdata/node-tables.mjs writes the Node tables; run it with
// Node 22 from that directory:
//
//	cd internal/jsstack/testdata && $OUTFITTER_NODE node-tables.mjs
//
// testdata/yaml-tables.mjs writes the yaml library's table with the
// library of upstream's build (its node_modules):
//
//	cd internal/jsstack/testdata && $OUTFITTER_NODE yaml-tables.mjs $OUTFITTER_UPSTREAM_CLI
//
// testdata/yaml-mutants.mjs writes testdata/node-yaml-mutants.json: 1,178
// documents broken one mutation at a time from four valid settings and
// profile documents, two of them also after a byte order mark and with
// CRLF line breaks (truncated, a quote or bracket left open or out,
// indentation off by a column, tabs, stray colons, comments without a
// space, lines repeated or out of place), with the library's outcome:
//
//	cd internal/jsstack/testdata && $OUTFITTER_NODE yaml-mutants.mjs $OUTFITTER_UPSTREAM_CLI
//
// go generate ./internal/jsstack runs all three, with OUTFITTER_NODE and
// OUTFITTER_UPSTREAM_CLI set.
//
// # YAML syntax errors
//
// ParseYAML reads with yaml/v3 and, for a document it refuses, words and
// locates the error as the library does where it knows the library's
// error from yaml/v3's message and the text: String(error) byte for byte,
// "YAMLParseError: ", the library's diagnostic, line, column, the quoted
// line and the carets. The lines are those of the library's LineCounter,
// which misses the line starts inside a plain scalar its parser keeps as
// stray content after a node: the line before such a start runs on over
// it. Elsewhere the error is "YAMLParseError: " and yaml/v3's own text,
// without the library's line and column. By yaml/v3's message:
//
//   - "mapping values are not allowed in this context": located when the
//     value on the line named, or on the line above that it continues,
//     holds a second ": " or ends with ':', or is a quoted scalar or an
//     alias followed by a plain scalar that a ':' ends on the line named
//     (Nested mappings are not allowed in compact mappings), or the line
//     above is a plain scalar
//     that runs on to the key (Implicit keys need to be on a single
//     line); an alias value whose name goes on with a ':' ("*name:",
//     which the library's lexer reads into the name) is the library's
//     unresolved alias of that name. Not located: a ':' after a flow
//     collection, a plain scalar and a flow collection on one line, some
//     of which the library reads.
//   - "could not find expected ':'": located, a plain scalar that runs on
//     to a key on a later line (Implicit keys need to be on a single
//     line) or stands alone where a key belongs (Implicit map keys need
//     to be followed by map values), or stands at the column of the
//     entries of the block sequence before it, the value of a less
//     indented key (All mapping items must start at the same column, at
//     the end of the sequence). Not located: a quoted key over two lines.
//   - "did not find expected key", "found a tab character …", "found
//     character that cannot start any token": located, a tab in the
//     indentation (Tabs are not allowed as indentation), a key less
//     indented than its siblings or indented under a value that ends on
//     its line (All mapping items must start at the same column, also
//     before a quote of its value the lexer cuts), a value followed by a
//     plain scalar a ':' ends, as a key without its ':' before a flow
//     collection reads (Nested mappings are not allowed in compact
//     mappings), a closing bracket that starts a line (Unexpected
//     flow-seq-end token in YAML stream), a "- "
//     line among keys (A block sequence may not be used as an implicit
//     map key), text after a quoted scalar or an alias (Unexpected scalar
//     at node end), a quoted scalar cut short or a flow collection left
//     open before the line named or before the key yaml/v3 misses, a line indented further than the keys
//     after a block scalar that a less indented line ends (All mapping
//     items …, at the start of that line), a plain scalar that starts
//     with a reserved character, a directive indicator or, in a flow
//     collection, a block scalar indicator (Plain value cannot start with
//     …), a tab starting the line after a block scalar (Block scalar
//     lines must not be less indented than their first line, or the
//     messages for an empty one). The rules that read indentation skip
//     the lines that go on with a flow collection or a quoted scalar. Not
//     located: some keys misindented after a comment line or a scalar
//     over lines.
//   - "did not find expected '-' indicator", "did not find expected
//     <document start>": located, content after the document's top node
//     (Unexpected scalar at node end), a key after a block sequence
//     indented under its own key (All mapping items must start at the
//     same column), an entry at another column than the sequence's (All
//     sequence items must start at the same column), a line between the
//     entries' column and the keys of the entry before (Sequence item
//     without - indicator), a closing bracket that starts a line.
//   - "did not find expected ',' or ']'" (or '}'), "did not find expected
//     node content", "found unexpected end of stream", "found unexpected
//     document indicator", "found unknown anchor": located, a flow
//     collection left open (Flow sequence … must end with a ]), a quote
//     never closed or cut short (Missing closing "quote), a comment right
//     after a token, a key of a flow sequence's pair over two lines
//     (Implicit keys of flow sequence pairs need to be on a single line),
//     text right after a quoted item (Unexpected scalar at node end;
//     Missing , or : between flow sequence items), a "- " line inside a
//     flow collection (its entry made a key over lines by a ':': Implicit
//     keys need to be on a single line), a pair's value made a key by a
//     ':' after it (Block
//     collections are not allowed within flow collections), a node after
//     a flow item without ',' or ':' between (Missing , or : between flow
//     map items, or sequence items). Not located: a closing bracket left
//     over on the line of a value.
//   - "did not find expected comment or line break": located, a block
//     scalar header with extra characters (Block scalar header includes
//     extra characters: …).
//   - "found unknown escape character", "did not find expected
//     hexdecimal number", "found invalid Unicode character escape code":
//     located, the first escape of a double-quoted scalar the library
//     does not know, or whose digits are too few or no character (Invalid
//     escape sequence …, at the backslash).
//   - Two anchors or tags: not located.
//
// Duplicate keys (Map keys must be unique, at the key or at the line
// break of an empty value before it), a second document and an unresolved
// alias are located from yaml/v3's node tree (an alias whose name the
// library reads longer, over characters yaml/v3 ends a name at, is named
// as the library names it). Documents yaml/v3 reads and
// the library refuses are refused as the library does where its lexer
// ends a token yaml/v3 does not (lexerRefusal): a flow collection or a
// quoted scalar over lines whose next line is indented less than its
// block context requires (a tab does not indent), a comment right after a
// quoted scalar, a flow indicator or a block scalar header. On
// node-yaml-mutants.json the library refuses 763 documents; ParseYAML
// refuses the same 763 and locates all of them as the library does, in
// its words; yaml_mutants_internal_test.go lists the 15 documents the
// library reads and yaml/v3 refuses (mutantLeft).
package jsstack

//go:generate sh -c "cd testdata && \"$OUTFITTER_NODE\" node-tables.mjs && \"$OUTFITTER_NODE\" --no-warnings yaml-tables.mjs \"$OUTFITTER_UPSTREAM_CLI\" && \"$OUTFITTER_NODE\" --no-warnings yaml-mutants.mjs \"$OUTFITTER_UPSTREAM_CLI\""
