//go:build ignore

package sample

func g(a int) bool { return a == 1 }
