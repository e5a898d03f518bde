package sample

func h(a int) bool { return a != 1 }
