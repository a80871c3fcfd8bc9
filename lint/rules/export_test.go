package rules

// ParseNumForTest is parseNum, for the tests of package rules_test.
var ParseNumForTest = parseNum
