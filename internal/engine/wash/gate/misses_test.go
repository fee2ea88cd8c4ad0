package gate

import "testing"

// TestKoreanConditionNegationClasses: a Korean condition word ends its condition ("배포 시"), so
// a negation after it is the rule's: "배포 시 바로 머지하지 않고" said "배포 시 바로 머지하고" is
// flipped. A negation inside the condition stays the condition's.
func TestKoreanConditionNegationClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"negation after 시 dropped", TypePolarity, "- 배포 시 바로 머지하지 않고, 리뷰어 승인 후 머지합니다.", "- 배포 시 바로 머지하고, 리뷰어 승인 후 알립니다."},
		{"negation after 경우 dropped", TypePolarity, "- 테스트 실패 경우 재시도하지 않고 원인을 기록합니다.", "- 테스트 실패 경우 재시도하고 원인을 기록합니다."},
		{"negation after 시 kept", "", "- 배포 시 바로 머지하지 않고, 리뷰어 승인 후 머지합니다.", "- 배포 시 바로 머지하지 않고 리뷰어 승인 후 머지합니다."},
	})
}
