package gate

import "testing"

// TestHangulParticleClasses: a Korean word with its noun particle names what its bare stem
// names ("브랜치를" is "브랜치", "폴더에서" is "폴더"), though a noun of two syllables may end like
// a particle ("통과"); a value holding a modality on a word's stem
// ("피하고", "피하기") is a rule, not a list of names; "없이" (without) leaves out what it
// governs, so "avoid X" said "without X" keeps the rule. Another name, or the rule word
// dropped, still blocks.
func TestHangulParticleClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"particle dropped from a value", "", "- 기본 브랜치: 개발용 브랜치를", "- 기본 브랜치: 개발용 브랜치"},
		{"a noun ending like a particle", "", "- 린트 통과 후 푸시", "- 린트를 통과한 후 푸시"},
		{"two-syllable particle dropped", "", "- 실행 위치: 프로젝트 루트 폴더에서", "- 실행 위치: 프로젝트 루트 폴더"},
		{"another name with the particle", TypeName, "- 기본 브랜치: 개발용 브랜치를", "- 기본 브랜치: 배포용 브랜치를"},
		{"another one-syllable noun", TypeName, "- 출력 형식: 마크다운 표로", "- 출력 형식: 마크다운 목록으로"},
		{"피하기 said 없이", "", "- 주석: 장황한 주석을 피하기", "- 주석: 장황한 주석 없이"},
		{"피하고 said 없이", "", "- 간결성: 불필요한 설명을 피하고, 핵심만 짧게 답합니다.", "- 간결성: 불필요한 설명 없이 핵심만 짧게 답합니다."},
		{"금지 merged under 없이", "", "- 커밋 메시지는 영어로 작성합니다.\n- 커밋 메시지에 이모지 금지.", "- 커밋 메시지는 이모지 없이 영어로 작성합니다."},
		{"피하기 made plain", TypePolarity, "- 주석: 장황한 주석을 피하기", "- 주석: 장황한 주석 쓰기"},
		{"피하고 said 함께", TypePolarity, "- 간결성: 불필요한 설명을 피하고, 핵심만 짧게 답합니다.", "- 간결성: 불필요한 설명과 함께 핵심만 짧게 답합니다."},
	})
}

// TestHangulAbsenceClasses: "없" (there is none, not needed) negates as "않" (not) does, so
// "필요하지 않은" said "필요 없는" keeps what the sentence says; "없는" exchanged for "있는" reverses
// it, even beside another negation of the clause.
func TestHangulAbsenceClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"필요하지 않은 said 필요 없는", "", "- 배포에 필요하지 않은 스크립트는 패키지에서 제외합니다.", "- 배포에 필요 없는 스크립트는 패키지에서 제외합니다."},
		{"관련 없는 said 관련되지 않은", "", "- 관련 없는 설정 파일은 건드리지 않습니다.", "- 관련되지 않은 설정 파일은 건드리지 않습니다."},
		{"필요 없는 said 필요한", TypePolarity, "- 인증이 필요 없는 엔드포인트만 공개합니다.", "- 인증이 필요한 엔드포인트만 공개합니다."},
		{"없는 said 있는 beside 않", TypePolarity, "- 테스트가 없는 모듈은 병합하지 않습니다.", "- 테스트가 있는 모듈도 병합하지 않습니다."},
	})
}

// TestSaidOnceClasses: two bullets merged say a value once. An acronym ("VS") the merged
// statement spells out ("Visual Studio") is kept; a Korean particle glued to a name ("Pro에서")
// is no rate of a Latin "pro" (per). Another name in the acronym's place, or a real "pro"
// dropped, still blocks.
func TestSaidOnceClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"acronym spelled out", "", "- Build with Visual Studio 2022.\n- Open the solution in VS first.", "- Build with Visual Studio 2022, opening the solution there first."},
		{"acronym said once, 여기서 for it", "", "- **빌드 도구**: 데스크톱 앱은 **Visual Studio 2022 Pro**로 빌드합니다.\n- **디버깅**: 모든 네이티브 모듈은 **VS 2022 Pro**에서 디버깅합니다.",
			"- **빌드 도구 / 디버깅**: 데스크톱 앱은 **Visual Studio 2022 Pro**로 빌드하고, 모든 네이티브 모듈도 여기서 디버깅합니다."},
		{"Pro에서 is no rate", "", "- 모든 모듈은 Rider 2024 Pro에서 테스트합니다.", "- 모든 모듈을 Rider 2024 Pro로 테스트합니다."},
		{"acronym replaced", TypeName, "- Use VS Code for debugging.", "- Use Vim for debugging."},
		{"one of two acronyms spelled", TypeName, "- Бери курс из ЦБ РФ.", "- Бери курс из центрального банка."},
		{"pro dropped", TypeCondition, "- Ein Reviewer pro Pull Request genügt.", "- Ein Reviewer genügt."},
	})
}
