package catalog

// BoolWords returns the words S_P_BOOLEAN reads as true and as false (in
// any letter case). The slices are fresh copies.
func BoolWords() (true_, false_ []string) {
	return append([]string(nil), boolTrueTokens[:]...), append([]string(nil), boolFalseTokens[:]...)
}
