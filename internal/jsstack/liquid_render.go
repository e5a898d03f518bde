package jsstack

import (
	"errors"
	"math"
	"strings"
)

// The context, expressions and renderer of LiquidJS (src/context,
// src/render).

type lqEmitter struct{ strings.Builder }

func (e *lqEmitter) write(v any) { e.WriteString(lqStringify(v)) }

type lqCtx struct {
	scopes                      []*Object
	env                         any
	globals                     *Object
	registers                   map[string]any
	breakCalled, continueCalled bool
	strict                      bool
}

func newLqCtx(env any) *lqCtx {
	return &lqCtx{scopes: []*Object{NewObject()}, env: env, globals: NewObject(), registers: map[string]any{}, strict: true}
}

// spawn is Context.spawn: a context whose environment is v.
func (c *lqCtx) spawn(v any) *lqCtx {
	s := newLqCtx(v)
	s.strict = c.strict
	return s
}

func (c *lqCtx) push(o *Object) { c.scopes = append(c.scopes, o) }
func (c *lqCtx) pop()           { c.scopes = c.scopes[:len(c.scopes)-1] }
func (c *lqCtx) bottom() *Object {
	return c.scopes[0]
}

func (c *lqCtx) getRegister(key string, def func() any) any {
	if v, ok := c.registers[key]; ok && lqTruthyJS(v) {
		return v
	}
	v := def()
	c.registers[key] = v
	return v
}

func (c *lqCtx) findScope(key string) any {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if _, ok := c.scopes[i].Get(key); ok {
			return c.scopes[i]
		}
	}
	if lqHasKey(c.env, key) {
		return c.env
	}
	return c.globals
}

func (c *lqCtx) get(paths []any) (any, error) {
	scope := c.findScope(lqPropertyKey(lqToValue(paths[0])))
	return c.getFromScope(scope, paths, c.strict)
}

func (c *lqCtx) getFromScope(scope any, paths []any, strict bool) (any, error) {
	for i, p := range paths {
		scope = lqReadProperty(scope, p)
		if strict && scope == lqUndefined {
			parts := make([]string, i+1)
			for j := range parts {
				if !lqIsNil(paths[j]) {
					parts[j] = lqString(paths[j])
				}
			}
			return nil, &lqUndefinedVar{path: strings.Join(parts, ".")}
		}
	}
	return scope, nil
}

func lqSplitPath(s string) []any {
	parts := strings.Split(s, ".")
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// evalToken is LiquidJS's evalToken.
func (c *lqCtx) evalToken(tok lqToken, lenient bool) (any, error) {
	switch t := tok.(type) {
	case nil:
		return lqUndefined, nil
	case *lqNumberTok:
		return t.v, nil
	case *lqIdentTok:
		return t.v, nil
	case *lqLiteralTok:
		return t.v, nil
	case *lqQuotedTok:
		return t.v, nil
	case *lqPropTok:
		return c.evalProp(t, lenient)
	case *lqRangeTok:
		low, err := c.evalToken(t.lhs, false)
		if err != nil {
			return nil, err
		}
		high, err := c.evalToken(t.rhs, false)
		if err != nil {
			return nil, err
		}
		lo, hi := lqToNumberJS(lqToPrimitive(lqToValue(low))), lqToNumberJS(lqToPrimitive(lqToValue(high)))
		if hi+1-lo > 1e7 {
			return nil, lqErrorf("Invalid array length")
		}
		out := []any{}
		if n := hi + 1 - lo; n > 0 {
			out = make([]any, 0, int(math.Ceil(n)))
		}
		for i := lo; i < hi+1; i++ {
			out = append(out, i)
		}
		return out, nil
	}
	return lqUndefined, nil
}

func (c *lqCtx) evalProp(t *lqPropTok, lenient bool) (any, error) {
	props := make([]any, len(t.props))
	for i, p := range t.props {
		v, err := c.evalToken(p, false)
		if err != nil {
			return nil, err
		}
		props[i] = v
	}
	var v any
	var err error
	if t.variable != nil {
		var base any
		base, err = c.evalToken(t.variable, lenient)
		if err == nil {
			v, err = c.getFromScope(base, props, c.strict)
		}
	} else {
		v, err = c.get(props)
	}
	if err == nil {
		return v, nil
	}
	var uv *lqUndefinedVar
	if lenient && errors.As(err, &uv) {
		return nil, nil
	}
	msg := err.Error()
	var le *LiquidError
	if errors.As(err, &le) {
		msg = strings.TrimPrefix(le.Error(), le.Class+": ")
	}
	return nil, lqError("UndefinedVariableError", msg, t.lqPos)
}

// evalExpr evaluates an expression in postfix order.
func (c *lqCtx) evalExpr(postfix []lqToken, lenient bool) (any, error) {
	var operands []any
	pop := func() any {
		if len(operands) == 0 {
			return lqUndefined
		}
		v := operands[len(operands)-1]
		operands = operands[:len(operands)-1]
		return v
	}
	for _, tok := range postfix {
		op, ok := tok.(*lqOpTok)
		if !ok {
			v, err := c.evalToken(tok, lenient)
			if err != nil {
				return nil, err
			}
			operands = append(operands, v)
			continue
		}
		var result any
		r := pop()
		if op.op == "not" {
			result = lqIsFalsy(r)
		} else {
			l := pop()
			result = lqOperate(op.op, l, r)
		}
		operands = append(operands, result)
	}
	if len(operands) == 0 {
		return lqUndefined, nil
	}
	return operands[0], nil
}

func lqOperate(op string, l, r any) any {
	switch op {
	case "==":
		return lqEquals(l, r)
	case "!=":
		return !lqEquals(l, r)
	case "and":
		return !lqIsFalsy(l) && !lqIsFalsy(r)
	case "or":
		return !lqIsFalsy(l) || !lqIsFalsy(r)
	case "contains":
		l = lqToValue(l)
		switch x := l.(type) {
		case []any:
			for _, e := range x {
				if lqEquals(e, r) {
					return true
				}
			}
			return false
		case string:
			return strings.Contains(x, lqString(lqToPrimitive(lqToValue(r))))
		}
		return false
	}
	return lqCompare(op, l, r)
}

// lqFilteredValue is a value expression with its filters, as tokenized.
type lqFilteredValue struct {
	lqPos
	initial []lqToken
	filters []*lqFilterTok
}

// lqValue is LiquidJS's Value: the expression and its resolved filters.
type lqValue struct {
	initial []lqToken
	filters []*lqFilter
}

type lqFilter struct {
	tok     *lqFilterTok
	handler lqFilterFunc
}

func newLqValue(fv *lqFilteredValue) (*lqValue, error) {
	v := &lqValue{initial: fv.initial}
	for _, f := range fv.filters {
		h, ok := lqFilters[f.name]
		if !ok {
			return nil, lqErrorf("undefined filter: " + f.name)
		}
		v.filters = append(v.filters, &lqFilter{tok: f, handler: h})
	}
	return v, nil
}

// value is Value.value with upstream's lenientIf.
func (v *lqValue) value(c *lqCtx, lenient bool) (any, error) {
	lenient = lenient || len(v.filters) > 0 && v.filters[0].tok.name == "default"
	val, err := c.evalExpr(v.initial, lenient)
	if err != nil {
		return nil, err
	}
	for _, f := range v.filters {
		args := make([]any, 0, len(f.tok.args))
		for _, a := range f.tok.args {
			x, err := c.evalToken(a.value, false)
			if err != nil {
				return nil, err
			}
			if a.isKV {
				x = []any{a.key, x}
			}
			args = append(args, x)
		}
		val, err = f.handler(&lqFilterCall{ctx: c}, val, args)
		if err != nil {
			return nil, err
		}
	}
	return val, nil
}

// lqTemplate is a parsed template node.
type lqTemplate interface {
	token() lqPos
	render(c *lqCtx, out *lqEmitter) (any, error)
}

// renderTemplates is Render.renderTemplates.
func (c *lqCtx) renderTemplates(tpls []lqTemplate, out *lqEmitter) error {
	for _, tpl := range tpls {
		html, err := tpl.render(c, out)
		if err != nil {
			var le *LiquidError
			if errors.As(err, &le) {
				return err
			}
			return lqError("RenderError", err.Error(), tpl.token())
		}
		if lqTruthyJS(html) {
			out.write(html)
		}
		if c.breakCalled || c.continueCalled {
			break
		}
	}
	return nil
}

// lqJSAdd is JavaScript's a + b.
func lqJSAdd(a, b any) any {
	a, b = lqToPrimitive(a), lqToPrimitive(b)
	_, as := a.(string)
	_, bs := b.(string)
	if as || bs {
		return lqString(a) + lqString(b)
	}
	return lqToNumberJS(a) + lqToNumberJS(b)
}

// lqSliceIndex converts a slice bound as Array.prototype.slice does.
func lqSliceIndex(v any, length int, def int) int {
	if v == lqUndefined {
		return def
	}
	f := lqToNumberJS(lqToPrimitive(v))
	if math.IsNaN(f) {
		return 0
	}
	f = math.Trunc(f)
	if f < 0 {
		return int(math.Max(float64(length)+f, 0))
	}
	return int(math.Min(f, float64(length)))
}

func lqSliceArray(a []any, begin, end any) []any {
	b := lqSliceIndex(begin, len(a), 0)
	e := lqSliceIndex(end, len(a), len(a))
	if b >= e {
		return []any{}
	}
	return append([]any{}, a[b:e]...)
}
