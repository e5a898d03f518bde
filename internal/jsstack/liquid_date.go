package jsstack

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The date filters of LiquidJS, as upstream runs them: in the UTC time
// zone and the en-US locale (upstream's process runs with TZ=UTC and
// LANG=C.UTF-8).

// lqDate is LiquidJS's LiquidDate: an instant, the time shown and the
// offset in minutes that %z prints (JavaScript's sign: positive west).
type lqDate struct {
	display time.Time
	offset  float64
	fixed   bool
}

var (
	lqISODateRE = lqLazyRE(`^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$`)
	lqSlashRE   = lqLazyRE(`^(\d{4})/(\d{1,2})/(\d{1,2})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$`)
	lqMonthRE   = lqLazyRE(`^([A-Za-z]{3})[a-z]* (\d{1,2}),? (\d{4})$`)

	lqLegacyNumbersRE = lqLazyRE(`^((?:[A-Za-z]+[\s.,/-]*)*)([\s.,/-]*\d+(?:[\s.,/-]+\d+){0,2}[\s.,/-]*)$`)
	lqWordsRE         = lqLazyRE(`[A-Za-z]+`)
	lqDigitsRE        = lqLazyRE(`\d+`)
)

// lqLegacyNumbers is V8's legacy date parser on a text of one to three
// numbers (DayComposer::Write): missing components are 1; the first
// number is the year when it cannot be a day (YMD), the month else (MDY);
// a year below 50 is 20xx, below 100 19xx.
func lqLegacyNumbers(nums []string) (time.Time, bool) {
	comp := [3]int{1, 1, 1}
	for i, n := range nums {
		v, err := strconv.Atoi(n)
		if err != nil || v > 1e9 {
			return time.Time{}, false
		}
		comp[i] = v
	}
	isDay := func(d int) bool { return d >= 1 && d <= 31 }
	year, month, day := comp[2], comp[0], comp[1]
	if !isDay(comp[0]) {
		year, month, day = comp[0], comp[1], comp[2]
	}
	switch {
	case year >= 0 && year <= 49:
		year += 2000
	case year >= 50 && year <= 99:
		year += 1900
	}
	if month < 1 || month > 12 || !isDay(day) || year > 275760 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), true
}

// lqParseJSDate is new Date(string) for the forms the twin knows (ISO
// 8601 and V8's "YYYY/MM/DD" and "Mon D, YYYY"); ok is false for others,
// which JavaScript may read.
func lqParseJSDate(s string) (time.Time, bool) {
	atoi := func(x string) int { n, _ := strconv.Atoi(x); return n }
	if m := lqISODateRE().FindStringSubmatch(s); m != nil {
		y, mo, d := atoi(m[1]), 1, 1
		if m[2] != "" {
			mo = atoi(m[2])
		}
		if m[3] != "" {
			d = atoi(m[3])
		}
		if mo < 1 || mo > 12 || d < 1 || d > 31 {
			return time.Time{}, false
		}
		h, mi, sec, ns := 0, 0, 0, 0
		if m[4] != "" {
			h, mi = atoi(m[4]), atoi(m[5])
			if m[6] != "" {
				sec = atoi(m[6])
			}
			if m[7] != "" {
				frac := (m[7] + "000")[:3]
				ns = atoi(frac) * 1e6
			}
		}
		if h > 24 || mi > 59 || sec > 59 {
			return time.Time{}, false
		}
		t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC)
		if z := m[8]; z != "" && z != "Z" {
			zz := strings.ReplaceAll(z[1:], ":", "")
			off := (atoi(zz[:2])*60 + atoi(zz[2:])) * 60
			if z[0] == '+' {
				off = -off
			}
			t = t.Add(time.Duration(off) * time.Second)
		}
		return t, true
	}
	if m := lqSlashRE().FindStringSubmatch(s); m != nil {
		h, mi, sec := 0, 0, 0
		if m[4] != "" {
			h, mi = atoi(m[4]), atoi(m[5])
			if m[6] != "" {
				sec = atoi(m[6])
			}
		}
		return time.Date(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), h, mi, sec, 0, time.UTC), true
	}
	if m := lqLegacyNumbersRE().FindStringSubmatch(s); m != nil {
		// Words before the first number that are no keyword V8 knows
		// (month names, am, pm, time zones, t) are skipped.
		for _, w := range lqWordsRE().FindAllString(m[1], -1) {
			w = strings.ToLower(w)
			if len(w) >= 3 && strings.Contains("jan feb mar apr may jun jul aug sep oct nov dec", w[:3]) || slices.Contains([]string{"am", "pm", "ut", "utc", "gmt", "z", "t", "cdt", "cst", "edt", "est", "mdt", "mst", "pdt", "pst"}, w) {
				return time.Time{}, false
			}
		}
		return lqLegacyNumbers(lqDigitsRE().FindAllString(m[2], -1))
	}
	if m := lqMonthRE().FindStringSubmatch(s); m != nil {
		for i, name := range lqMonthNames {
			if strings.EqualFold(name[:3], m[1]) {
				return time.Date(atoi(m[3]), time.Month(i+1), atoi(m[2]), 0, 0, 0, 0, time.UTC), true
			}
		}
	}
	return time.Time{}, false
}

var (
	lqMonthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	lqDayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// lqParseDate is LiquidJS's parseDate; ok is false for an invalid date.
func lqParseDate(v, tz any) (*lqDate, bool) {
	v = lqToValue(v)
	var t time.Time
	fromMillis := func(ms float64) (time.Time, bool) {
		if math.IsNaN(ms) || math.Abs(ms) > 8.64e15 {
			return time.Time{}, false
		}
		return time.UnixMilli(int64(ms)).UTC(), true
	}
	ok := false
	switch x := v.(type) {
	case nil, lqUndefinedValue:
		return nil, false
	case float64:
		t, ok = fromMillis(x * 1000)
	case bool:
		t, ok = fromMillis(lqToNumberJS(x))
	case []any:
		// new Date(array) parses the array's text.
		t, ok = lqParseJSDate(lqString(x))
	case string:
		if x == "now" || x == "today" {
			t, ok = time.Now().UTC(), true
		} else if x != "" && strings.Trim(x, "0123456789") == "" {
			t, ok = fromMillis(lqStringToNumber(x) * 1000)
		} else {
			t, ok = lqParseJSDate(x)
		}
	}
	if !ok {
		return nil, false
	}
	d := &lqDate{display: t}
	if f, isNum := tz.(float64); isNum {
		d.offset, d.fixed = f, true
		d.display = t.Add(-time.Duration(f * float64(time.Minute)))
	}
	return d, true
}

func lqDateFilter(v, format, tz any) (any, error) {
	d, ok := lqParseDate(v, tz)
	if !ok {
		return v, nil
	}
	format = lqToValue(format)
	f := "%A, %B %-e, %Y at %-l:%M %P %z"
	if !lqIsNil(format) {
		f = lqStringify(format)
	}
	return lqStrftime(d, f), nil
}

func lqStringifyDate(v any, month string, typ, style any) (any, error) {
	d, ok := lqParseDate(v, lqUndefined)
	if !ok {
		return v, nil
	}
	if typ == "ordinal" {
		day := strconv.Itoa(d.display.Day())
		if style == "US" {
			return lqStrftime(d, month+" "+day+"%q, %Y"), nil
		}
		return lqStrftime(d, day+"%q "+month+" %Y"), nil
	}
	return lqStrftime(d, "%d "+month+" %Y"), nil
}

var lqFormatRE = lqLazyRE(`%([-_0^#:]+)?(\d+)?([EO])?(.)`)

func lqStrftime(d *lqDate, format string) string {
	var out strings.Builder
	rest := format
	for {
		loc := lqFormatRE().FindStringSubmatchIndex(rest)
		if loc == nil {
			break
		}
		out.WriteString(rest[:loc[0]])
		m := make([]string, 5)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = rest[loc[2*i]:loc[2*i+1]]
			}
		}
		rest = rest[loc[1]:]
		out.WriteString(lqFormatCode(d, m))
	}
	out.WriteString(rest)
	return out.String()
}

func lqTZOffset(d *lqDate, colon bool) string {
	n := math.Abs(d.offset)
	h, m := math.Floor(n/60), math.Mod(n, 60)
	sign := "+"
	if d.offset > 0 {
		sign = "-"
	}
	sep := ""
	if colon {
		sep = ":"
	}
	return sign + lqPadStart(NumberString(h), 2, "0") + sep + lqPadStart(NumberString(m), 2, "0")
}

func lqPadStart(s string, n int, ch string) string {
	if k := n - lqLen(s); k > 0 {
		return strings.Repeat(ch, k) + s
	}
	return s
}

func lqWeekOfYear(t time.Time, startDay int) string {
	now := t.YearDay() + (startDay - int(t.Weekday()))
	jan1 := time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	then := 7 - int(jan1.Weekday()) + startDay
	return strconv.Itoa(int(math.Floor(float64(now-then)/7)) + 1)
}

func lqFormatCode(d *lqDate, m []string) string {
	input, flagStr, width, conv := m[0], m[1], m[2], m[4]
	t := d.display
	flags := map[rune]bool{}
	for _, f := range flagStr {
		flags[f] = true
	}
	hour12 := func() string {
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return strconv.Itoa(h)
	}
	itoa := strconv.Itoa
	var ret string
	switch conv {
	case "a":
		ret = lqDayNames[t.Weekday()][:3]
	case "A":
		ret = lqDayNames[t.Weekday()]
	case "b", "h":
		ret = lqMonthNames[t.Month()-1][:3]
	case "B":
		ret = lqMonthNames[t.Month()-1]
	case "c":
		ret = lqLocaleDate(t) + ", " + lqLocaleTime(t)
	case "C":
		ret = itoa(t.Year() / 100)
	case "d", "e":
		ret = itoa(t.Day())
	case "H", "k":
		ret = itoa(t.Hour())
	case "I", "l":
		ret = hour12()
	case "j":
		ret = itoa(t.YearDay())
	case "L":
		ret = itoa(t.Nanosecond() / 1e6)
	case "m":
		ret = itoa(int(t.Month()))
	case "M":
		ret = itoa(t.Minute())
	case "N":
		w, _ := strconv.Atoi(width)
		if w == 0 {
			w = 9
		}
		s := itoa(t.Nanosecond() / 1e6)
		if len(s) > w {
			s = s[:w]
		}
		ret = s + strings.Repeat("0", w-len(s))
	case "p":
		ret = "AM"
		if t.Hour() >= 12 {
			ret = "PM"
		}
	case "P":
		ret = "am"
		if t.Hour() >= 12 {
			ret = "pm"
		}
	case "q":
		switch day := t.Day(); {
		case day == 11 || day == 12 || day == 13:
			ret = "th"
		case day%10 == 1:
			ret = "st"
		case day%10 == 2:
			ret = "nd"
		case day%10 == 3:
			ret = "rd"
		default:
			ret = "th"
		}
	case "s":
		ret = NumberString(lqMathRound(float64(t.UnixMilli()) / 1000))
	case "S":
		ret = itoa(t.Second())
	case "u":
		ret = itoa(int(t.Weekday()))
		if t.Weekday() == 0 {
			ret = "7"
		}
	case "U":
		ret = lqWeekOfYear(t, 0)
	case "w":
		ret = itoa(int(t.Weekday()))
	case "W":
		ret = lqWeekOfYear(t, 1)
	case "x":
		ret = lqLocaleDate(t)
	case "X":
		ret = lqLocaleTime(t)
	case "y":
		ret = itoa(t.Year())
		if len(ret) >= 4 {
			ret = ret[2:4]
		} else if len(ret) > 2 {
			ret = ret[2:]
		} else {
			ret = ""
		}
	case "Y":
		ret = itoa(t.Year())
	case "z":
		ret = lqTZOffset(d, flags[':'])
	case "Z":
		if d.fixed {
			ret = lqTZOffset(d, flags[':'])
		} else {
			ret = "UTC"
		}
	case "t":
		ret = "\t"
	case "n":
		ret = "\n"
	case "%":
		ret = "%"
	default:
		return input
	}
	padChar := "0"
	if strings.Contains("aAbBceklpP", conv) {
		padChar = " "
	}
	padWidth, _ := strconv.Atoi(width)
	if padWidth == 0 {
		padWidth = map[string]int{"d": 2, "e": 2, "H": 2, "I": 2, "j": 3, "k": 2, "l": 2, "L": 3, "m": 2, "M": 2, "S": 2, "U": 2, "W": 2}[conv]
	}
	if flags['^'] {
		ret = strings.ToUpper(ret)
	} else if flags['#'] {
		if strings.ContainsFunc(ret, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
			ret = strings.ToUpper(ret)
		} else {
			ret = strings.ToLower(ret)
		}
	}
	if flags['_'] {
		padChar = " "
	} else if flags['0'] {
		padChar = "0"
	}
	if flags['-'] {
		padWidth = 0
	}
	return lqPadStart(ret, padWidth, padChar)
}

// lqLocaleDate and lqLocaleTime are toLocaleDateString and
// toLocaleTimeString in en-US.
func lqLocaleDate(t time.Time) string {
	return strconv.Itoa(int(t.Month())) + "/" + strconv.Itoa(t.Day()) + "/" + strconv.Itoa(t.Year())
}

func lqLocaleTime(t time.Time) string {
	h := t.Hour() % 12
	if h == 0 {
		h = 12
	}
	ampm := "AM"
	if t.Hour() >= 12 {
		ampm = "PM"
	}
	return strconv.Itoa(h) + ":" + lqPadStart(strconv.Itoa(t.Minute()), 2, "0") + ":" + lqPadStart(strconv.Itoa(t.Second()), 2, "0") + " " + ampm
}
