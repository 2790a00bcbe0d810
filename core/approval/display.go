package approval

import (
	"regexp"
	"strings"
	"sync"
)

// planRefusalPrefix starts the result of every call plan mode refuses
// before asking (planRefusal).
const planRefusalPrefix = "cairn is in plan mode, where "

// IsPlanRefusal reports whether a tool result's text is plan mode's
// refusal of a call, so a front end can show its own words for it
// instead of the paragraph written for the model.
func IsPlanRefusal(text string) bool { return strings.HasPrefix(text, planRefusalPrefix) }

// acceptedPlan matches the result of exit_plan_mode once the person
// accepted the plan (ExitPlanTool.Execute), capturing the mode.
var acceptedPlan = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\AThe user accepted the plan\. cairn has left plan mode and is now in (\S+) mode`)
})

// AcceptedPlanMode reads the mode cairn went on in from the result of an
// accepted plan; ok is false for any other text.
func AcceptedPlanMode(text string) (mode string, ok bool) {
	m := acceptedPlan().FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}
