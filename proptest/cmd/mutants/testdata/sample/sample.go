package sample

func f(a, b int, s string) (int, string) {
	if a == b || a < -b {
		a++
	}
	return a - b*2, s + "x"
}
