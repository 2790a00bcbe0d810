package jsonrpc

import (
	"reflect"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

func TestCodeBlocks(t *testing.T) {
	cases := []struct {
		text string
		want []codeBlock
	}{
		{"no code", nil},
		{"a\n```go\nx := 1\ny := 2\n```\nb", []codeBlock{{"go", "x := 1\ny := 2"}}},
		{"~~~~\n```\ninside\n~~~~", []codeBlock{{"", "```\ninside"}}},
		{"```py extra words\nprint()\n```\n```\nsecond\n```", []codeBlock{{"py", "print()"}, {"", "second"}}},
		{"```sh\nleft open", []codeBlock{{"sh", "left open"}}},
		{"    ```\nindented is code, not a fence\n    ```", nil},
		{"``` a`b\nnot a fence", nil},
	}
	for _, tc := range cases {
		if got := codeBlocks(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

func TestChooseOption(t *testing.T) {
	all := core.Question{Options: []core.Option{
		{Value: string(approval.OptionAllowOnce)}, {Value: string(approval.OptionAllowSession)},
		{Value: string(approval.OptionAllowProject)}, {Value: string(approval.OptionDeny)}, {Value: string(approval.OptionDenyReason)},
	}}
	protected := core.Question{Options: []core.Option{{Value: string(approval.OptionAllowOnce)}, {Value: string(approval.OptionDeny)}}}
	plan := core.Question{Options: []core.Option{{Value: string(approval.OptionPlanDefault)}, {Value: string(approval.OptionPlanAutoEdit)}, {Value: string(approval.OptionKeepPlanning)}}}
	cases := []struct {
		q                                   core.Question
		approved, remember, similar, reason bool
		want                                approval.Option
	}{
		{all, true, false, false, false, approval.OptionAllowOnce},
		{all, true, true, false, false, approval.OptionAllowSession},
		{all, true, true, true, false, approval.OptionAllowProject},
		{all, true, false, true, false, approval.OptionAllowOnce},
		{all, false, true, false, false, approval.OptionDeny},
		{all, false, false, false, true, approval.OptionDenyReason},
		{protected, true, true, true, false, approval.OptionAllowOnce},
		{protected, false, false, false, true, approval.OptionDeny},
		{plan, true, false, false, false, approval.OptionPlanDefault},
		{plan, true, true, false, false, approval.OptionPlanAutoEdit},
		{plan, false, false, false, true, approval.OptionKeepPlanning},
		{plan, false, false, false, false, approval.OptionKeepPlanning},
	}
	for i, tc := range cases {
		if got := chooseOption(tc.q, tc.approved, tc.remember, tc.similar, tc.reason); got != tc.want {
			t.Errorf("case %d: %s, want %s", i, got, tc.want)
		}
	}
}
