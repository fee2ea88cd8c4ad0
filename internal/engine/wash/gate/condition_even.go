package gate

// An "even" condition extends a rule to a case a reader might take for an exception: "blocked,
// also in dry run", "show a Plan even in an emergency" (緊急対応時も), "即使紧急也要". The case is
// a condition of the rule of its own kind: a result that drops it, or says it as a plain "in an
// emergency" (緊急対応時は), no longer says the rule holds there, and the condition is missing.
const condEven = "even"

// evenText gives, per language, the phrases that open an "even" condition. A bare "also" or
// "auch" is no condition (it adds an item); it is one before a preposition or a conjunction of
// circumstance. Chinese and Japanese phrases are matched inside runs (時も, 場合も), Korean ones
// as words with their particle (경우에도). The lexicon reads it once (addConditions).
func evenText() map[string]string {
	return map[string]string{
		"en": "even_in even_when even_if even_for even_during even_on even_after even_before even_with also_in also_when also_during also_on",
		"de": "auch_in auch_im auch_bei auch_beim auch_wenn auch_während auch_mit selbst_in selbst_im selbst_bei selbst_beim selbst_wenn " +
			"sogar_in sogar_im sogar_bei sogar_beim sogar_wenn sogar_mit selbst_mit",
		"fr": "même_en même_si même_pour même_dans même_lors même_quand même_avec aussi_en aussi_dans aussi_lors",
		"es": "incluso_en incluso_si incluso_cuando incluso_durante incluso_con aun_en aún_en aun_si aún_si aun_cuando aún_cuando también_en también_durante",
		"pt": "mesmo_em mesmo_no mesmo_na mesmo_se mesmo_quando mesmo_durante mesmo_com também_em também_no também_na também_durante inclusive_em",
		"ru": "даже_в даже_во даже_при даже_если даже_когда даже_с даже_со также_в также_при",
		"zh": "即使 即便 哪怕 就算",
		"ja": "時も 時でも 場合も 場合でも 際も 際でも ときも ときでも",
		"ko": "때도 때에도 경우도 경우에도 시에도",
	}
}
