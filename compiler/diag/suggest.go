package diag

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Suggest returns the candidate closest to name, compared case-insensitively
// and ignoring '_' and '-', or "" when none is close enough to be a likely
// typo. Ties go to the earlier candidate, so callers should pass a stable
// order. A name longer than 64 bytes is no typo: Suggest returns "".
func Suggest(name string, candidates []string) string {
	if len(name) > maxSuggestLen {
		return ""
	}
	key := fold(name)
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(key, fold(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	// Allow roughly one edit per three characters, at least one.
	limit := max(1, len([]rune(key))/3)
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

// DidYouMean formats a Suggest result as a hint, or returns fallback.
func DidYouMean(name string, candidates []string, fallback string) string {
	if s := Suggest(name, candidates); s != "" && s != name {
		return "did you mean " + `"` + s + `"?`
	}
	return fallback
}

func fold(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s))
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// maxSuggestLen is the longest name, in bytes, that Suggest compares with
// its candidates: a longer one is no typo of any field, key, rule or value
// slurmspec knows, and the edit distance would cost its length times each
// candidate's (a few megabyte-long unknown keys took seconds).
const maxSuggestLen = 64

// MaxEcho is the length, in bytes, up to which Shorten leaves a name whole.
const MaxEcho = 64

// Shorten returns name as a message should echo it: whole when it is at
// most MaxEcho bytes, else its first MaxEcho bytes (whole characters)
// followed by "…(N bytes)", so that a huge key or value from a spec is not
// repeated whole in every message, path and output format.
func Shorten(name string) string {
	if len(name) <= MaxEcho {
		return name
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut] + "…(" + strconv.Itoa(len(name)) + " bytes)"
}
