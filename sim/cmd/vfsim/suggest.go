package main

// suggest returns the candidate closest to word when it is close enough to
// be a misspelling (an edit distance of at most a third of its length, and
// at least one), or "" when none is.
func suggest(word string, candidates []string) string {
	best, bestD := "", max(1, len(word)/3)+1
	for _, c := range candidates {
		if d := distance(word, c); c != word && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the edit distance of a and b counting insertions, deletions,
// substitutions and transpositions of adjacent bytes.
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
