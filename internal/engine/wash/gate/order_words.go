package gate

// orderWord reports a word that puts what it joins in time order ("on staging before prod",
// "sur staging avant prod", "nach dem Review", "после ревью"), per language: two spans that
// trade places across one are a reversed order, not a free reordering of words (orderBetween).
// English "before" and "after" are pair joiners already (lexicon.go).
func orderWord(w string) bool {
	switch w {
	case "prior", // en
		"vor", "bevor", "nach", "nachdem", // de
		"avant", "après", // fr
		"antes", "después", // es
		"depois",                         // pt (antes as es)
		"до", "перед", "прежде", "после": // ru
		return true
	}
	return false
}
