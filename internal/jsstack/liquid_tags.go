package jsstack

import (
	"errors"
	"strings"
)

// The parser and the built-in tags of LiquidJS (src/parser, src/tags).

type lqQueue struct{ toks []lqToken }

func (q *lqQueue) shift() lqToken {
	if len(q.toks) == 0 {
		return nil
	}
	t := q.toks[0]
	q.toks = q.toks[1:]
	return t
}

type lqParser struct{}

func (p *lqParser) parseTokens(q *lqQueue) ([]lqTemplate, error) {
	var tpls []lqTemplate
	for tok := q.shift(); tok != nil; tok = q.shift() {
		tpl, err := p.parseToken(tok, q)
		if err != nil {
			return nil, err
		}
		tpls = append(tpls, tpl)
	}
	return tpls, nil
}

// lqCatch turns the tokenizer's assertions deep in a value into errors.
func lqCatch(err *error) {
	if r := recover(); r != nil {
		re, ok := r.(lqRangeError)
		if !ok {
			panic(r)
		}
		*err = re.err
	}
}

func (p *lqParser) parseToken(tok lqToken, q *lqQueue) (tpl lqTemplate, err error) {
	defer lqCatch(&err)
	switch t := tok.(type) {
	case *lqTag:
		ctor, ok := lqTagParsers[t.name]
		if !ok {
			err = lqErrorf(`tag "` + t.name + `" not found`)
			break
		}
		tpl, err = ctor(t, q, p)
	case *lqOutput:
		tpl, err = newLqOutput(t)
	case *lqHTML:
		return &lqHTMLTpl{t}, nil
	}
	if err != nil {
		var le *LiquidError
		if !errors.As(err, &le) {
			err = lqError("ParseError", err.Error(), tok.pos())
		}
		return nil, err
	}
	return tpl, nil
}

// lqStream is LiquidJS's ParseStream: tags by name, templates, the end.
type lqStream struct {
	tags     map[string]func(*lqTag) error
	template func(lqTemplate)
	end      func() error
	stopped  bool
}

func (p *lqParser) stream(q *lqQueue, s *lqStream) error {
	for !s.stopped {
		tok := q.shift()
		if tok == nil {
			break
		}
		if t, ok := tok.(*lqTag); ok {
			if h := s.tags[t.name]; h != nil {
				if err := h(t); err != nil {
					return err
				}
				continue
			}
		}
		tpl, err := p.parseToken(tok, q)
		if err != nil {
			return err
		}
		s.template(tpl)
	}
	if !s.stopped {
		return s.end()
	}
	return nil
}

func lqNotClosed(t *lqTag) error { return lqErrorf("tag " + t.text() + " not closed") }

// lqAssertEmpty is assertEmpty(args).
func lqAssertEmpty(args string) error {
	if args != "" {
		return lqErrorf("unexpected " + lqQuoteJSON(lqU16(args)))
	}
	return nil
}

type lqTagParser func(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error)

var lqTagParsers map[string]lqTagParser

func init() {
	lqTagParsers = map[string]lqTagParser{
		"assign": lqParseAssign, "for": lqParseFor, "capture": lqParseCapture, "case": lqParseCase,
		"comment": lqParseComment, "include": lqParseInclude, "render": lqParseRender,
		"decrement": lqParseIncrement, "increment": lqParseIncrement, "cycle": lqParseCycle,
		"if": lqParseIf, "layout": lqParseLayout, "block": lqParseBlock, "raw": lqParseRaw,
		"tablerow": lqParseTablerow, "unless": lqParseUnless, "break": lqParseBreak,
		"continue": lqParseBreak, "echo": lqParseEcho, "liquid": lqParseLiquid, "#": lqParseInlineComment,
	}
}

func (t *lqTag) filteredValue() (*lqValue, error) {
	fv, err := t.tz.readFilteredValue()
	if err != nil {
		return nil, err
	}
	return newLqValue(fv)
}

// Text and outputs.

type lqHTMLTpl struct{ t *lqHTML }

func (h *lqHTMLTpl) token() lqPos { return h.t.lqPos }
func (h *lqHTMLTpl) render(_ *lqCtx, out *lqEmitter) (any, error) {
	out.WriteString(h.t.content())
	return nil, nil
}

type lqOutputTpl struct {
	t     *lqOutput
	value *lqValue
}

func newLqOutput(t *lqOutput) (lqTemplate, error) {
	fv, err := newLqTokenizer(t.in, t.cb, t.ce).readFilteredValue()
	if err != nil {
		return nil, err
	}
	v, err := newLqValue(fv)
	if err != nil {
		return nil, err
	}
	return &lqOutputTpl{t, v}, nil
}

func (o *lqOutputTpl) token() lqPos { return o.t.lqPos }
func (o *lqOutputTpl) render(c *lqCtx, out *lqEmitter) (any, error) {
	v, err := o.value.value(c, false)
	if err != nil {
		return nil, err
	}
	out.write(v)
	return nil, nil
}

// lqTagTpl is a tag with its render function.
type lqTagTpl struct {
	t *lqTag
	r func(c *lqCtx, out *lqEmitter) (any, error)
}

func (g *lqTagTpl) token() lqPos { return g.t.lqPos }
func (g *lqTagTpl) render(c *lqCtx, out *lqEmitter) (any, error) {
	return g.r(c, out)
}

func lqTpl(t *lqTag, r func(c *lqCtx, out *lqEmitter) (any, error)) lqTemplate {
	return &lqTagTpl{t, r}
}

// assign

func lqParseAssign(t *lqTag, _ *lqQueue, _ *lqParser) (lqTemplate, error) {
	key := t.tz.readIdentifier().v
	if key == "" {
		return nil, t.tz.error("expected variable name", t.tz.p)
	}
	t.tz.skipBlank()
	if t.tz.peek(0) != '=' {
		return nil, t.tz.error(`expected "="`, t.tz.p)
	}
	t.tz.p++
	v, err := t.filteredValue()
	if err != nil {
		return nil, err
	}
	return lqTpl(t, func(c *lqCtx, _ *lqEmitter) (any, error) {
		x, err := v.value(c, true)
		if err != nil {
			return nil, err
		}
		c.bottom().Set(key, x)
		return nil, nil
	}), nil
}

// hash

type lqHash []*lqHashTok

func (h lqHash) render(c *lqCtx) (*Object, error) {
	o := NewObject()
	seen := map[string]lqToken{}
	var order []string
	for _, t := range h {
		if _, ok := seen[t.name]; !ok {
			order = append(order, t.name)
		}
		seen[t.name] = t.value
	}
	for _, k := range order {
		tok := seen[k]
		if tok == nil {
			o.Set(k, true)
			continue
		}
		v, err := c.evalToken(tok, false)
		if err != nil {
			return nil, err
		}
		o.Set(k, v)
	}
	return o, nil
}

func lqHashGet(o *Object, k string) any {
	if v, ok := o.Get(k); ok {
		return v
	}
	return lqUndefined
}

// for

func lqParseFor(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	variable := t.tz.readIdentifier()
	in := t.tz.readIdentifier()
	collection := t.tz.readValue()
	if variable.v == "" || in.v != "in" || collection == nil {
		return nil, lqErrorf("illegal tag: " + t.text())
	}
	hash := lqHash(t.tz.readHashes())
	var templates, elseTemplates []lqTemplate
	cur := &templates
	s := &lqStream{}
	s.tags = map[string]func(*lqTag) error{
		"else":   func(e *lqTag) error { cur = &elseTemplates; return lqAssertEmpty(e.argsText) },
		"endfor": func(e *lqTag) error { s.stopped = true; return lqAssertEmpty(e.argsText) },
	}
	s.template = func(tpl lqTemplate) { *cur = append(*cur, tpl) }
	s.end = func() error { return lqNotClosed(t) }
	// LiquidJS assigns p before it asserts else's arguments: the order
	// does not show, the error ends the parse.
	if err := p.stream(q, s); err != nil {
		return nil, err
	}
	name := variable.v
	colText := collection.pos().text()
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		v, err := c.evalToken(collection, false)
		if err != nil {
			return nil, err
		}
		items := lqToEnumerable(v)
		if len(items) == 0 {
			return nil, c.renderTemplates(elseTemplates, out)
		}
		continueKey := "continue-" + name + "-" + colText
		cs := NewObject()
		cs.Set("continue", c.getRegister(continueKey, func() any { return NewObject() }))
		c.push(cs)
		h, err := hash.render(c)
		c.pop()
		if err != nil {
			return nil, err
		}
		for _, m := range []string{"offset", "limit", "reversed"} {
			x, ok := h.Get(m)
			if !ok || x == lqUndefined {
				continue
			}
			switch m {
			case "offset":
				items = lqSliceArray(items, x, lqUndefined)
			case "limit":
				items = lqSliceArray(items, 0.0, x)
			default:
				r := make([]any, len(items))
				for i, e := range items {
					r[len(items)-1-i] = e
				}
				items = r
			}
		}
		off := lqHashGet(h, "offset")
		if !lqTruthyJS(off) {
			off = 0.0
		}
		c.registers[continueKey] = lqJSAdd(off, float64(len(items)))
		loop := &lqForloop{length: len(items), name: name + "-" + colText}
		scope := NewObject()
		scope.Set("forloop", loop)
		c.push(scope)
		defer c.pop()
		for _, item := range items {
			scope.Set(name, item)
			c.continueCalled, c.breakCalled = false, false
			if err := c.renderTemplates(templates, out); err != nil {
				return nil, err
			}
			if c.breakCalled {
				break
			}
			loop.i++
		}
		c.continueCalled, c.breakCalled = false, false
		return nil, nil
	}), nil
}

// capture

func lqParseCapture(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	var name string
	if id := t.tz.readIdentifier(); id.v != "" {
		name = id.v
	} else if qt := t.tz.readQuoted(); qt != nil {
		name = qt.(*lqQuotedTok).v
	} else {
		return nil, t.tz.error("invalid capture name", t.tz.p)
	}
	var templates []lqTemplate
	closed := false
	for tok := q.shift(); tok != nil; tok = q.shift() {
		if e, ok := tok.(*lqTag); ok && e.name == "endcapture" {
			closed = true
			break
		}
		tpl, err := p.parseToken(tok, q)
		if err != nil {
			return nil, err
		}
		templates = append(templates, tpl)
	}
	if !closed {
		return nil, lqNotClosed(t)
	}
	return lqTpl(t, func(c *lqCtx, _ *lqEmitter) (any, error) {
		var buf lqEmitter
		if err := c.renderTemplates(templates, &buf); err != nil {
			return nil, err
		}
		c.bottom().Set(name, buf.String())
		return nil, nil
	}), nil
}

// case

func lqParseCase(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	value, err := t.filteredValue()
	if err != nil {
		return nil, err
	}
	type branch struct {
		values    []lqToken
		templates *[]lqTemplate
	}
	var branches []branch
	k := &lqElseSink{cur: &[]lqTemplate{}}
	s := &lqStream{}
	s.tags = map[string]func(*lqTag) error{
		"when": func(w *lqTag) (err error) {
			if k.elseCount > 0 {
				return nil
			}
			defer lqCatch(&err)
			k.cur = &[]lqTemplate{}
			var values []lqToken
			for !w.tz.end() {
				values = append(values, w.tz.readValueOrThrow())
				w.tz.skipBlank()
				if w.tz.peek(0) == ',' {
					w.tz.readTo([]uint16{','})
				} else {
					w.tz.readTo([]uint16{'o', 'r'})
				}
			}
			branches = append(branches, branch{values, k.cur})
			return nil
		},
		"else":    k.onElse,
		"endcase": func(*lqTag) error { s.stopped = true; return nil },
	}
	s.template = k.add
	s.end = func() error { return lqNotClosed(t) }
	if err := p.stream(q, s); err != nil {
		return nil, err
	}
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		target, err := value.value(c, true)
		if err != nil {
			return nil, err
		}
		target = lqToValue(target)
		hit := false
		for _, b := range branches {
			for _, vt := range b.values {
				v, err := c.evalToken(vt, true)
				if err != nil {
					return nil, err
				}
				if lqEquals(target, v) {
					if err := c.renderTemplates(*b.templates, out); err != nil {
						return nil, err
					}
					hit = true
					break
				}
			}
		}
		if !hit {
			return nil, c.renderTemplates(k.elseTemplates, out)
		}
		return nil, nil
	}), nil
}

// lqElseSink is where case and unless put the templates they parse: into
// the current branch, and after an else into the else templates, only
// while a single else has come (LiquidJS drops what follows a second).
type lqElseSink struct {
	cur           *[]lqTemplate
	elseTemplates []lqTemplate
	elseCount     int
}

func (k *lqElseSink) onElse(*lqTag) error {
	k.elseCount++
	k.cur = &k.elseTemplates
	return nil
}

func (k *lqElseSink) add(tpl lqTemplate) {
	if k.cur != &k.elseTemplates || k.elseCount == 1 {
		*k.cur = append(*k.cur, tpl)
	}
}

// comment and raw

func lqParseComment(t *lqTag, q *lqQueue, _ *lqParser) (lqTemplate, error) {
	for tok := q.shift(); tok != nil; tok = q.shift() {
		if e, ok := tok.(*lqTag); ok && e.name == "endcomment" {
			return lqTpl(t, func(*lqCtx, *lqEmitter) (any, error) { return nil, nil }), nil
		}
	}
	return nil, lqNotClosed(t)
}

func lqParseRaw(t *lqTag, q *lqQueue, _ *lqParser) (lqTemplate, error) {
	var b strings.Builder
	for tok := q.shift(); tok != nil; tok = q.shift() {
		if e, ok := tok.(*lqTag); ok && e.name == "endraw" {
			text := b.String()
			return lqTpl(t, func(*lqCtx, *lqEmitter) (any, error) { return text, nil }), nil
		}
		b.WriteString(tok.pos().text())
	}
	return nil, lqNotClosed(t)
}

func lqParseInlineComment(t *lqTag, _ *lqQueue, _ *lqParser) (lqTemplate, error) {
	args := []rune(t.argsText)
	for i, r := range args {
		if r != '\n' {
			continue
		}
		j := i + 1
		for j < len(args) && lqIsJSSpace(args[j]) {
			j++
		}
		if j < len(args) && args[j] != '#' {
			return nil, lqErrorf("every line of an inline comment must start with a '#' character")
		}
	}
	return lqTpl(t, func(*lqCtx, *lqEmitter) (any, error) { return nil, nil }), nil
}

// lqIsJSSpace is a character of JavaScript's \s.
func lqIsJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// include, render and layout: partials are files, which the twin never
// finds.

func lqParseFilePath(t *lqTag, p *lqParser) (file any, err error) {
	toks, err := t.tz.readFileNameTemplate()
	if err != nil {
		return nil, err
	}
	tpls, err := p.parseTokens(&lqQueue{toks: toks})
	if err != nil {
		return nil, err
	}
	if len(tpls) == 1 {
		if h, ok := tpls[0].(*lqHTMLTpl); ok {
			s := h.t.content()
			if s == "none" {
				return lqUndefined, nil
			}
			return s, nil
		}
	}
	return tpls, nil
}

// lqRenderFilePath renders a partial's file name; it returns LiquidJS's
// "illegal file path" error for an empty one or none.
func lqRenderFilePath(c *lqCtx, file any) (string, error) {
	if file == lqUndefined {
		return "", lqErrorf(`illegal file path "undefined"`)
	}
	if s, ok := file.(string); ok {
		if s == "" {
			return "", lqErrorf(`illegal file path ""`)
		}
		return s, nil
	}
	var buf lqEmitter
	if tpls, ok := file.([]lqTemplate); ok {
		if err := c.renderTemplates(tpls, &buf); err != nil {
			return "", err
		}
	}
	if buf.Len() == 0 {
		return "", lqErrorf(`illegal file path ""`)
	}
	return buf.String(), nil
}

func lqLookupError(file string) error {
	return lqErrorf(`ENOENT: Failed to lookup "` + file + `" in "."`)
}

func lqParseInclude(t *lqTag, _ *lqQueue, p *lqParser) (lqTemplate, error) {
	file, err := lqParseFilePath(t, p)
	if err != nil {
		return nil, err
	}
	begin := t.tz.p
	var withVar lqToken
	if t.tz.readIdentifier().v == "with" {
		t.tz.skipBlank()
		if t.tz.peek(0) != ':' {
			withVar = t.tz.readValue()
		} else {
			t.tz.p = begin
		}
	} else {
		t.tz.p = begin
	}
	hash := lqHash(t.tz.readHashes())
	return lqTpl(t, func(c *lqCtx, _ *lqEmitter) (any, error) {
		path, err := lqRenderFilePath(c, file)
		if err != nil {
			return nil, err
		}
		if _, err := hash.render(c); err != nil {
			return nil, err
		}
		if withVar != nil {
			if _, err := c.evalToken(withVar, false); err != nil {
				return nil, err
			}
		}
		return nil, lqLookupError(path)
	}), nil
}

func lqParseRender(t *lqTag, _ *lqQueue, p *lqParser) (lqTemplate, error) {
	file, err := lqParseFilePath(t, p)
	if err != nil {
		return nil, err
	}
	tz := t.tz
	var with, forBinding lqToken
	for !tz.end() {
		tz.skipBlank()
		begin := tz.p
		kw := tz.readIdentifier().v
		if kw == "with" || kw == "for" {
			tz.skipBlank()
			if tz.peek(0) != ':' {
				if v := tz.readValue(); v != nil {
					before := tz.p
					if tz.readIdentifier().v == "as" {
						tz.readIdentifier()
					} else {
						tz.p = before
					}
					if kw == "with" {
						with = v
					} else {
						forBinding = v
					}
					tz.skipBlank()
					if tz.peek(0) == ',' {
						tz.p++
					}
					continue
				}
			}
		}
		tz.p = begin
		break
	}
	hash := lqHash(tz.readHashes())
	return lqTpl(t, func(c *lqCtx, _ *lqEmitter) (any, error) {
		path, err := lqRenderFilePath(c, file)
		if err != nil {
			return nil, err
		}
		if _, err := hash.render(c); err != nil {
			return nil, err
		}
		if with != nil {
			if _, err := c.evalToken(with, false); err != nil {
				return nil, err
			}
		}
		if forBinding != nil {
			v, err := c.evalToken(forBinding, false)
			if err != nil {
				return nil, err
			}
			if len(lqToEnumerable(v)) == 0 {
				return nil, nil
			}
		}
		return nil, lqLookupError(path)
	}), nil
}

func lqParseLayout(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	file, err := lqParseFilePath(t, p)
	if err != nil {
		return nil, err
	}
	hash := lqHash(t.tz.readHashes())
	templates, err := p.parseTokens(q)
	if err != nil {
		return nil, err
	}
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		if file == lqUndefined {
			return nil, c.renderTemplates(templates, out)
		}
		path, err := lqRenderFilePath(c, file)
		if err != nil {
			return nil, err
		}
		_ = hash
		return nil, lqLookupError(path)
	}), nil
}

var lqWordRE = lqLazyRE(`[A-Za-z0-9_]+`)

func lqParseBlock(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	var templates []lqTemplate
	for tok := q.shift(); tok != nil; tok = q.shift() {
		if e, ok := tok.(*lqTag); ok && e.name == "endblock" {
			return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
				scope := NewObject()
				scope.Set("block", NewObject())
				c.push(scope)
				defer c.pop()
				return nil, c.renderTemplates(templates, out)
			}), nil
		}
		tpl, err := p.parseToken(tok, q)
		if err != nil {
			return nil, err
		}
		templates = append(templates, tpl)
	}
	return nil, lqNotClosed(t)
}

// increment and decrement write into the environment.

func lqParseIncrement(t *lqTag, _ *lqQueue, _ *lqParser) (lqTemplate, error) {
	name := t.tz.readIdentifier().v
	inc := t.name == "increment"
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		env, ok := c.env.(*lqEnvObject)
		if !ok {
			return nil, nil
		}
		cur, _ := env.Get(name)
		n, isNum := cur.(float64)
		if !isNum {
			n = 0
		}
		if inc {
			env.over.Set(name, n+1)
			out.write(n)
		} else {
			env.over.Set(name, n-1)
			out.write(n - 1)
		}
		return nil, nil
	}), nil
}

// cycle

func lqParseCycle(t *lqTag, _ *lqQueue, _ *lqParser) (lqTemplate, error) {
	var group lqToken
	var candidates []lqToken
	first := t.tz.readValue()
	t.tz.skipBlank()
	if first != nil {
		if t.tz.peek(0) == ':' {
			group = first
			t.tz.p++
		} else {
			candidates = append(candidates, first)
		}
	}
	for !t.tz.end() {
		if v := t.tz.readValue(); v != nil {
			candidates = append(candidates, v)
		}
		t.tz.readTo([]uint16{','})
	}
	if len(candidates) == 0 {
		return nil, t.tz.error(`empty candidates: "`+t.text()+`"`, t.tz.p)
	}
	return lqTpl(t, func(c *lqCtx, _ *lqEmitter) (any, error) {
		g, err := c.evalToken(group, false)
		if err != nil {
			return nil, err
		}
		objs := make([]string, len(candidates))
		for i := range objs {
			objs[i] = "[object Object]"
		}
		fp := "cycle:" + lqString(g) + ":" + strings.Join(objs, ",")
		groups := c.getRegister("cycle", func() any { return NewObject() }).(*Object)
		idx := 0.0
		if v, ok := groups.Get(fp); ok {
			idx = v.(float64)
		}
		cand := candidates[int(idx)]
		groups.Set(fp, float64((int(idx)+1)%len(candidates)))
		return c.evalToken(cand, false)
	}), nil
}

// if and unless

type lqBranch struct {
	value     *lqValue
	unless    bool
	templates *[]lqTemplate
}

func lqParseIf(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	first, err := t.filteredValue()
	if err != nil {
		return nil, err
	}
	tpls := []lqTemplate{}
	branches := []lqBranch{{value: first, templates: &tpls}}
	cur := &tpls
	var elseTemplates *[]lqTemplate
	s := &lqStream{}
	s.tags = map[string]func(*lqTag) error{
		"elsif": func(e *lqTag) (err error) {
			if elseTemplates != nil {
				return lqErrorf("unexpected elsif after else")
			}
			defer lqCatch(&err)
			v, err := e.filteredValue()
			if err != nil {
				return err
			}
			ts := []lqTemplate{}
			cur = &ts
			branches = append(branches, lqBranch{value: v, templates: cur})
			return nil
		},
		"else": func(e *lqTag) error {
			if err := lqAssertEmpty(e.argsText); err != nil {
				return err
			}
			if elseTemplates != nil {
				return lqErrorf("duplicated else")
			}
			ts := []lqTemplate{}
			elseTemplates = &ts
			cur = elseTemplates
			return nil
		},
		"endif": func(e *lqTag) error {
			if err := lqAssertEmpty(e.argsText); err != nil {
				return err
			}
			s.stopped = true
			return nil
		},
	}
	s.template = func(tpl lqTemplate) { *cur = append(*cur, tpl) }
	s.end = func() error { return lqNotClosed(t) }
	if err := p.stream(q, s); err != nil {
		return nil, err
	}
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		for _, b := range branches {
			v, err := b.value.value(c, true)
			if err != nil {
				return nil, err
			}
			if !lqIsFalsy(v) {
				return nil, c.renderTemplates(*b.templates, out)
			}
		}
		if elseTemplates != nil {
			return nil, c.renderTemplates(*elseTemplates, out)
		}
		return nil, nil
	}), nil
}

func lqParseUnless(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	first, err := t.filteredValue()
	if err != nil {
		return nil, err
	}
	k := &lqElseSink{cur: &[]lqTemplate{}}
	branches := []lqBranch{{value: first, unless: true, templates: k.cur}}
	s := &lqStream{}
	s.tags = map[string]func(*lqTag) error{
		"elsif": func(e *lqTag) (err error) {
			if k.elseCount > 0 {
				k.cur = &[]lqTemplate{}
				return nil
			}
			defer lqCatch(&err)
			v, err := e.filteredValue()
			if err != nil {
				return err
			}
			k.cur = &[]lqTemplate{}
			branches = append(branches, lqBranch{value: v, templates: k.cur})
			return nil
		},
		"else":      k.onElse,
		"endunless": func(*lqTag) error { s.stopped = true; return nil },
	}
	s.template = k.add
	s.end = func() error { return lqNotClosed(t) }
	if err := p.stream(q, s); err != nil {
		return nil, err
	}
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		for _, b := range branches {
			v, err := b.value.value(c, true)
			if err != nil {
				return nil, err
			}
			if lqIsFalsy(v) == b.unless {
				return nil, c.renderTemplates(*b.templates, out)
			}
		}
		return nil, c.renderTemplates(k.elseTemplates, out)
	}), nil
}

// tablerow

func lqParseTablerow(t *lqTag, q *lqQueue, p *lqParser) (lqTemplate, error) {
	variable := t.tz.readIdentifier()
	t.tz.skipBlank()
	pred := t.tz.readIdentifier()
	collection := t.tz.readValue()
	if pred.v != "in" || collection == nil {
		return nil, lqErrorf("illegal tag: " + t.text())
	}
	hash := lqHash(t.tz.readHashes())
	var templates []lqTemplate
	s := &lqStream{}
	s.tags = map[string]func(*lqTag) error{"endtablerow": func(*lqTag) error { s.stopped = true; return nil }}
	s.template = func(tpl lqTemplate) { templates = append(templates, tpl) }
	s.end = func() error { return lqNotClosed(t) }
	if err := p.stream(q, s); err != nil {
		return nil, err
	}
	name := variable.v
	colText := collection.pos().text()
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		v, err := c.evalToken(collection, false)
		if err != nil {
			return nil, err
		}
		items := lqToEnumerable(v)
		h, err := hash.render(c)
		if err != nil {
			return nil, err
		}
		offset := lqHashGet(h, "offset")
		if !lqTruthyJS(offset) {
			offset = 0.0
		}
		limit := lqHashGet(h, "limit")
		if limit == lqUndefined {
			limit = float64(len(items))
		}
		items = lqSliceArray(items, offset, lqJSAdd(offset, limit))
		cols := lqHashGet(h, "cols")
		if !lqTruthyJS(cols) {
			cols = float64(len(items))
		}
		loop := &lqForloop{length: len(items), name: name + "-" + colText, tablerow: true, cols: cols}
		scope := NewObject()
		scope.Set("tablerowloop", loop)
		c.push(scope)
		defer c.pop()
		for idx := 0; idx < len(items); idx, loop.i = idx+1, loop.i+1 {
			scope.Set(name, items[idx])
			if loop.member("col0") == 0.0 {
				if row := loop.member("row"); row != 1.0 {
					out.WriteString("</tr>")
				}
				out.WriteString(`<tr class="row` + lqString(loop.member("row")) + `">`)
			}
			out.WriteString(`<td class="col` + lqString(loop.member("col")) + `">`)
			if err := c.renderTemplates(templates, out); err != nil {
				return nil, err
			}
			out.WriteString("</td>")
		}
		if len(items) > 0 {
			out.WriteString("</tr>")
		}
		return nil, nil
	}), nil
}

// break, continue, echo, liquid

func lqParseBreak(t *lqTag, _ *lqQueue, _ *lqParser) (lqTemplate, error) {
	brk := t.name == "break"
	return lqTpl(t, func(c *lqCtx, _ *lqEmitter) (any, error) {
		if brk {
			c.breakCalled = true
		} else {
			c.continueCalled = true
		}
		return nil, nil
	}), nil
}

func lqParseEcho(t *lqTag, _ *lqQueue, _ *lqParser) (lqTemplate, error) {
	t.tz.skipBlank()
	var v *lqValue
	if !t.tz.end() {
		var err error
		if v, err = t.filteredValue(); err != nil {
			return nil, err
		}
	}
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		if v == nil {
			return nil, nil
		}
		x, err := v.value(c, false)
		if err != nil {
			return nil, err
		}
		out.write(x)
		return nil, nil
	}), nil
}

func lqParseLiquid(t *lqTag, _ *lqQueue, p *lqParser) (lqTemplate, error) {
	toks, err := t.tz.readLiquidTagTokens()
	if err != nil {
		return nil, err
	}
	templates, err := p.parseTokens(&lqQueue{toks: toks})
	if err != nil {
		return nil, err
	}
	return lqTpl(t, func(c *lqCtx, out *lqEmitter) (any, error) {
		return nil, c.renderTemplates(templates, out)
	}), nil
}
